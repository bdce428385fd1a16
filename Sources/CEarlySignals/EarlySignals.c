#include "EarlySignals.h"
#include <pthread.h>
#include <signal.h>

// Runs before main and before Swift's runtime starts any thread, so that every thread of
// signup-rpc inherits SIGTERM and SIGINT blocked (see TerminationSignals.swift): a signal sent
// while the process is still starting stays pending until the server takes it.
__attribute__((constructor(101)))
static void signup_block_termination_signals(void) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
}

int signup_termination_signals_blocked_early(void) {
    sigset_t set;
    if (pthread_sigmask(SIG_BLOCK, NULL, &set) != 0) return 0;
    return sigismember(&set, SIGTERM) == 1 && sigismember(&set, SIGINT) == 1;
}
