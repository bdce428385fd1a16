/// Messages the writer thread encodes itself, where it writes them, rather than their sender:
/// the transport's seam with whatever encodes them, of which it knows nothing more than this.
package protocol DeferredOutput: Sendable {
    /// How many messages; each counts `OutgoingQueue.deferredMessageBytes` toward what waits.
    var count: Int { get }
    /// Encodes the messages, in order, each followed by `\n`, handing `body` runs of whole lines.
    func encode(_ body: (UnsafeRawBufferPointer) -> Void)
}
