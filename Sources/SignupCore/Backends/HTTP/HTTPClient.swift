import Foundation

/// HTTP exchanges answered on the event loop, each bounded to the millisecond by the loop's own
/// clock: what the HTTP directory and `http` checks share.
final class HTTPClient {
    private let loop: EventLoop
    private let clock: RealTimeScheduler

    init(loop: EventLoop) {
        self.loop = loop
        clock = RealTimeScheduler(loop: loop)
    }

    /// The loop's clock, which the client's timeouts and caches count on.
    var now: TimePoint { clock.now }

    /// One exchange: emits the status and body on the event loop, or fails with a `BackendError`
    /// (`timedOut` once `timeout` has passed). Disposing cancels it.
    func exchange(_ request: HTTPRequest, timeout: TimeSpan) -> EventStream<HTTPAnswer> {
        let loop = self.loop
        let clock = self.clock
        return EventStream { observer in
            let pending = PendingDelivery<HTTPAnswer>(observer)
            let handoff = UncheckedTransfer(pending)
            let exchange = HTTPExchange.start(request) { outcome in
                loop.execute { handoff.value.deliver(outcome) }
            }
            let timer = clock.schedule(after: timeout) {
                pending.deliver(.failure(.timedOut))
                exchange.cancel()
            }
            return Disposables.create {
                timer.dispose()
                pending.cancel()
                exchange.cancel()
            }
        }
    }

    /// libcurl's own timeout: the loop enforces `timeout` to the millisecond; this only ends an
    /// exchange whose answer nobody is waiting for any more.
    static func backstop(for timeout: TimeSpan) -> TimeSpan { timeout + .seconds(2) }

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
