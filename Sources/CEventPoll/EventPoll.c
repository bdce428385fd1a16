#include "EventPoll.h"

#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include <sys/prctl.h>

int signup_poll_create(void) {
    return epoll_create1(EPOLL_CLOEXEC);
}

int signup_poll_watch(int poll, int fd, int was_watched, int interest, uint64_t token) {
    if (interest == 0) {
        return was_watched ? epoll_ctl(poll, EPOLL_CTL_DEL, fd, NULL) : 0;
    }
    struct epoll_event event = { .events = 0, .data = { .u64 = token } };
    if (interest & SIGNUP_POLL_READABLE) event.events |= EPOLLIN | EPOLLRDHUP;
    if (interest & SIGNUP_POLL_WRITABLE) event.events |= EPOLLOUT;
    return epoll_ctl(poll, was_watched ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, fd, &event);
}

int signup_poll_wait(int poll, uint64_t *tokens, uint8_t *ready, int max, int timeout_ms) {
    struct epoll_event events[256];
    if (max > 256) max = 256;
    int count = epoll_wait(poll, events, max, timeout_ms);
    for (int index = 0; index < count; index++) {
        uint32_t happened = events[index].events;
        uint8_t what = 0;
        if (happened & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) what |= SIGNUP_POLL_READABLE;
        if (happened & (EPOLLOUT | EPOLLHUP | EPOLLERR)) what |= SIGNUP_POLL_WRITABLE;
        tokens[index] = events[index].data.u64;
        ready[index] = what;
    }
    return count;
}

int signup_poll_make_waker(int poll) {
    int waker = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (waker < 0) return -1;
    struct epoll_event event = { .events = EPOLLIN, .data = { .u64 = 0 } };
    if (epoll_ctl(poll, EPOLL_CTL_ADD, waker, &event) != 0) {
        close(waker);
        return -1;
    }
    return waker;
}

void signup_poll_wake(int waker) {
    uint64_t one = 1;
    // Fails only when the counter is full, in which case a wake is already pending.
    (void)!write(waker, &one, sizeof one);
}

void signup_poll_drain_waker(int waker) {
    uint64_t count;
    (void)!read(waker, &count, sizeof count);
}

void signup_poll_name_thread(const char *name) {
    prctl(PR_SET_NAME, name, 0, 0, 0);
}
