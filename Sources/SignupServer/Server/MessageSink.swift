/// Where the server's outgoing messages go, one complete JSON text at a time.
protocol MessageSink: AnyObject {
    /// Sends a message; one with a conflation key may be replaced by a newer one with the same
    /// key while the client is not reading.
    func send(_ message: [UInt8], conflationKey: ConflationKey?)
}

extension MessageSink {
    func send(_ message: [UInt8]) {
        send(message, conflationKey: nil)
    }
}
