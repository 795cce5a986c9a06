// epoll(7), eventfd(2) and the thread's timer slack (prctl(2)) for the HTTPServer event loop:
// Swift's Glibc module does not export these Linux-only headers. Part of glibc itself, so
// nothing to link.
#ifndef CEPOLL_SHIM_H
#define CEPOLL_SHIM_H
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>

/// Sets the calling thread's timer slack to `nanoseconds` (`PR_SET_TIMERSLACK`; Swift cannot
/// call the variadic `prctl`). Returns 0, or -1 with `errno`.
static inline int cepoll_set_timer_slack(unsigned long nanoseconds) {
    return prctl(PR_SET_TIMERSLACK, nanoseconds, 0, 0, 0);
}

/// The calling thread's timer slack in nanoseconds (`PR_GET_TIMERSLACK`), or -1 with `errno`.
static inline long cepoll_timer_slack(void) {
    return prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
}
#endif
