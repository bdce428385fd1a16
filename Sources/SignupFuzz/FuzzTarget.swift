import SignupServer
import SignupProtocol
import SignupTools

/// One fuzz input: arbitrary bytes through line splitting, decoding and dispatch against a fresh
/// virtual-clock server, fed in two pieces to exercise lines split across reads. Any crash, and
/// any output that is not well-formed JSON-RPC, is a finding. One input in four also runs with
/// the session recorded: recording must not change a byte of the output, and must write a
/// recording that `replay` can read.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let debounce: Int64 = size % 2 == 0 ? 0 : 300
    let output = serve(bytes, debounceMilliseconds: debounce, recording: false).output
    if let violation = InProcessServer.violation(in: output) {
        fatalError("signup-fuzz: \(violation)")
    }
    if size % 4 == 1 {
        let recorded = serve(bytes, debounceMilliseconds: debounce, recording: true)
        if recorded.output != output {
            fatalError("signup-fuzz: recording the session changed its output")
        }
        if let problem = InProcessServer.recordingProblem(in: recorded.recording()) {
            fatalError("signup-fuzz: the recording cannot be read: \(problem)")
        }
    }
    return 0
}

private func serve(_ bytes: UnsafeBufferPointer<UInt8>, debounceMilliseconds: Int64, recording: Bool) -> InProcessServer {
    let server = InProcessServer(debounceMilliseconds: debounceMilliseconds, recording: recording)
    let split = bytes.count / 3
    server.feed(UnsafeBufferPointer(rebasing: bytes[..<split]))
    server.feed(UnsafeBufferPointer(rebasing: bytes[split...]))
    server.finish()
    return server
}
