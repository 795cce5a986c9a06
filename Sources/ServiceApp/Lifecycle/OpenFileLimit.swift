#if canImport(Glibc)
import Glibc
#endif
import Logging

/// The process's open-file limit (`RLIMIT_NOFILE`): every connection is a descriptor, so the
/// soft limit (often 1,024) caps the service long before `maxConnections` would. At start-up the
/// service raises it to the hard limit, as Go's runtime and nginx's `worker_rlimit_nofile` do,
/// and says so when even that leaves fewer descriptors than `maxConnections` needs.
enum OpenFileLimit {
    /// Descriptors the service needs besides its clients' connections: the listener, epoll and
    /// event descriptors, upstream connections, Redis, logs.
    static let reserve = 64

    /// Raises the soft limit to the hard limit; returns the limit in force afterwards (nil when
    /// it cannot be read).
    @discardableResult
    static func raise(logger: Logger) -> Int? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        if limit.rlim_cur < limit.rlim_max {
            let before = limit.rlim_cur
            limit.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 {
                logger.debug("open-file limit raised", metadata: ["from": "\(before)", "to": "\(limit.rlim_max)"])
            } else {
                limit.rlim_cur = before
            }
        }
        return Int(clamping: limit.rlim_cur)  // RLIM_INFINITY (all ones) clamps to Int.max
    }

    /// Raises the limit and warns when `maxConnections` does not fit under it.
    static func prepare(maxConnections: Int, logger: Logger) {
        guard let limit = raise(logger: logger), limit < maxConnections + reserve else { return }
        logger.warning(
            "the open-file limit allows fewer connections than maxConnections: connections beyond it wait in the backlog",
            metadata: ["open_file_limit": "\(limit)", "max_connections": "\(maxConnections)",
                       "connections_that_fit": "\(max(0, limit - reserve))"])
    }
}
