import CCurl
import Dispatch
import Foundation

/// One HTTP request, as `HTTPExchange` sends it.
struct HTTPRequest: Sendable {
    var method: String
    var url: String
    /// Sent as `Content-Type` with the body.
    var contentType: String?
    var body: [UInt8]?
    /// libcurl's own limit, a backstop behind the one the event loop keeps to the millisecond.
    var timeout: TimeSpan
    /// More headers, by name and value; one whose name or value breaks a line is never sent.
    var headers: [(name: String, value: String)] = []
    /// An answer with a longer body is `unavailable`, read no further.
    var maxBodyBytes = HTTPRequest.defaultMaxBodyBytes

    static let defaultMaxBodyBytes = 1 << 20
}

/// A finished HTTP exchange.
struct HTTPAnswer: Sendable {
    var status: Int
    var body: [UInt8]
}

/// HTTP through libcurl, loaded on first use: each exchange blocks a background thread, and can be
/// abandoned at any moment from another.
enum HTTPExchange {
    /// Nil when HTTP can be spoken here; otherwise why not, in words an operator can act on.
    static var unavailableReason: String? {
        signup_curl_load().map { String(cString: $0) }
    }

    private static let queue = DispatchQueue(label: "signup.http", attributes: .concurrent)

    /// Starts the exchange; `completion` runs once, on a background thread (after `cancel()`, with
    /// a failure nobody needs).
    static func start(
        _ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPAnswer, BackendError>) -> Void
    ) -> Cancellation {
        let cancellation = Cancellation()
        queue.async { completion(perform(request, cancellation)) }
        return cancellation
    }

    private static func perform(_ request: HTTPRequest, _ cancellation: Cancellation) -> Result<HTTPAnswer, BackendError> {
        let lines = request.headers.map { "\($0.name): \($0.value)" }
        // A line break (or a NUL, which would cut the line short) would let a value write more headers.
        guard request.headers.allSatisfy({ !$0.name.isEmpty && !$0.name.contains(":") }),
              lines.allSatisfy({ !$0.utf8.contains { $0 == 0x0A || $0 == 0x0D || $0 == 0 } }) else {
            return .failure(.unavailable(reason: "a request header's name or value breaks its line"))
        }
        let headerLines = lines.map { strdup($0) }
        defer { headerLines.forEach { free($0) } }
        guard !headerLines.contains(nil) else { return .failure(.unavailable(reason: "out of memory for the request's headers")) }
        var response = signup_http_response()
        let body = request.body ?? []
        let status = request.method.withCString { method in
            request.url.withCString { url in
                withOptionalCString(request.contentType) { contentType in
                    body.withUnsafeBufferPointer { bytes in
                        headerLines.map { UnsafePointer($0) }.withUnsafeBufferPointer { headers in
                            var exchange = signup_http_request(
                                method: method, url: url, content_type: contentType,
                                has_body: request.body == nil ? 0 : 1, body: bytes.baseAddress, body_length: bytes.count,
                                timeout_ms: Int(request.timeout.milliseconds), headers: headers.baseAddress, header_count: headers.count,
                                max_body_length: max(0, request.maxBodyBytes))
                            return signup_http_perform(&exchange, &response, cancellation.handle)
                        }
                    }
                }
            }
        }
        defer { signup_http_response_free(&response) }
        guard status == 0 else {
            if response.timed_out != 0 { return .failure(.timedOut) }
            if response.body_too_large != 0 {
                return .failure(.unavailable(reason: "the answer's body is longer than \(request.maxBodyBytes) bytes"))
            }
            let reason = withUnsafeBytes(of: response.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            return .failure(.unavailable(reason: reason))
        }
        let answer = response.body.map { Array(UnsafeBufferPointer(start: $0, count: response.body_length)) } ?? []
        return .success(HTTPAnswer(status: response.status, body: answer))
    }

    private static func withOptionalCString<Result>(
        _ text: String?, _ body: (UnsafePointer<CChar>?) -> Result
    ) -> Result {
        guard let text else { return body(nil) }
        return text.withCString { body($0) }
    }

    /// Abandons an exchange: its connections are shut down at once, and it ends.
    final class Cancellation: @unchecked Sendable {
        /// Thread-safe on the C side: a mutex guards the flag and the sockets.
        fileprivate let handle: OpaquePointer

        fileprivate init() {
            guard let handle = signup_http_cancel_create() else { fatalError("out of memory") }
            self.handle = handle
        }

        deinit {
            signup_http_cancel_destroy(handle)
        }

        func cancel() {
            signup_http_cancel_fire(handle)
        }
    }
}
