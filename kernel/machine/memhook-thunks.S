/*
 * The entry points of CACHES=1's memory accesses.  memhook-plugin.cc puts
 *     pushl %eax ; leal <the access's address>, %eax ; call __memhook_load4 ; popl %eax
 * at every load and store (a store: __memhook_store4; sizes 1, 2, 4, 8, 16).
 * They save and restore every other register they use: the compiler keeps
 * its registers across the asm, and only the flags are clobbered (an x86
 * asm statement clobbers them anyway).
 *
 * %eax is the site's own (it saved it): free once the address is used.
 *
 * The fast path (memhooks.c, cache.h's filters and cache_fast): the 32-byte
 * chunk of the address is in the current CPU's filter, so the line is in
 * its L1 (and for a store owned modified): the access only makes it the
 * most recent of its set (the LRU clock + 1 into the way's stamp, whose
 * index is the entry's second word), and owes memhook_fast_cost cycles to
 * the clock (one add to %gs:machine_debt; the carry says it wrapped).
 * Anything else calls memhook_miss(address, size, flags) with the caller's
 * registers saved.  Every path has a fixed instruction count (the fast
 * path 21, the site's four not included), which memhooks.c measures at boot.
 */
#ifdef CACHES
#define PERCPU_MACHINE_DEBT 44      /* kernel/percpu.h (memhooks.c checks they agree) */
#define PERCPU_MACHINE_RFILTER 48
#define PERCPU_MACHINE_WFILTER 52
#define FILTER_BYTE_MASK 16380      /* kernel/machine/cache.h: (CACHE_FILTER - 1) * 4 */
#define FILTER_STAMPS 16384         /* ... CACHE_FILTER * 4: the stamp indices after the chunks */
#define CACHE_CHUNK_SHIFT 5
#define CACHE_WRITE 1
#define CACHE_ATOMIC 2
#define MEMHOOK_FROM_ENTRY 0x80     /* memhooks.c */
#define MEMHOOK_FROM_COPY 0x40      /* ... a copy's (no goodness-line fast path) */

.macro THUNK kind, size, filter, flags
.globl __memhook_\kind\size
__memhook_\kind\size:
    pushl %ecx
    pushl %edx
    movl %eax, %ecx
    lahf                                /* the site's flags: SF ZF AF PF CF in %ah */
    seto %al                            /* ... and OF */
    pushl %eax
    movl %ecx, %eax
    movl %eax, %edx
    shrl $CACHE_CHUNK_SHIFT, %edx       /* the chunk */
    shrl $(CACHE_CHUNK_SHIFT - 2), %ecx
    andl $FILTER_BYTE_MASK, %ecx        /* its filter entry's offset */
    addl %gs:\filter, %ecx
    cmpl %edx, (%ecx)
    jne 2f
    movl FILTER_STAMPS(%ecx), %edx      /* the way's stamp index */
    incl memhook_lru_clock
    movl memhook_lru_clock, %eax
    movl memhook_l1_stamp, %ecx
    movl %eax, (%ecx,%edx,4)            /* the most recent of its set */
    movl memhook_fast_cost, %edx
    addl %edx, %gs:PERCPU_MACHINE_DEBT
    jc 3f
1:  popl %eax
    addb $0x7f, %al                     /* OF back (0x7f + 1 overflows) */
    sahf                                /* the rest */
    popl %edx
    popl %ecx
    ret
2:  pushl $(\flags | MEMHOOK_FROM_ENTRY)
    pushl $\size
    pushl %eax
    call memhook_miss
    addl $12, %esp
    jmp 1b
3:  call memhook_debt_wrapped
    jmp 1b
.endm

.text
.p2align 4
THUNK load, 1, PERCPU_MACHINE_RFILTER, 0
THUNK load, 2, PERCPU_MACHINE_RFILTER, 0
THUNK load, 4, PERCPU_MACHINE_RFILTER, 0
THUNK load, 8, PERCPU_MACHINE_RFILTER, 0
THUNK load, 16, PERCPU_MACHINE_RFILTER, 0
THUNK store, 1, PERCPU_MACHINE_WFILTER, CACHE_WRITE
THUNK store, 2, PERCPU_MACHINE_WFILTER, CACHE_WRITE
THUNK store, 4, PERCPU_MACHINE_WFILTER, CACHE_WRITE
THUNK store, 8, PERCPU_MACHINE_WFILTER, CACHE_WRITE
THUNK store, 16, PERCPU_MACHINE_WFILTER, CACHE_WRITE
/* A locked instruction (memhooks.h machine_atomic): free on a line this CPU
 * owns modified (the write filter), else the model stalls it as a load and
 * takes ownership. */
THUNK atomic, 4, PERCPU_MACHINE_WFILTER, CACHE_ATOMIC

/* A copy in inline asm (memhooks.h MACHINE_COPY_ASM), after its `rep
 * movs`: the source's and the destination's starts on the stack above the
 * return address, their ends in %esi and %edi.  The source is charged as
 * a read range and the destination as a write range through memhook_miss
 * (from an entry point: the site, the return address, is six words above
 * its first argument, as for the accesses above); then the clock's base
 * takes memhook_copy_owed (memcopy.c: what the site, this and
 * memhook_miss's two calls cost beyond what memhook_miss owes itself,
 * signed; a copy of nothing calls no model and owes
 * memhook_copy_empty_owed).  Interrupts are off from the cli to the popfl,
 * whatever the caller had: every path has a fixed instruction count, and
 * memhook_miss's irq_restore never runs the sti that boot's calibration
 * (interrupts off) did not count.  The caller drops the two starts: the
 * source's slot keeps the flags.  Every register is kept; the flags are
 * the asm's to lose (restored all the same). */
#define PERCPU_TSC_BASE 36                  /* kernel/percpu.h (memcopy.c checks they agree) */
.globl __memhook_copy
__memhook_copy:
    pushl %ecx
    pushl %edx
    pushl %eax
    pushfl
    cli
    popl %eax                           /* the caller's flags */
    movl 16(%esp), %ecx                 /* the source's start */
    movl %eax, 16(%esp)                 /* ... its slot keeps the flags */
    movl %esi, %edx
    subl %ecx, %edx                     /* the length */
    jz 2f
    pushl $(MEMHOOK_FROM_ENTRY | MEMHOOK_FROM_COPY)
    pushl %edx
    pushl %ecx
    call memhook_miss
    movl 32(%esp), %eax                 /* the destination's start (the three arguments above) */
    movl %edi, %ecx
    subl %eax, %ecx
    movl %eax, (%esp)                   /* (the callee may have written its arguments) */
    movl %ecx, 4(%esp)
    movl $(CACHE_WRITE | MEMHOOK_FROM_ENTRY | MEMHOOK_FROM_COPY), 8(%esp)
    call memhook_miss
    addl $12, %esp
    movl memhook_copy_owed, %eax
    jmp 1f
2:  movl memhook_copy_empty_owed, %eax
1:  cltd
    addl %eax, %gs:PERCPU_TSC_BASE      /* owed back (the base moves on: the clock back) */
    adcl %edx, %gs:PERCPU_TSC_BASE+4
    pushl 16(%esp)
    popfl                               /* the caller's interrupt flag */
    popl %eax
    popl %edx
    popl %ecx
    ret
#endif
