/* Build-time configuration of the kernel.  Override with make CFLAGS_EXTRA=-DHZ=250 and so on. */
#ifndef KERNEL_CONFIG_H
#define KERNEL_CONFIG_H

#ifndef HZ
#define HZ 1000                        /* timer ticks per second, as in Linux 2.6.0 on i386 */
#endif

#define TASK_STACK_SIZE 4096           /* one page: 20,000 hackbench tasks fit in 256 MiB */
#define STACK_CANARY 0x57ac4ca9u       /* written at the bottom of every stack, checked at switch */
#define STACK_POISON 0xdeadbeefu       /* fills a dead task's stack before it is freed */
#define DEFAULT_WATCHDOG_S 30

#endif
