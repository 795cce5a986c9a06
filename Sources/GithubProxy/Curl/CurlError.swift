import CCurl
import Foundation

/// Maps libcurl's result codes to the `URLError` codes Combine users know from URLSession.
enum CurlError {
    static func urlError(for code: CURLcode, url: URL?) -> URLError {
        let errorCode: URLError.Code
        switch code {
        case CURLE_OPERATION_TIMEDOUT: errorCode = .timedOut
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY: errorCode = .cannotFindHost
        case CURLE_COULDNT_CONNECT: errorCode = .cannotConnectToHost
        case CURLE_TOO_MANY_REDIRECTS: errorCode = .httpTooManyRedirects
        case CURLE_PEER_FAILED_VERIFICATION: errorCode = .serverCertificateUntrusted
        case CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE,
             CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_SHUTDOWN_FAILED,
             CURLE_SSL_CRL_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_USE_SSL_FAILED:
            errorCode = .secureConnectionFailed
        case CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            errorCode = .networkConnectionLost
        case CURLE_FILESIZE_EXCEEDED, CURLE_WRITE_ERROR: errorCode = .dataLengthExceedsMaximum
        case CURLE_URL_MALFORMAT, CURLE_UNSUPPORTED_PROTOCOL: errorCode = .badURL
        case CURLE_ABORTED_BY_CALLBACK: errorCode = .cancelled
        default: errorCode = .unknown
        }
        var info: [String: Any] = [NSLocalizedDescriptionKey: String(cString: curl_easy_strerror(code))]
        if let url { info[NSURLErrorFailingURLErrorKey] = url }
        return URLError(errorCode, userInfo: info)
    }
}
