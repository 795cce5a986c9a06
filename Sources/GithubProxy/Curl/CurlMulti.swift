import CCurl
import Foundation
import Locking

/// One curl multi handle and the thread that drives it.
///
/// The thread loops on `curl_multi_poll`, adding and removing easy handles handed over through
/// `lock`, running transfers and reporting finished ones. `curl_multi_wakeup` interrupts the poll
/// when work arrives, so a cancel takes effect at once: the easy handle leaves the multi handle,
/// and curl closes a connection it was in the middle of reading instead of pooling it.
final class CurlMulti: @unchecked Sendable {
    // Sendable: `multi` is only used on the driver thread, except `curl_multi_wakeup`, which
    // libcurl documents as callable from any thread; the hand-over lists and `stopping` are
    // guarded by `lock`. `curl_multi_wakeup` is called under `lock` and only while `stopping` is
    // false, so never after the driver thread has cleaned the handle up.

    private let multi: UnsafeMutableRawPointer
    private let settings: CurlHTTPClient.Configuration
    private let lock = Lock()
    private var toAdd: [CurlTransfer] = []
    private var toRemove: [CurlTransfer] = []
    private var stopping = false
    /// Transfers in the multi handle, by easy handle; driver thread only.
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    private let stopped = DispatchSemaphore(value: 0)

    init(settings: CurlHTTPClient.Configuration) {
        CurlMulti.globalInit
        multi = curl_multi_init()
        self.settings = settings
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, settings.maxConnectionsPerHost)
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, settings.maxConnectionsPerHost * 4)
        let thread = Thread { [self] in run() }
        thread.name = "curl-multi"
        thread.start()
    }

    /// Starts `transfer`; after `shutdown` it fails at once (`CURLE_FAILED_INIT`).
    func add(_ transfer: CurlTransfer) {
        let accepted = lock.withLock {
            guard !stopping else { return false }
            toAdd.append(transfer)
            curl_multi_wakeup(multi)
            return true
        }
        if !accepted {
            transfer.complete(CURLE_FAILED_INIT)
        }
    }

    /// Aborts `transfer`; its completion will not be called.
    func remove(_ transfer: CurlTransfer) {
        transfer.cancel()
        lock.withLock {
            guard !stopping else { return }
            toRemove.append(transfer)
            curl_multi_wakeup(multi)
        }
    }

    /// Aborts every transfer and stops the thread; returns once it has stopped. Calls after the
    /// first return at once.
    func shutdown() {
        let first = lock.withLock {
            guard !stopping else { return false }
            stopping = true
            curl_multi_wakeup(multi)
            return true
        }
        if first { stopped.wait() }
    }

    private func run() {
        while true {
            let (adds, removals, stop) = lock.withLock {
                defer { toAdd = []; toRemove = [] }
                return (toAdd, toRemove, stopping)
            }
            for transfer in removals {
                detach(transfer)
            }
            for transfer in adds {
                attach(transfer)
            }
            if stop {
                active.values.forEach(detach)
                break
            }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            reportFinished()
            curl_multi_poll(multi, nil, 0, 1000, nil)
        }
        curl_multi_cleanup(multi)
        stopped.signal()
    }

    private func attach(_ transfer: CurlTransfer) {
        guard !transfer.isCancelled else { return }
        guard transfer.configure(settings), let easy = transfer.easy else {
            transfer.complete(CURLE_FAILED_INIT)
            transfer.cleanup()
            return
        }
        active[easy] = transfer
        curl_multi_add_handle(multi, easy)
    }

    private func detach(_ transfer: CurlTransfer) {
        guard let easy = transfer.easy, active.removeValue(forKey: easy) != nil else { return }
        curl_multi_remove_handle(multi, easy)
        transfer.cleanup()
    }

    private func reportFinished() {
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                  let transfer = active.removeValue(forKey: easy)
            else { continue }
            let result = message.pointee.data.result
            curl_multi_remove_handle(multi, easy)
            transfer.complete(result)
            transfer.cleanup()
        }
    }

    private static let globalInit: Void = {
        curl_global_init(Int(CURL_GLOBAL_ALL))
    }()
}
