import CFuzzerDriver
import SignupServer
import SignupProtocol
import SignupTools
#if canImport(Glibc)
import Glibc
#endif

// Initialise process-lifetime statics (the built-in form definitions) before the first input, so
// libFuzzer's per-input leak check does not count them as that input's leaks.
InProcessServer().finish()

// Built with `-sanitize=fuzzer` this is libFuzzer; otherwise it replays the inputs it is given.
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) })
