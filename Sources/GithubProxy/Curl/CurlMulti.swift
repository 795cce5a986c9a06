import CCurl
import Foundation
import Locking
import Synchronization

/// One curl multi handle and the thread that drives it.
///
/// The thread loops on `curl_multi_poll`, adding and removing easy handles handed over through
/// `handover`, running transfers and reporting finished ones. `curl_multi_wakeup` interrupts the
/// poll when work arrives, so a cancel takes effect at once: the easy handle leaves the multi
/// handle, and curl closes a connection it was in the middle of reading instead of pooling it.
///
/// What other threads share with the driver is in `handover`'s lock; what only the driver
/// touches (the transfers in the multi handle) is a local of its thread, `Driver`.
///
/// Transfers complete on the driver thread (`CurlTransfer.complete`), which may start, cancel
/// or shut down from there: each only queues its request in `handover`.
final class CurlMulti: Sendable {
    /// What the other threads hand the driver thread.
    private struct Handover {
        /// The multi handle. Other threads only pass it to `curl_multi_wakeup` (which libcurl
        /// documents as callable from any thread), under this lock and only while `stopping` is
        /// false, so never after the driver thread has cleaned the handle up.
        let multi: UnsafeMutableRawPointer
        var toAdd: [CurlTransfer] = []
        var toRemove: [CurlTransfer] = []
        var stopping = false
    }

    private let handover: Locked<Handover>
    private let settings: CurlHTTPClient.Configuration
    private let stopped = DispatchSemaphore(value: 0)
    /// The driver thread's `pthread_self()`, once it runs (0 before).
    private let driverThread = Atomic<UInt>(0)

    init(settings: CurlHTTPClient.Configuration) {
        CurlMulti.globalInit
        let multi: UnsafeMutableRawPointer = curl_multi_init()
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, settings.maxConnectionsPerHost)
        _ = ccurl_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, settings.maxConnectionsPerHost * 4)
        handover = Locked(Handover(multi: multi))
        self.settings = settings
        let thread = Thread { [self] in run() }
        thread.start()
        thread.name = "curl-multi"  // after `start`: Foundation on Linux gives the kernel the name of a started thread only
    }

    /// Starts `transfer`; after `shutdown` it fails at once (`CURLE_FAILED_INIT`), though never
    /// inside this call: the caller may hold the lock its completion takes.
    func add(_ transfer: CurlTransfer) {
        let accepted = handover.withLock { handover in
            guard !handover.stopping else { return false }
            handover.toAdd.append(transfer)
            curl_multi_wakeup(handover.multi)
            return true
        }
        if !accepted {
            DispatchQueue.global().async { transfer.complete(CURLE_FAILED_INIT, easy: nil) }
        }
    }

    /// Aborts `transfer`; its completion will not be called.
    func remove(_ transfer: CurlTransfer) {
        transfer.cancel()
        handover.withLock { handover in
            guard !handover.stopping else { return }
            handover.toRemove.append(transfer)
            curl_multi_wakeup(handover.multi)
        }
    }

    /// Aborts every transfer and stops the thread; returns once it has stopped. Calls after the
    /// first return at once. Called on the driver thread (a completion that releases the last
    /// reference to its client), it returns at once and the thread stops after that completion.
    func shutdown() {
        let first = handover.withLock { handover in
            guard !handover.stopping else { return false }
            handover.stopping = true
            curl_multi_wakeup(handover.multi)
            return true
        }
        if first && !isDriverThread { stopped.wait() }
    }

    /// Whether the caller runs on the driver thread (where transfers complete).
    var isDriverThread: Bool { pthread_self() == driverThread.load(ordering: .acquiring) }

    /// The driver thread's loop.
    private func run() {
        driverThread.store(pthread_self(), ordering: .releasing)
        var driver = Driver(multi: handover.withLock { $0.multi }, settings: settings)
        while true {
            let (adds, removals, stop) = handover.withLock { handover in
                defer { handover.toAdd = []; handover.toRemove = [] }
                return (handover.toAdd, handover.toRemove, handover.stopping)
            }
            for transfer in removals {
                driver.detach(transfer)
            }
            for transfer in adds {
                driver.attach(transfer)
            }
            if stop {
                driver.detachAll()
                break
            }
            driver.perform()
        }
        driver.cleanup()
        stopped.signal()
    }

    private static let globalInit: Void = {
        curl_global_init(Int(CURL_GLOBAL_ALL))
    }()
}

/// What only the driver thread touches: the multi handle's transfers, and the easy handles kept
/// for reuse. A local of that thread.
private struct Driver {
    let multi: UnsafeMutableRawPointer
    let settings: CurlHTTPClient.Configuration
    /// Transfers in the multi handle, by the easy handle each runs on, with the header list it
    /// handed curl.
    private var active: [UnsafeMutableRawPointer: (transfer: CurlTransfer, headers: UnsafeMutablePointer<curl_slist>)] = [:]
    /// Easy handles of ended transfers, reset, for the next ones: libcurl keeps a handle's
    /// buffers across `curl_easy_reset`, so a reused handle costs no allocation and no set-up
    /// but its options. At most `settings.spareEasyHandles`.
    private var spare: [UnsafeMutableRawPointer] = []

    init(multi: UnsafeMutableRawPointer, settings: CurlHTTPClient.Configuration) {
        self.multi = multi
        self.settings = settings
    }

    mutating func attach(_ transfer: CurlTransfer) {
        guard !transfer.isCancelled else { return }
        guard let easy = spare.popLast() ?? Self.newHandle() else {
            transfer.complete(CURLE_FAILED_INIT, easy: nil)
            return
        }
        guard let headers = transfer.configure(settings, easy: easy) else {
            recycle(easy)
            transfer.complete(CURLE_FAILED_INIT, easy: nil)
            return
        }
        active[easy] = (transfer, headers)
        curl_multi_add_handle(multi, easy)
    }

    mutating func detach(_ transfer: CurlTransfer) {
        // A cancel, rarer than a completion: found among the transfers in flight.
        guard let (easy, entry) = active.first(where: { $0.value.transfer === transfer }) else { return }
        active[easy] = nil
        curl_multi_remove_handle(multi, easy)
        curl_slist_free_all(entry.headers)
        recycle(easy)
    }

    mutating func detachAll() {
        for (transfer, _) in active.values { detach(transfer) }
    }

    /// Runs the transfers, reports the finished ones, then waits for activity or a wake-up.
    mutating func perform() {
        var running: Int32 = 0
        curl_multi_perform(multi, &running)
        reportFinished()
        curl_multi_poll(multi, nil, 0, 1000, nil)
    }

    /// Frees the spare handles and the multi handle (once every transfer has left it).
    mutating func cleanup() {
        spare.forEach(Self.free)
        spare = []
        curl_multi_cleanup(multi)
    }

    /// Keeps `easy` (out of the multi handle, its transfer done with it) for a later transfer,
    /// reset to curl's defaults so that nothing of the last one carries over, or frees it when
    /// enough are kept.
    private mutating func recycle(_ easy: UnsafeMutableRawPointer) {
        guard spare.count < settings.spareEasyHandles else { return Self.free(easy) }
        curl_easy_reset(easy)
        spare.append(easy)
    }

    private static func newHandle() -> UnsafeMutableRawPointer? {
        guard let easy = curl_easy_init() else { return nil }
        CurlHTTPClient.easyHandles.add(1, ordering: .relaxed)
        return easy
    }

    private static func free(_ easy: UnsafeMutableRawPointer) {
        curl_easy_cleanup(easy)
        CurlHTTPClient.easyHandles.subtract(1, ordering: .relaxed)
    }

    private mutating func reportFinished() {
        var queued: Int32 = 0
        while let message = curl_multi_info_read(multi, &queued) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                  let (transfer, headers) = active.removeValue(forKey: easy)
            else { continue }
            let result = message.pointee.data.result
            curl_multi_remove_handle(multi, easy)
            transfer.complete(result, easy: easy)
            curl_slist_free_all(headers)
            recycle(easy)
        }
    }
}
