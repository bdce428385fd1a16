import CCurl
import Dispatch
import Foundation
import SignupCore
import Synchronization

/// One HTTP request, as `HTTPExchange` sends it.
struct HTTPRequest: Sendable {
    var method: String
    var url: String
    /// Sent as `Content-Type` with the body.
    var contentType: String?
    var body: [UInt8]?
    /// Counted from when the request is sent, to its answer's last byte.
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

/// HTTP through libcurl's multi interface, loaded on first use: every exchange of the process is
/// driven by the engine's threads, a thread a processor up to four (`CCurl.h`), so any number are
/// in flight at once, up to
/// `maxInFlight`, and a hung endpoint holds only its own. An exchange can be abandoned at any
/// moment from any thread, and is then ended on the wire at once.
enum HTTPExchange {
    /// Nil when HTTP can be spoken here; otherwise why not, in words an operator can act on.
    static var unavailableReason: String? {
        signup_curl_load().map { String(cString: $0) }
    }

    /// The most exchanges on the wire at once, for the whole process; more wait to be sent, and
    /// each one's timeout counts from when it is.
    static let maxInFlight = Int(SIGNUP_HTTP_MAX_IN_FLIGHT)

    /// `User-Agent` on every request: the Pwned Passwords API requires one, and any API's
    /// operator can tell these requests apart by it. `$SIGNUP_HTTP_USER_AGENT` replaces it.
    static let userAgent = ProcessInfo.processInfo.environment["SIGNUP_HTTP_USER_AGENT"]
        ?? "signup-rpc/0.1.0"

    typealias Completion = @Sendable (Result<HTTPAnswer, BackendError>) -> Void

    /// An exchange started and neither completed nor abandoned.
    private struct Started {
        var completion: Completion
        var maxBodyBytes: Int
    }

    /// The exchanges started and neither completed nor abandoned, by number.
    private static let completions = Mutex<[UInt64: Started]>([:])

    /// Starts the exchange; `completion` runs once, on the engine's thread, unless the exchange
    /// is cancelled first. It must only hand the answer on.
    static func start(_ request: HTTPRequest, completion: @escaping Completion) -> Cancellation {
        let lines = request.headers.map { "\($0.name): \($0.value)" }
        // A line break (or a NUL, which would cut the line short) would let a value write more headers.
        guard request.headers.allSatisfy({ !$0.name.isEmpty && !$0.name.contains(":") }),
              lines.allSatisfy({ !$0.utf8.contains { $0 == 0x0A || $0 == 0x0D || $0 == 0 } }) else {
            completion(.failure(.unavailable(reason: "a request header's name or value breaks its line")))
            return Cancellation(exchange: 0)
        }
        // The lock is held across the start, so that a completion, which may come at once, finds
        // its entry.
        let started: Result<UInt64, BackendError> = completions.withLock { completions in
            var problem: UnsafePointer<CChar>?
            let exchange = withRequest(request, headerLines: lines) { signup_http_start($0, HTTPExchange.completed, &problem) }
            guard exchange != 0 else {
                return .failure(.unavailable(reason: problem.map { String(cString: $0) } ?? "the exchange could not be started"))
            }
            completions[exchange] = Started(completion: completion, maxBodyBytes: request.maxBodyBytes)
            return .success(exchange)
        }
        switch started {
        case .success(let exchange): return Cancellation(exchange: exchange)
        case .failure(let error):
            completion(.failure(error))
            return Cancellation(exchange: 0)
        }
    }

    /// The engine's one completion: on its thread, for an exchange that was not aborted.
    private static let completed: signup_http_completion = { exchange, response in
        guard let response, let started = completions.withLock({ $0.removeValue(forKey: exchange) }) else { return }
        started.completion(outcome(of: response.pointee, maxBodyBytes: started.maxBodyBytes))
    }

    private static func outcome(of response: signup_http_response, maxBodyBytes: Int) -> Result<HTTPAnswer, BackendError> {
        let failed = withUnsafeBytes(of: response.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        guard failed.isEmpty else {
            if response.timed_out != 0 { return .failure(.timedOut) }
            if response.body_too_large != 0 {
                return .failure(.unavailable(reason: "the answer's body is longer than \(maxBodyBytes) bytes"))
            }
            return .failure(.unavailable(reason: failed))
        }
        let body = response.body.map { Array(UnsafeBufferPointer(start: $0, count: response.body_length)) } ?? []
        return .success(HTTPAnswer(status: response.status, body: body))
    }

    /// The request as C sees it, valid for the duration of `body`.
    private static func withRequest<Result>(
        _ request: HTTPRequest, headerLines: [String], _ body: (UnsafePointer<signup_http_request>) -> Result
    ) -> Result {
        let lines = headerLines.map { strdup($0) }
        defer { lines.forEach { free($0) } }
        let bytes = request.body ?? []
        return request.method.withCString { method in
            request.url.withCString { url in
                userAgent.withCString { agent in
                    withOptionalCString(request.contentType) { contentType in
                        bytes.withUnsafeBufferPointer { bytes in
                            lines.map { UnsafePointer($0) }.withUnsafeBufferPointer { headers in
                                var exchange = signup_http_request(
                                    method: method, url: url, content_type: contentType,
                                    has_body: request.body == nil ? 0 : 1, body: bytes.baseAddress, body_length: bytes.count,
                                    timeout_ms: Int(clamping: request.timeout.milliseconds), headers: headers.baseAddress,
                                    header_count: headers.count, max_body_length: max(0, request.maxBodyBytes), user_agent: agent)
                                return body(&exchange)
                            }
                        }
                    }
                }
            }
        }
    }

    private static func withOptionalCString<Result>(
        _ text: String?, _ body: (UnsafePointer<CChar>?) -> Result
    ) -> Result {
        guard let text else { return body(nil) }
        return text.withCString { body($0) }
    }

    /// Abandons an exchange: it is ended on the wire at once, and its completion never runs.
    struct Cancellation: Sendable {
        /// 0 for one that never started.
        fileprivate let exchange: UInt64

        func cancel() {
            guard exchange != 0, HTTPExchange.completions.withLock({ $0.removeValue(forKey: exchange) }) != nil else { return }
            signup_http_abort(exchange)
        }
    }
}
