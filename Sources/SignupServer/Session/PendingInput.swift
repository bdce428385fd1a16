import SignupCore
import SignupProtocol

/// The input a session has received and not yet handled: the items of the reader's batches, in
/// order, whether the last batch ended the input, and how to let the reader go on.
struct PendingInput {
    private var items: [InputItem] = []
    /// The next item to handle; items before it are done.
    private var next = 0
    private(set) var isEnd = false
    /// What lets the reader go on, one for each batch received and not yet handed back: a batch
    /// that comes while others wait (a shutdown draining, a session stopping) adds its own.
    private var dones: [@Sendable () -> Void] = []

    var hasNext: Bool { next < items.count }

    mutating func append(_ batch: consuming [InputItem], isEnd: Bool, done: @escaping @Sendable () -> Void) {
        // Usually everything before has been handled: then the batch's storage is taken as it is,
        // not copied item by item (which retained and later released every string in it).
        if next == items.count {
            items = consume batch
        } else {
            items.removeFirst(next)
            items += batch
        }
        next = 0
        self.isEnd = isEnd
        dones.append(done)
    }

    /// The next item, moved out (leaving a placeholder with nothing to release) rather than copied.
    mutating func takeNext() -> InputItem {
        var item = InputItem.oversizeLine
        swap(&item, &items[next])
        next += 1
        return item
    }

    /// What lets the reader go on, once for every batch received: after their items are handled.
    mutating func takeDone() -> (@Sendable () -> Void)? {
        defer { dones.removeAll(keepingCapacity: true) }
        switch dones.count {
        case 0: return nil
        case 1: return dones[0]
        default:
            let taken = dones
            return { taken.forEach { $0() } }
        }
    }
}
