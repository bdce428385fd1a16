/// A value that may be carried to any thread but used only on its event loop, as swift-nio's
/// `NIOLoopBound`: every use checks the loop, in release builds too, so a closure that crosses
/// threads can hold a session and still never touch it off the loop.
public struct LoopBound<Value>: @unchecked Sendable {
    // Unchecked Sendable: `value` is reached only through `value`'s getter, which traps off `loop`.
    private let bound: Value
    public let loop: EventLoop

    /// Binds `value` to `loop`; call on that loop.
    public init(_ value: Value, loop: EventLoop) {
        precondition(loop.isCurrent, "a loop-bound value is made on its loop")
        bound = value
        self.loop = loop
    }

    /// The value; traps unless called on the loop.
    public var value: Value {
        precondition(loop.isCurrent, "a loop-bound value is used on its loop only")
        return bound
    }

    /// Runs `work` with the value on the loop, after what is queued there; from any thread.
    public func execute(_ work: @escaping @Sendable (Value) -> Void) {
        loop.execute { work(value) }
    }
}
