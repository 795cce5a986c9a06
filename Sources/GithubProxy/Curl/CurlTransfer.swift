import CCurl
import Foundation
import Locking
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request on one curl easy handle: set-up, the body and header callbacks, and completion.
///
/// Created on any thread; from `configure()` on, touched only by the multi handle's thread,
/// except `cancel()` and `isCancelled`, which go through `lock`.
final class CurlTransfer: @unchecked Sendable {
    typealias Completion = @Sendable (Result<(data: Data, response: HTTPURLResponse), URLError>) -> Void

    let request: URLRequest
    private(set) var easy: UnsafeMutableRawPointer?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private var body = Data()
    private var statusCode = 0
    private var httpVersion = "HTTP/1.1"
    private var responseHeaders: [(String, String)] = []
    private let maxResponseBytes: Int
    private let lock = Lock()
    private var completion: Completion?
    private var exceededLimit = false

    init(request: URLRequest, maxResponseBytes: Int, completion: @escaping Completion) {
        self.request = request
        self.maxResponseBytes = maxResponseBytes
        self.completion = completion
    }

    var isCancelled: Bool { lock.withLock { completion == nil } }

    /// Drops the completion; the multi thread then removes and frees the handle.
    func cancel() {
        lock.withLock { completion = nil }
    }

    /// Creates and sets up the easy handle. Returns false if curl could not be set up.
    func configure(_ settings: CurlHTTPClient.Configuration) -> Bool {
        guard let url = request.url?.absoluteString, let easy = curl_easy_init() else { return false }
        self.easy = easy
        CurlHTTPClient.easyHandles.add(1, ordering: .relaxed)
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
        for (name, value) in fields {
            headerList = curl_slist_append(headerList, value.isEmpty ? "\(name);" : "\(name): \(value)")
        }
        _ = ccurl_easy_setopt_pointer(easy, CURLOPT_HTTPHEADER, UnsafeMutableRawPointer(headerList))
        return true
    }

    /// Frees the easy handle and header list (multi thread, after removal from the multi handle).
    func cleanup() {
        if let easy {
            curl_easy_cleanup(easy)
            CurlHTTPClient.easyHandles.subtract(1, ordering: .relaxed)
        }
        easy = nil
        if let headerList { curl_slist_free_all(headerList) }
        headerList = nil
    }

    /// Reports the outcome (multi thread), unless cancelled.
    func complete(_ code: CURLcode) {
        guard let completion = lock.withLock({ () -> Completion? in
            defer { self.completion = nil }
            return self.completion
        }) else { return }
        let url = effectiveURL()
        if exceededLimit {
            completion(.failure(URLError(.dataLengthExceedsMaximum, userInfo: [NSURLErrorFailingURLErrorKey: url as Any])))
        } else if code != CURLE_OK {
            completion(.failure(CurlError.urlError(for: code, url: url)))
        } else if let url, let response = HTTPURLResponse(
            url: url, statusCode: statusCode, httpVersion: httpVersion,
            headerFields: Dictionary(responseHeaders, uniquingKeysWith: { "\($0), \($1)" })
        ) {
            completion(.success((body, response)))
        } else {
            completion(.failure(URLError(.badServerResponse)))
        }
    }

    private func effectiveURL() -> URL? {
        var pointer: UnsafeMutablePointer<CChar>?
        if let easy, ccurl_easy_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &pointer) == CURLE_OK, let pointer {
            return URL(string: String(cString: pointer)) ?? request.url
        }
        return request.url
    }

    fileprivate func receiveBody(_ data: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
        guard body.count + count <= maxResponseBytes, !isCancelled else {
            exceededLimit = body.count + count > maxResponseBytes
            return 0  // makes curl stop the transfer
        }
        data.withMemoryRebound(to: UInt8.self, capacity: count) { body.append($0, count: count) }
        return count
    }

    fileprivate func receiveHeader(_ data: UnsafeMutablePointer<CChar>, _ count: Int) -> Int {
        let line = data.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }.trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            // A new response (after a redirect or 100 Continue): start over.
            let parts = line.split(separator: " ", maxSplits: 2)
            httpVersion = String(parts.first ?? "HTTP/1.1")
            statusCode = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            responseHeaders = []
            body = Data()
        } else if let colon = line.firstIndex(of: ":") {
            let name = line[..<colon].trimmingCharacters(in: .whitespaces)
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            responseHeaders.append((name, value))
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
