/* Basic fixed-width types and helpers shared by the kernel and the host unit tests. */
#ifndef KERNEL_TYPES_H
#define KERNEL_TYPES_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

#define MAX_CPUS 32                 /* cpumask_t is one 32-bit word */
typedef uint32_t cpumask_t;
#define CPUMASK_ALL 0xffffffffu
#define CPU_BIT(cpu) (1u << (cpu))

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define container_of(ptr, type, member) ((type *)((char *)(ptr) - offsetof(type, member)))
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
/* Code on the path of every wake-up and context switch: linker.ld puts it
 * together, next to the scheduler's file.  Under QEMU's TCG a jump to
 * another 4 KiB page cannot be chained and costs a lookup of the next
 * translated block, so keeping the switch path on few pages is measurable. */
#define __switch_path __attribute__((section(".text.switch_path")))

#define NSEC_PER_USEC 1000ull
#define NSEC_PER_MSEC 1000000ull
#define NSEC_PER_SEC 1000000000ull

#endif
