import Foundation
import SignupCore

/// HTTP exchanges answered on the event loop, each bounded by its request's timeout, counted from
/// when it is sent: what the HTTP directory, `http` checks, submissions and the breach check share.
final class HTTPClient {
    private let loop: EventLoop
    private let clock: RealTimeScheduler

    init(loop: EventLoop) {
        self.loop = loop
        clock = RealTimeScheduler(loop: loop)
    }

    /// The loop's clock, which the client's caches count on.
    var now: TimePoint { clock.now }

    /// One exchange: emits the status and body on the event loop, or fails with a `BackendError`
    /// (`timedOut` once the request's timeout has passed since it was sent). Disposing ends it on
    /// the wire at once.
    func exchange(_ request: HTTPRequest) -> EventStream<HTTPAnswer> {
        let loop = self.loop
        return EventStream { observer in
            let pending = PendingDelivery<HTTPAnswer>(observer)
            let handoff = UncheckedTransfer(pending)
            let exchange = HTTPExchange.start(request) { outcome in
                loop.execute { handoff.value.deliver(outcome) }
            }
            return Disposables.create {
                pending.cancel()
                exchange.cancel()
            }
        }
    }

    /// The request a declared call makes: `url` with its placeholders' values percent-encoded,
    /// `body` as JSON, and each header's value read from `environment` now. An error, sending
    /// nothing, when a placeholder has no value or a header's variable is not set.
    static func request(
        method: String, url: TextTemplate, values: (String) -> String?, body: JSONValue?, headers: [HTTPCheck.Header],
        environment: (String) -> String?, timeout: TimeSpan, maxBodyBytes: Int
    ) -> Result<HTTPRequest, BackendError> {
        guard let address = url.render(values, encode: TextTemplate.percentEncoded) else {
            return .failure(.unavailable(reason: "the URL \(url) names a value the request does not have"))
        }
        var lines: [(name: String, value: String)] = []
        for header in headers {
            guard let text = environment(header.environmentVariable) else {
                return .failure(.unavailable(reason: "the environment variable \(header.environmentVariable) is not set"))
            }
            lines.append((header.name, header.prefix + text))
        }
        return .success(HTTPRequest(
            method: method, url: address, contentType: body == nil ? nil : "application/json", body: body.map(encoded),
            timeout: timeout, headers: lines, maxBodyBytes: maxBodyBytes))
    }

    static func jsonValue(from body: [UInt8]) -> JSONValue? {
        guard !body.isEmpty else { return nil }
        return try? JSONDecoder().decode(JSONValue.self, from: Data(body))
    }

    /// Compact JSON with sorted keys, as requests send it.
    static func encoded(_ value: JSONValue) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map(Array.init) ?? []
    }
}
