#ifndef SIGNUP_EARLY_SIGNALS_H
#define SIGNUP_EARLY_SIGNALS_H

/// Whether SIGTERM and SIGINT are blocked on the calling thread: true in signup-rpc from before
/// main, by a constructor of this library.
int signup_termination_signals_blocked_early(void);

#endif
