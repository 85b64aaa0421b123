/*
 * kernel/sched_tunables.h - a scheduler's tunables on the kernel command
 * line (struct sched_tunable, kernel/sched_class.h): sched.<name>=<value>
 * and sched.preset=<name>.
 */
#ifndef KERNEL_SCHED_TUNABLES_H
#define KERNEL_SCHED_TUNABLES_H

#include "sched_class.h"

#define SCHED_MAX_TUNABLES 32
#define SCHED_MAX_PRESETS 8

/* Before c->init(): registers the keys sched.<name> (and sched.preset when
 * c has presets) and writes every tunable's variable: its default, then the
 * preset's value, then the command line's.  A bad word is one error: line
 * and exit 1 (a word sched.<x> that names no tunable of c included); a
 * table or preset that contradicts itself is a kernel bug and panics. */
void sched_tunables_setup(const struct sched_class *c);

/* After c->init(): "tunables sched=<s> [preset=<p>] <name>=<value>..." with
 * every value in force (AUTO ones as init() computed them); nothing for a
 * scheduler without tunables. */
void sched_tunables_print(const struct sched_class *c);

#endif
