#ifndef SIGNUP_PROCESS_PLACEMENT_H
#define SIGNUP_PROCESS_PLACEMENT_H

/// Restricts the calling thread, and every process it starts from now on, to the lowest CPU it
/// may run on. Returns that CPU, or -1 (errno set) when the mask cannot be read or set; then
/// nothing changed.
int signup_pin_to_first_cpu(void);

/// Lets the calling thread run on every CPU it could before `signup_pin_to_first_cpu`.
/// Returns 0, or -1 with errno set.
int signup_unpin(void);

#endif
