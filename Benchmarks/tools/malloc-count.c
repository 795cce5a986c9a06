// An LD_PRELOAD counter of heap allocations, for mallocs-per-request.sh: counts every malloc,
// calloc, realloc, posix_memalign, aligned_alloc and memalign of the process (all threads) and,
// on SIGUSR2, writes the count so far to the file named by MALLOC_COUNT_FILE.
// Build: cc -O2 -shared -fPIC -o malloc-count.so malloc-count.c
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

static atomic_ulong allocations;
static char path[4096];

void *malloc(size_t size) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); return __libc_malloc(size); }
void *calloc(size_t n, size_t size) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); return __libc_calloc(n, size); }
void *realloc(void *p, size_t size) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); return __libc_realloc(p, size); }
void *memalign(size_t alignment, size_t size) { atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) { return memalign(alignment, size); }
int posix_memalign(void **out, size_t alignment, size_t size) {
    void *p = memalign(alignment, size);
    if (!p) return 12; // ENOMEM
    *out = p;
    return 0;
}

// Async-signal-safe: formats the number by hand and writes it with open/write/close.
static void report(int signal) {
    (void)signal;
    char digits[32];
    int n = 0;
    unsigned long value = atomic_load(&allocations);
    do { digits[n++] = (char)('0' + value % 10); value /= 10; } while (value);
    char line[33];
    for (int i = 0; i < n; i++) line[i] = digits[n - 1 - i];
    line[n] = '\n';
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) { ssize_t ignored = write(fd, line, (size_t)n + 1); (void)ignored; close(fd); }
}

__attribute__((constructor)) static void install(void) {
    const char *file = getenv("MALLOC_COUNT_FILE");
    if (!file || strlen(file) >= sizeof path) return;
    strcpy(path, file);
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = report;
    action.sa_flags = SA_RESTART;
    sigaction(SIGUSR2, &action, NULL);
}
