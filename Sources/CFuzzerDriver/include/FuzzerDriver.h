#ifndef SIGNUP_FUZZER_DRIVER_H
#define SIGNUP_FUZZER_DRIVER_H
#include <stddef.h>
#include <stdint.h>

/// libFuzzer's entry point for a program with its own main. Built with -sanitize=fuzzer the real
/// one is linked; otherwise a weak fallback replays every file (or folder of files) named on the
/// command line once, so the harness can be run over a corpus without libFuzzer.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
