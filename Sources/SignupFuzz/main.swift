import CFuzzerDriver
#if canImport(Glibc)
import Glibc
#endif

// Built with `-sanitize=fuzzer` this is libFuzzer; otherwise it replays the inputs it is given.
var argc = CommandLine.argc
var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzzOneInput(data, size) })
