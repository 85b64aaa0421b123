/* Support for unit-testing kernel files on the host (see hostlib.c). */
#ifndef TESTS_HOSTLIB_H
#define TESTS_HOSTLIB_H

#include <setjmp.h>
#include <stddef.h>

/* The kernel's formatting functions, under names that do not clash with libc's. */
#define vsnprintf kernel_vsnprintf
#define snprintf kernel_snprintf
#include "../../kernel/lib.h"
#undef vsnprintf
#undef snprintf
#define vsnprintf kernel_vsnprintf
#define snprintf kernel_snprintf

extern char host_console[8192];
extern size_t host_console_len;
extern jmp_buf *host_exit_jump;
extern int host_exit_code;
void host_console_clear(void);

/* Runs stmt; evaluates to the exit code it ended with via machine_exit/panic, or -1 if it returned. */
#define host_expect_exit(stmt)                  \
    ({                                          \
        jmp_buf jb_;                            \
        host_exit_code = -1;                    \
        host_exit_jump = &jb_;                  \
        if (setjmp(jb_) == 0) {                 \
            stmt;                               \
        }                                       \
        host_exit_jump = NULL;                  \
        host_exit_code;                         \
    })

#endif
