import SignupServer

/// One fuzz input: arbitrary bytes through line splitting, decoding and dispatch against a fresh
/// virtual-clock server, fed in two pieces to exercise lines split across reads. Any crash, and
/// any output that is not well-formed JSON-RPC, is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let server = InProcessServer(debounceMilliseconds: size % 2 == 0 ? 0 : 300)
    let split = size / 3
    server.feed(UnsafeBufferPointer(rebasing: bytes[..<split]))
    server.feed(UnsafeBufferPointer(rebasing: bytes[split...]))
    server.finish()
    if let violation = InProcessServer.violation(in: server.output) {
        fatalError("signup-fuzz: \(violation)")
    }
    return 0
}
