/// Where the server's outgoing messages go, one complete JSON text at a time.
protocol MessageSink: AnyObject {
    func send(_ message: [UInt8])
}
