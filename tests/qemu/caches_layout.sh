#!/bin/sh
# 2.6.0's memory layout under the model (docs/caches.md "Layouts"): o1's
# CACHES=1 kernel with machine_layout=era (the default with a model) gives
# every task 2.6.0's layout, a thread_info at the base of its 8 KB-aligned
# stack block, and every schedule() checks it there as 2.6.0's
# current_thread_info() finds it (%esp & ~8191; sched/o1_common.h
# l26_thread_info_switch: a scheduler bug if not), each task counted once
# on the memstat machine= line
# (thread_info_at_stack_base=).  With machine_layout=flat no task has it.
# In make test: a plain kernel refuses machine_layout=.  In make test-long
# (a CACHES=1 build costs a minute and a half of CPU): the layout's checks.
. "$(dirname "$0")/../lib.sh"
plan $((2 + 5 * $(long)))
S=o1

boot "$S" 1 'bench=pipe loops=100 machine_layout=era' 256 60 vsmp
expect "caches-layout-plain-refuses" '^error: machine_layout=era: needs a kernel built with the memory model \(make CACHES=1\)'
check "caches-layout-plain-refuses-exit" [ "$RC" != 0 ]

long_only "2.6.0's thread_info at the stack base (o1, CACHES=1)" || exit 0

B="$S-caches"
( flock 9; make -s -C "$ROOT" SCHED="$S" CACHES=1 kernel >"$TMP/build-$B.log" 2>&1 ) 9>"$ROOT/build/.lock" ||
    { fail_with caches-layout-build "make SCHED=$S CACHES=1 failed:" "$TMP/build-$B.log"; exit 1; }
checked() { proto_field thread_info_at_stack_base --kind memstat "$OUT" | head -1; }

boot_once "$B" 2 'bench=hackbench groups=2 loops=5 machine=piii-xeon-1m' 256 vsmp 600
check "caches-layout26-exit0" [ "$RC" = 0 ]
started=$(field tasks_started "$(results hackbench | head -1)")
n=$(checked)
# every hackbench task (and the bench's main task) started on its thread_info's block
check "caches-layout26-thread-info-at-stack-base" [ "${started:-0}" -gt 0 -a "${n:-0}" -gt "${started:-0}" ]
echo "# caches_layout: $n tasks found their thread_info at their stack base ($started hackbench tasks)"

boot_once "$B" 2 'bench=hackbench groups=2 loops=5 machine=piii-xeon-1m machine_layout=flat' 256 vsmp 600
check "caches-layout26-flat-exit0" [ "$RC" = 0 ]
check "caches-layout26-flat-none" [ "$(checked)" = 0 ]
# with every latency 0 the layout is the same (the exactness check's boots see it too)
boot_once "$B" 1 'bench=pipe loops=100 machine=piii-xeon-1m machine_lat_pct=0' 256 vsmp 600
check "caches-layout26-lat0-also" [ "$(checked)" -gt 0 ]
