// epoll(7), eventfd(2) and timerfd_create(2) for the HTTPServer event loop: Swift's Glibc
// module does not export these Linux-only headers. Part of glibc itself, so nothing to link.
#ifndef CEPOLL_SHIM_H
#define CEPOLL_SHIM_H
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#endif
