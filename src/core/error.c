/* SPDX-License-Identifier: BSD-3-Clause */
/* Errors and logging. A fatal error is printed once, by the PE that found it, then the PE exits
 * with status 1; the launcher sees the non-zero exit and ends every other PE. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "shmemi.h"
#include "env.h"

int shmemi_my_pe_for_messages(void) {
    if (shmemi_state.n_pes > 0 || shmemi_state.finalized)
        return shmemi_state.my_pe;
    const char *pe = getenv(SHMEMI_ENV_JOB_PE);
    return pe ? atoi(pe) : -1;
}

/* One write per message, so that lines of different PEs do not interleave. */
static void print_line(const char *call, const char *fmt, va_list args) {
    char line[1024];
    int pe = shmemi_my_pe_for_messages();
    int n = pe >= 0 ? snprintf(line, sizeof(line), "libshmem: PE %d: %s: ", pe, call)
                    : snprintf(line, sizeof(line), "libshmem: %s: ", call);
    if (n < 0)
        return;
    if ((size_t)n < sizeof(line) - 1) {
        int m = vsnprintf(line + n, sizeof(line) - 1 - (size_t)n, fmt, args);
        if (m > 0)
            n += m;
    }
    if ((size_t)n > sizeof(line) - 2)
        n = sizeof(line) - 2;
    line[n++] = '\n';
    ssize_t ignored = write(STDERR_FILENO, line, (size_t)n);
    (void)ignored;
}

void shmemi_fatal(const char *call, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    fflush(stdout);
    print_line(call, fmt, args);
    va_end(args);
    _exit(1);
}

void shmemi_warn(const char *call, const char *fmt, ...) {
    va_list args;
    va_start(args, fmt);
    print_line(call, fmt, args);
    va_end(args);
}

void shmemi_debug_log(const char *fmt, ...) {
    if (!shmemi_state.debug)
        return;
    va_list args;
    va_start(args, fmt);
    print_line("debug", fmt, args);
    va_end(args);
}

void shmemi_check_init_failed(const char *call) {
    if (shmemi_state.finalized)
        shmemi_fatal(call, "called after shmem_finalize");
    shmemi_fatal(call, "called before shmem_init");
}

void shmemi_check_pe_failed(const char *call, int pe) {
    shmemi_check_init(call);
    shmemi_fatal(call, "PE %d is out of range (the job has PEs 0 to %d)", pe,
                 shmemi_state.n_pes - 1);
}

void shmemi_check_symmetric_debug(const char *call, const void *addr, size_t len, int pe) {
    if (len == 0)
        return;
    size_t offset;
    int s = shmemi_segment_of(addr, &offset);
    if (s < 0)
        shmemi_fatal(call,
                     "address %p (for PE %d) is not symmetric: it is neither in the symmetric "
                     "heap nor in a global or static variable",
                     addr, pe);
    if ((uintptr_t)addr + len < (uintptr_t)addr)
        shmemi_fatal(call, "length %zu at address %p (for PE %d) overflows", len, addr, pe);
    if (len > shmemi_state.segments[s].size - offset)
        shmemi_fatal(call,
                     "%zu bytes at address %p (for PE %d) run past the end of the symmetric %s "
                     "(%zu bytes left)",
                     len, addr, pe, s == 0 ? "heap" : "data segment",
                     shmemi_state.segments[s].size - offset);
}

void shmemi_check_aligned_failed(const char *call, const void *addr, size_t align, int pe) {
    shmemi_fatal(call, "address %p (for PE %d) is not aligned to %zu bytes", addr, pe, align);
}
