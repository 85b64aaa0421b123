# SCHED=mq (the LSE multi-queue scheduler for Linux 2.4) under QEMU on 1, 2
# and 4 vCPUs.
#
# Per vCPU count, two boots:
#  1. bench=hackbench,cpuhog groups=2 loops=20 tasks=2*cpus seconds=2
#     - every hackbench task finishes and every message arrives:
#       2 groups x 20 senders x 20 receivers x 20 loops = 16000 messages,
#       80 tasks, with wake-ups, sync wake-ups and steals across the queues;
#     - no CPU stays idle while another queue has waiting tasks: the 2*cpus
#       CPU-bound tasks together get all cpus CPUs, sum of shares >= 0.90 x
#       cpus (MQ has no balancer: stealing in schedule() and the idle tick's
#       self-reschedule must do it).  Upper bound 1.10 x cpus: with 4 vCPUs
#       on 2 host cores a vCPU's clock runs on while the host deschedules
#       it, which inflates shares a little (measured sum 4.20 of 4);
#     - no hog starves: each gets >= 0.10 (fair share 0.5).  Not tighter: MQ
#       keeps a task on its CPU's queue between epochs and republishes other
#       queues' maxima only when they reschedule, so under QEMU per-task
#       shares spread widely (measured 0.21..0.83 in 2 s on 4 vCPUs, 0.38..
#       0.62 in 6 s on 2); the host tests show the exact 2.4 fairness.
#  2. bench=cpuhog tasks=2 nice=0,10 seconds=2 bind=<last cpu>
#     - nice 0 against nice 10 on one CPU: NICE_TO_TICKS(0) = 6 and
#       NICE_TO_TICKS(10) = 3 ticks per 2.4 epoch (HZ=100 counted on the
#       1000 Hz tick), so the ratio of shares is predicted 2.0, +-15% (2 s is
#       about 22 epochs of 90 ms; the first starts from fork-split counters);
#       The prediction counts 2.4 ticks, so it only holds when the guest
#       gets its timer: under heavy host load QEMU has delivered 298 ticks in
#       a 2 s run (1 in 7), leaving 3 coarse epochs (ratio 2.9 measured).  A
#       run whose bound CPU saw fewer than 1200 ticks is repeated once (and
#       checked whatever its second result);
#     - affinity: the bound CPU is busy (idle_ms <= 400 of a ~2 s run, boot
#       included) and every other CPU stays idle (idle_ms >= 1700): nothing
#       steals a task that may not run there.  A pick outside cpus_allowed
#       would stop the kernel (sched_bug, exit 2), so exit 0 is checked.
# On 4 vCPUs also bench=pingpong migrate=1: running tasks move themselves to
# the next CPU every round (affinity changes of running and queued tasks,
# and the republishing of a queue's maximum when its task leaves).
. "$(dirname "$0")/../lib.sh"

milli() { printf '%s\n' "$1" | sed -n 's/^\([0-9]*\)\.\([0-9][0-9][0-9]\)$/\1\2/p' | sed 's/^0*\([0-9]\)/\1/'; }
in_range() { [ -n "$1" ] && [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; }
idle_ms() { grep -E "^schedstat cpu=$1 " "$OUT" | head -1 | tr ' ' '\n' | sed -n 's/^idle_ms=//p'; }
ticks() { grep -E "^schedstat cpu=$1 " "$OUT" | head -1 | tr ' ' '\n' | sed -n 's/^ticks=//p'; }

for smp in 1 2 4; do
    tag="mq-smp$smp"
    ntasks=$((2 * smp))
    boot mq "$smp" "bench=hackbench,cpuhog groups=2 loops=20 tasks=$ntasks seconds=2" 256 80
    check "$tag-exit0" [ "$RC" = 0 ]
    expect "$tag-boot-line" "^boot: cpus=$smp sched=mq hz=1000 "
    expect "$tag-models-hz100" "^mq: LSE multi-queue scheduler .* counters in 2.4 ticks at HZ=100 \(kernel HZ=1000\)"
    hb=$(results hackbench | head -1)
    check "$tag-hackbench-ok" [ "$(field status "$hb")" = ok ]
    check "$tag-hackbench-all-messages" [ "$(field messages "$hb")" = 16000 ]
    check "$tag-hackbench-all-tasks" [ "$(field tasks_started "$hb")" = 80 ]
    sum=0 min=100000 n=0
    for share in $(results cpuhog | tr ' ' '\n' | sed -n 's/^share=//p'); do
        m=$(milli "$share")
        [ -n "$m" ] || continue
        sum=$((sum + m)) n=$((n + 1))
        [ "$m" -lt "$min" ] && min=$m
    done
    echo "# $tag: hackbench $(field time_s "$hb") s; $n cpuhog tasks, shares sum $sum/1000 (of $smp CPUs), smallest $min/1000"
    check "$tag-cpuhog-all-tasks-report" [ "$n" = "$ntasks" ]
    check "$tag-no-cpu-idle-while-tasks-wait" in_range "$sum" $((smp * 900)) $((smp * 1100))
    check "$tag-no-hog-starves" in_range "$min" 100 1000

    last=$((smp - 1))
    boot mq "$smp" "bench=cpuhog tasks=2 nice=0,10 seconds=2 bind=$last" 256 60
    t=$(ticks "$last")
    if [ "$RC" = 0 ] && ! in_range "$t" 1200 1000000; then
        echo "# $tag: the host starved the guest (cpu $last had $t ticks in ~2 s); running it again"
        boot mq "$smp" "bench=cpuhog tasks=2 nice=0,10 seconds=2 bind=$last" 256 60
    fi
    check "$tag-nice-exit0" [ "$RC" = 0 ]
    l0=$(results cpuhog | grep ' task=0 ') l1=$(results cpuhog | grep ' task=1 ')
    s0=$(milli "$(field share "$l0")") s1=$(milli "$(field share "$l1")")
    if [ -n "$s0" ] && [ -n "$s1" ] && [ "$s1" -gt 0 ]; then
        ratio=$((s0 * 1000 / s1))
        echo "# $tag: nice 0 share $s0/1000, nice 10 share $s1/1000, ratio $ratio/1000 (predicted 2000)"
        check "$tag-nice-ratio-2.0" in_range "$ratio" 1700 2300
        check "$tag-nice-shares-one-cpu" in_range "$((s0 + s1))" 900 1020
    else
        echo "FAIL $tag-nice-ratio-2.0: no shares parsed (exit $RC)"
        show_tail
    fi
    busy=$(idle_ms "$last")
    echo "# $tag: bound cpu $last idle_ms=$busy"
    check "$tag-affinity-bound-cpu-busy" in_range "$busy" 0 400
    cpu=0
    while [ "$cpu" -lt "$last" ]; do
        check "$tag-affinity-cpu$cpu-unused" in_range "$(idle_ms "$cpu")" 1700 1000000
        cpu=$((cpu + 1))
    done
done

boot mq 4 'bench=pingpong pairs=2 rounds=200 migrate=1' 256 60
line=$(results pingpong)
check "mq-migrate-exit0" [ "$RC" = 0 ]
check "mq-migrate-ok" [ "$(field status "$line")" = ok ]
check "mq-migrate-no-errors" [ "$(field errors "$line")" = 0 ]
check "mq-migrate-all-cpus-used" [ "$(field cpus_used "$line")" = 0xf ]
