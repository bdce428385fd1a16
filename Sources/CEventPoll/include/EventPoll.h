#ifndef SIGNUP_EVENT_POLL_H
#define SIGNUP_EVENT_POLL_H

#include <stdint.h>

/// Linux's epoll, without its packed `struct epoll_event` (which Swift does not import on
/// x86-64): a socket is watched for reading, writing or both, level-triggered, under a token.

/// What a wait reports of a socket: readable (input, its end, or an error) and writable (room,
/// a hang-up or an error; a write then says which).
enum {
    SIGNUP_POLL_READABLE = 1,
    SIGNUP_POLL_WRITABLE = 2,
};

/// A new epoll instance (close-on-exec), or -1 with errno.
int signup_poll_create(void);

/// Watches `fd` for what `interest` (a sum of SIGNUP_POLL_*) names under `token`: added when
/// `was_watched` is 0, changed otherwise, removed when `interest` is 0. 0, or -1 with errno.
int signup_poll_watch(int poll, int fd, int was_watched, int interest, uint64_t token);

/// Waits up to `timeout_ms` (-1: for ever) for at most `max` sockets to be ready; fills their
/// tokens and what each is ready for (SIGNUP_POLL_*). How many, or -1 with errno.
int signup_poll_wait(int poll, uint64_t *tokens, uint8_t *ready, int max, int timeout_ms);

/// An eventfd watched by `poll` for reading under token 0 (no socket's token is 0), so that
/// another thread can end a wait with `signup_poll_wake`; -1 with errno when none can be made.
int signup_poll_make_waker(int poll);

/// Makes the next (or current) wait on the waker's poll return, reporting token 0.
void signup_poll_wake(int waker);

/// Takes the wakes made so far, so that token 0 is reported again only for the next one.
void signup_poll_drain_waker(int waker);

/// Names the calling thread for the kernel (`top -H`, `/proc/PID/task/*/comm`): at most 15 bytes kept.
void signup_poll_name_thread(const char *name);

#endif
