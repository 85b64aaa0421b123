# Address spaces (kernel/mm.h): a page directory per mm id, CR3 reloaded
# lazily, counted per CPU as schedstat cr3_loads= (the last field).
#   - bench=pipe bound to CPU 1 of 2: mode=process switches between two
#     address spaces on every hand-off, so CPU 1 loads CR3 at least twice per
#     round trip and CPU 0 (idle) hardly ever; mode=thread (one mm for both
#     tasks) hardly ever loads it anywhere;
#   - on 2 CPUs, unbound, under rr (which spreads the two tasks): a CPU that
#     goes idle between its task's turns keeps CR3 (the idle task is a
#     kernel thread, Linux's lazy TLB), so CR3 loads stay far below switches;
#   - mm=shared: no CR3 load at all, and no page directory made;
#   - page directories: one per process (hackbench process mode), one per
#     group and one for the runner (thread mode), and when the run is over
#     only the runner's and those a CPU's CR3 still holds are left (the
#     stackstat line's page_dirs_created/freed/live);
#   - the boot line says mm=; a bad mm= value is refused.
# Every task checks at exit that it ran on its own page directory (a panic
# otherwise), so each exit 0 below also says that.
. "$(dirname "$0")/../lib.sh"
plan 25

S=$DEFAULT_SCHED
LOOPS=2000

boot "$S" 2 "bench=pipe loops=$LOOPS mode=process bind=1"
check "mm-pipe-process-exit0" [ "$RC" = 0 ]
expect "mm-boot-line" '^boot: cpus=2 .* mm=per_process pvspin=[01] lock=(tas|ticket)( |$)'
expect "mm-cr3-loads-field" '^schedstat cpu=1 .* resched_ipis=[0-9]+ poll_wakes=[0-9]+ cr3_loads=[0-9]+ idle_ticks=[0-9]+ busy_ms=[0-9]+ lock_wait_us=[0-9]+ lock_waits=[0-9]+ busy_us=[0-9]+ idle_us=[0-9]+ ticks_expected=[0-9]+$'
c1=$(stat_field 1 cr3_loads) c0=$(stat_field 0 cr3_loads) s1=$(stat_field 1 context_switches)
check "mm-pipe-process-cpu1-loads" [ "${c1:-0}" -ge $((2 * LOOPS)) ]
check "mm-pipe-process-cpu1-loads-le-switches" [ "${c1:-0}" -le "${s1:-0}" ]
check "mm-pipe-process-cpu0-few" [ "${c0:-99}" -le 10 ]
echo "# mm pipe process bind=1: cpu0 cr3_loads=$c0, cpu1 cr3_loads=$c1 of $s1 switches"

boot "$S" 2 "bench=pipe loops=$LOOPS mode=thread bind=1"
check "mm-pipe-thread-exit0" [ "$RC" = 0 ]
c1=$(stat_field 1 cr3_loads) c0=$(stat_field 0 cr3_loads) s1=$(stat_field 1 context_switches)
check "mm-pipe-thread-cpu1-switches" [ "${s1:-0}" -ge $((2 * LOOPS)) ]
check "mm-pipe-thread-cpu1-few" [ "${c1:-99}" -le 10 ]
check "mm-pipe-thread-cpu0-few" [ "${c0:-99}" -le 10 ]
echo "# mm pipe thread bind=1: cpu0 cr3_loads=$c0, cpu1 cr3_loads=$c1 of $s1 switches"

# Lazy: idle between turns keeps the last task's directory.
boot rr 2 "bench=pipe loops=$LOOPS mode=process"
check "mm-lazy-exit0" [ "$RC" = 0 ]
line=$(results pipe)
if [ "$(field cpus_used "$line")" = 0x3 ]; then
    for cpu in 0 1; do
        c=$(stat_field $cpu cr3_loads) s=$(stat_field $cpu context_switches)
        check "mm-lazy-cpu$cpu-loads-below-switches" [ "${c:-99999}" -le $(( ${s:-0} / 10 + 10 )) ]
        echo "# mm lazy rr cpu$cpu: cr3_loads=$c of $s switches"
    done
else
    echo "# mm lazy: rr kept both tasks on one CPU (cpus_used=$(field cpus_used "$line")): nothing to judge"
    skip mm-lazy-cpu0-loads-below-switches "both tasks ran on one CPU"
    skip mm-lazy-cpu1-loads-below-switches "both tasks ran on one CPU"
fi

boot "$S" 2 "bench=pipe loops=$LOOPS mode=process bind=1 mm=shared"
check "mm-shared-exit0" [ "$RC" = 0 ]
expect "mm-shared-boot-line" '^boot: cpus=2 .* mm=shared '
check "mm-shared-no-loads" [ "$(grep -c '^schedstat .* cr3_loads=0 ' "$OUT")" = 2 ]
expect "mm-shared-no-directories" '^stackstat .* page_dirs_created=0 page_dirs_freed=0 page_dirs_live=0$'

# Page directories made and freed.
boot "$S" 2 'bench=hackbench groups=3 loops=10 mode=process'
check "mm-hb-process-exit0" [ "$RC" = 0 ]
tasks=$(field tasks_started "$(results hackbench)")
line=$(grep '^stackstat ' "$OUT")
created=$(field page_dirs_created "$line") live=$(field page_dirs_live "$line")
check "mm-hb-process-one-per-task" [ "${created:-0}" = $(( ${tasks:-0} + 1 )) ]
# Left: the runner's, and at most one per CPU (its CR3's, 2.6.0's lazy active_mm).
check "mm-hb-process-freed-all-but-held" in_range "$live" 1 3
boot "$S" 2 'bench=hackbench groups=3 loops=10 mode=thread'
check "mm-hb-thread-exit0" [ "$RC" = 0 ]
line=$(grep '^stackstat ' "$OUT")
check "mm-hb-thread-one-per-group" [ "$(field page_dirs_created "$line")" = 4 ]
live=$(field page_dirs_live "$line")
check "mm-hb-thread-freed-all-but-held" in_range "$live" 1 3

boot "$S" 1 'bench=boot mm=threads'
check "mm-bad-value-exit1" [ "$RC" = 1 ]
expect "mm-bad-value-message" '^error: mm=threads: '
