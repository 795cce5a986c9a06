import CZlib

/// Why gzip compression failed (zlib out of memory or an input too large for one call).
public enum GzipError: Error, Equatable, Sendable {
    /// `deflateInit2` failed with this zlib code.
    case initializationFailed(Int32)
    /// `deflate` failed with this zlib code.
    case compressionFailed(Int32)
    /// The input is larger than zlib takes in one call (4 GiB).
    case inputTooLarge
}

/// Compresses whole bodies into the gzip format (RFC 1952) with zlib (`windowBits` 31).
///
/// The zlib stream is created once and reset between bodies, so keep one encoder per
/// connection (it is not thread-safe, and holds about 256 KiB of zlib state).
public final class GzipEncoder {
    private let stream: UnsafeMutablePointer<z_stream>

    /// Creates an encoder at zlib `level` (1 fastest … 9 smallest; 6 is zlib's default).
    public init(level: Int32 = 6) throws(GzipError) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = czlib_deflateInit2(stream, level, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY)
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw .initializationFailed(status)
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// The gzip member holding `input`.
    public func compress(_ input: [UInt8]) throws(GzipError) -> [UInt8] {
        guard input.count <= Int(UInt32.max) else { throw .inputTooLarge }
        defer { deflateReset(stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(stream, uLong(input.count))))
        var produced = 0
        let status: Int32 = input.withUnsafeBufferPointer { inBuf in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: inBuf.baseAddress)
            stream.pointee.avail_in = uInt(inBuf.count)
            var status = Z_OK
            while status == Z_OK || status == Z_BUF_ERROR {
                if produced == output.count { output.append(contentsOf: repeatElement(0, count: Swift.max(64, output.count / 2))) }
                status = output.withUnsafeMutableBufferPointer { outBuf in
                    stream.pointee.next_out = outBuf.baseAddress.map { $0 + produced }
                    stream.pointee.avail_out = uInt(outBuf.count - produced)
                    let status = deflate(stream, Z_FINISH)
                    produced = outBuf.count - Int(stream.pointee.avail_out)
                    return status
                }
                if status == Z_BUF_ERROR && stream.pointee.avail_out != 0 { break }  // no progress possible
            }
            stream.pointee.next_in = nil
            stream.pointee.next_out = nil
            return status
        }
        guard status == Z_STREAM_END else { throw .compressionFailed(status) }
        output.removeSubrange(produced...)
        return output
    }
}
