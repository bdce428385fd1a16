import SignupProtocol

/// The items of one read, handed from the reading thread to the loop, which takes them once.
/// A box, so that the array reaches the loop as its only owner: captured by the closure that
/// carries it there, it would be shared, and the loop's first change to it would copy every item.
final class InputBatch: @unchecked Sendable {
    // Unchecked Sendable: filled on the reading thread before it is handed over, and touched only
    // on the loop after that (the hand-over through the loop's queue orders the two).
    private var items: [InputItem]
    /// The lines of its plain edits, in order, when a recording keeps them.
    let keptEditLines: KeptEditLines?

    init(_ items: consuming [InputItem], keptEditLines: KeptEditLines? = nil) {
        self.items = items
        self.keptEditLines = keptEditLines
    }

    /// The items, leaving the batch empty.
    func take() -> [InputItem] {
        var taken: [InputItem] = []
        swap(&taken, &items)
        return taken
    }
}
