import CCurl
import Foundation
import Locking
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request on one curl easy handle: set-up, the body and header callbacks, and completion.
///
/// Created on any thread; from `configure(_:easy:)` on (the driver lends it an easy handle, and
/// keeps the handle and the header list until it ends), used by the multi handle's thread, except
/// `cancel()` and `isCancelled`. Its mutable state is in one lock, which only that thread takes
/// but for a cancel, so it is uncontended.
final class CurlTransfer: Sendable {
    typealias Completion = @Sendable (Result<(data: Data, head: CurlResponseHead), URLError>) -> Void

    /// The completion, and what the transfer has received so far.
    private struct State {
        /// Nil once cancelled or completed.
        var completion: Completion?
        var received = Received()
    }

    /// The response so far; a new one (after a redirect or 100 Continue) starts it over.
    private struct Received {
        var body = Data()
        var statusCode = 0
        var httpVersion = "HTTP/1.1"
        var headers: [(name: String, value: String)] = []
        var exceededLimit = false
    }

    let request: URLRequest
    /// The request's URL as handed to curl.
    private let requestedURL: String?
    private let maxResponseBytes: Int
    private let state: Locked<State>

    init(request: URLRequest, maxResponseBytes: Int, completion: @escaping Completion) {
        self.request = request
        requestedURL = request.url?.absoluteString
        self.maxResponseBytes = maxResponseBytes
        state = Locked(State(completion: completion))
    }

    var isCancelled: Bool { state.withLock { $0.completion == nil } }

    /// Drops the completion; the multi thread then removes and frees the handle.
    func cancel() {
        state.withLock { $0.completion = nil }
    }

    /// Sets up `easy` (a new handle, or one reset after an earlier transfer) for this request
    /// and returns the header list it hands curl, which the caller frees
    /// (`curl_slist_free_all`) once the handle has left the multi handle; nil if the request
    /// cannot be handed to curl. Setting options calls none of the callbacks.
    func configure(_ settings: CurlHTTPClient.Configuration, easy: UnsafeMutableRawPointer) -> UnsafeMutablePointer<curl_slist>? {
        guard let url = requestedURL else { return nil }
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = ccurl_easy_setopt_string(easy, CURLOPT_URL, url)
        _ = ccurl_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        _ = ccurl_easy_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, "")
        _ = ccurl_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 1)
        _ = ccurl_easy_setopt_long(easy, CURLOPT_MAXREDIRS, settings.maxRedirects)
        _ = ccurl_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Int(settings.connectTimeout / .milliseconds(1)))
        let total = min(settings.requestTimeout / .milliseconds(1), request.timeoutInterval * 1000)
        _ = ccurl_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, Int(max(1, total)))
        _ = ccurl_easy_setopt_long(easy, CURLOPT_HTTP_VERSION, Int(CURL_HTTP_VERSION_2TLS))
        _ = ccurl_easy_setopt_callback(easy, CURLOPT_WRITEFUNCTION, curlWriteBody)
        _ = ccurl_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, context)
        _ = ccurl_easy_setopt_callback(easy, CURLOPT_HEADERFUNCTION, curlWriteHeader)
        _ = ccurl_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, context)

        let method = request.httpMethod ?? "GET"
        if method == "HEAD" {
            _ = ccurl_easy_setopt_long(easy, CURLOPT_NOBODY, 1)
        } else if method != "GET" {
            _ = ccurl_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, method)
        }
        if let data = request.httpBody {
            _ = ccurl_easy_setopt_long(easy, CURLOPT_POSTFIELDSIZE, data.count)
            var bytes = [UInt8](data)
            bytes.withUnsafeMutableBytes {
                _ = ccurl_easy_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, $0.baseAddress)
            }
        }
        // An empty `Expect:` stops curl from waiting for 100-continue on bodies.
        let fields = (request.allHTTPHeaderFields ?? [:]).map { ($0.key, $0.value) } + [("Expect", "")]
        var headerList: UnsafeMutablePointer<curl_slist>?
        for (name, value) in fields {
            headerList = curl_slist_append(headerList, value.isEmpty ? "\(name);" : "\(name): \(value)")
        }
        _ = ccurl_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headerList))
        return headerList
    }

    /// Reports the outcome (multi thread), unless cancelled; `easy` is the handle it ran on.
    func complete(_ code: CURLcode, easy: UnsafeMutableRawPointer?) {
        guard let (completion, received) = state.withLock({ state -> (Completion, Received)? in
            guard let completion = state.completion else { return nil }
            state.completion = nil
            return (completion, state.received)
        }) else { return }
        let url = effectiveURL(easy)
        if received.exceededLimit {
            completion(.failure(URLError(.dataLengthExceedsMaximum, userInfo: [NSURLErrorFailingURLErrorKey: url as Any])))
        } else if code != CURLE_OK {
            completion(.failure(CurlError.urlError(for: code, url: url)))
        } else if let url {
            let head = CurlResponseHead(url: url, statusCode: received.statusCode, httpVersion: received.httpVersion, fields: received.headers)
            completion(.success((received.body, head)))
        } else {
            completion(.failure(URLError(.badServerResponse)))
        }
    }

    /// The URL the transfer ended at (after redirects), read from its easy handle.
    private func effectiveURL(_ easy: UnsafeMutableRawPointer?) -> URL? {
        var pointer: UnsafeMutablePointer<CChar>?
        guard let easy, ccurl_easy_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &pointer) == CURLE_OK, let pointer else {
            return request.url
        }
        // Not redirected: the request's own URL, without parsing it again.
        if let requestedURL, requestedURL.withCString({ strcmp($0, pointer) == 0 }) { return request.url }
        return URL(string: String(cString: pointer)) ?? request.url
    }

    fileprivate func receiveBody(_ data: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
        let limit = maxResponseBytes
        // Not copied here: appending it copies it once, into the body.
        let chunk = Data(bytesNoCopy: data, count: count, deallocator: .none)
        let accepted = state.withLock { state in
            guard state.received.body.count + count <= limit, state.completion != nil else {
                state.received.exceededLimit = state.received.body.count + count > limit
                return false
            }
            state.received.body.append(chunk)
            return true
        }
        return accepted ? count : 0  // 0 makes curl stop the transfer
    }

    /// One header line as libcurl hands it (CRLF included): the status line starts a new
    /// response; a field is kept with its name and value trimmed of optional whitespace. Read
    /// as bytes: HTTP's separators and whitespace are ASCII.
    fileprivate func receiveHeader(_ data: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
        data.withMemoryRebound(to: UInt8.self, capacity: count) { start in
            var bytes = UnsafeBufferPointer(start: start, count: count)
            while let last = bytes.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") {
                bytes = UnsafeBufferPointer(rebasing: bytes.dropLast())
            }
            let line = bytes.trimmingOptionalWhitespace()
            if line.starts(with: "HTTP/".utf8) {
                // A new response (after a redirect or 100 Continue): start over.
                let parts = line.split(separator: UInt8(ascii: " "), maxSplits: 2)
                var fresh = Received()
                fresh.httpVersion = parts.first.map { String(decoding: $0, as: UTF8.self) } ?? "HTTP/1.1"
                fresh.statusCode = parts.count > 1 ? Int(String(decoding: parts[1], as: UTF8.self)) ?? 0 : 0
                state.withLock { state in
                    fresh.exceededLimit = state.received.exceededLimit
                    state.received = fresh
                }
            } else if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
                let name = String(decoding: UnsafeBufferPointer(rebasing: line[..<colon]).trimmingOptionalWhitespace(), as: UTF8.self)
                let value = String(decoding: UnsafeBufferPointer(rebasing: line[(colon + 1)...]).trimmingOptionalWhitespace(), as: UTF8.self)
                state.withLock { $0.received.headers.append((name, value)) }
            }
        }
        return count
    }
}

private let curlWriteBody: ccurl_data_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().receiveBody(data, size * count)
}

private let curlWriteHeader: ccurl_data_callback = { data, size, count, context in
    guard let data, let context else { return 0 }
    return Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue().receiveHeader(data, size * count)
}
