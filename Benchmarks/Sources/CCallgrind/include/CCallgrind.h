// Callgrind's client requests, for counting the instructions of a benchmark's measured region
// only (`valgrind --tool=callgrind --collect-atstart=no`; scripts/bench-check.sh). Each request is
// a few no-op instructions when the process does not run under valgrind, and a no-op function where
// valgrind's header is not installed (Debian: the valgrind package ships it).
#ifndef CCALLGRIND_H
#define CCALLGRIND_H

#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>

/// Switches callgrind's event collection on or off (CALLGRIND_TOGGLE_COLLECT).
static inline void ccallgrind_toggle_collect(void) { CALLGRIND_TOGGLE_COLLECT; }
/// Non-zero when the process runs under valgrind (RUNNING_ON_VALGRIND).
static inline int ccallgrind_running_on_valgrind(void) { return RUNNING_ON_VALGRIND; }
#else
static inline void ccallgrind_toggle_collect(void) {}
static inline int ccallgrind_running_on_valgrind(void) { return 0; }
#endif

#endif
