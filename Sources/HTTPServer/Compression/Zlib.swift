import CZlib

/// The zlib version this module links against.
public let zlibVersionString = String(cString: zlibVersion())
