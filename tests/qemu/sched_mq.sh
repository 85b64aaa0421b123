# SCHED=mq (the LSE multi-queue scheduler for Linux 2.4) under QEMU on 1, 2
# and 4 vCPUs.
#
# Per vCPU count (the second boot on 2 and 4 only):
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
#       Asserted only when every CPU got >= 1500 timer ticks in the boot: a
#       2.4 slice is 6 ticks, and a host at load 20 has delivered ~350 ticks
#       per CPU in a 15 s boot, so one 60 ms slice lasted ~2 s of wall time
#       and the hog whose turn had not come measured 0.017 (goodness would
#       do the same: a task with a used-up counter waits for the epoch).
#       The sum above is measured in wall time and holds either way.
#  2. bench=cpuhog tasks=2 nice=0,10 seconds=2 bind=<last cpu> (2 and 4 vCPUs)
#     - affinity: the bound CPU is busy (idle_ms <= 800 of a run of 2 s
#       plus boot and task creation, which a starved guest stretches:
#       measured 6..418) and every other CPU stays idle (idle_ms >= 1700,
#       measured >= 2100): nothing
#       steals a task that may not run there.  A pick outside cpus_allowed
#       would stop the kernel (sched_bug, exit 2), so exit 0 is checked;
#     - the two shares add up to one CPU, 0.90..1.10 (a hog notices the
#       deadline only when it runs again, up to one slice late);
#     - nice 0 against nice 10: NICE_TO_TICKS(0) = 6 and NICE_TO_TICKS(10) = 3
#       ticks per 2.4 epoch (HZ=100 counted on the 1000 Hz tick), so the
#       ratio of shares is predicted 2.0, +-15%.  The prediction counts 2.4
#       ticks, so it only holds when the guest gets its timer: under heavy
#       host load QEMU has delivered 298 ticks in a 2 s run (ratio 2.9
#       measured over the 3 coarse epochs left, and 424..698 ticks in 4 of
#       6 runs on a host at load 15-22).  When the bound CPU saw fewer than
#       1200 ticks the ratio is reported but not asserted (the icount run
#       below always asserts it).
#  On 1 vCPU the nice run uses --accel icount (guest time = instructions
#  executed, so every tick arrives whatever the host load; seconds=1 keeps it
#  near 20 s of wall time): ratio 2.0 +-10% (measured 2.08 with seconds=2;
#  11 epochs, the first one from fork-split counters), shares sum 0.95..1.05.
# On 4 vCPUs also bench=pingpong migrate=1: running tasks move themselves to
# the next CPU every round (affinity changes of running and queued tasks,
# and the republishing of a queue's maximum when its task leaves).
. "$(dirname "$0")/../lib.sh"

idle_ms() { grep -E "^schedstat cpu=$1 " "$OUT" | head -1 | tr ' ' '\n' | sed -n 's/^idle_ms=//p'; }
ticks() { grep -E "^schedstat cpu=$1 " "$OUT" | head -1 | tr ' ' '\n' | sed -n 's/^ticks=//p'; }

# nice_ratio TAG RATIO_LO RATIO_HI SUM_LO SUM_HI [assert]: checks the two
# cpuhog shares of the last boot (the ratio only with "assert")
nice_ratio() {
    l0=$(results cpuhog | grep ' task=0 ') l1=$(results cpuhog | grep ' task=1 ')
    s0=$(milli "$(field share "$l0")") s1=$(milli "$(field share "$l1")")
    if [ -z "$s0" ] || [ -z "$s1" ] || [ "$s1" -le 0 ]; then
        echo "FAIL $1-nice-shares: no shares parsed (exit $RC)"; show_tail; return
    fi
    ratio=$((s0 * 1000 / s1))
    echo "# $1: nice 0 share $s0/1000, nice 10 share $s1/1000, ratio $ratio/1000 (predicted 2000)"
    check "$1-nice-shares-one-cpu" in_range "$((s0 + s1))" "$4" "$5"
    if [ "${6:-}" = assert ]; then
        check "$1-nice-ratio-2.0" in_range "$ratio" "$2" "$3"
    else
        echo "# $1: ratio not asserted: the host starved the guest of timer ticks"
    fi
}

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
    cpuhog_shares
    sum=$SHARES_SUM min=$SHARES_MIN max=$SHARES_MAX n=$SHARES_N
    echo "# $tag: hackbench $(field time_s "$hb") s; $n cpuhog tasks, shares sum $sum/1000 (of $smp CPUs), smallest $min/1000"
    check "$tag-cpuhog-all-tasks-report" [ "$n" = "$ntasks" ]
    check "$tag-no-cpu-idle-while-tasks-wait" in_range "$sum" $((smp * 900)) $((smp * 1100))
    mint=1000000000 cpu=0
    while [ "$cpu" -lt "$smp" ]; do
        t=$(ticks "$cpu"); [ -n "$t" ] && [ "$t" -lt "$mint" ] && mint=$t
        cpu=$((cpu + 1))
    done
    if in_range "$mint" 1500 1000000000; then
        check "$tag-no-hog-starves" in_range "$min" 100 1000
    else
        echo "# $tag: smallest share not asserted: the host starved the guest of timer ticks (a CPU had $mint)"
    fi

    [ "$smp" = 1 ] && continue
    last=$((smp - 1))
    boot mq "$smp" "bench=cpuhog tasks=2 nice=0,10 seconds=2 bind=$last" 256 60
    t=$(ticks "$last")
    check "$tag-nice-exit0" [ "$RC" = 0 ]
    # +-30% under TCG on a shared host (the icount run below is the tight one).
    nice_ratio "$tag" 1400 2600 800 1100 "$(in_range "$t" 1200 1000000 && ! oversubscribed "$smp" && echo assert)"
    busy=$(idle_ms "$last")
    echo "# $tag: bound cpu $last idle_ms=$busy ticks=$t"
    JUDGE_SMP=$smp judge "$tag-affinity-bound-cpu-busy" in_range "$busy" 0 800
    cpu=0
    while [ "$cpu" -lt "$last" ]; do
        check "$tag-affinity-cpu$cpu-unused" in_range "$(idle_ms "$cpu")" 1700 1000000
        cpu=$((cpu + 1))
    done
done

boot mq 1 'bench=cpuhog tasks=2 nice=0,10 seconds=1' 256 80 icount
check "mq-icount-nice-exit0" [ "$RC" = 0 ]
check "mq-icount-every-tick" in_range "$(ticks 0)" 990 1200
nice_ratio mq-icount 1800 2200 950 1050 assert

boot mq 4 'bench=pingpong pairs=2 rounds=200 migrate=1' 256 60
line=$(results pingpong)
check "mq-migrate-exit0" [ "$RC" = 0 ]
check "mq-migrate-ok" [ "$(field status "$line")" = ok ]
check "mq-migrate-no-errors" [ "$(field errors "$line")" = 0 ]
check "mq-migrate-all-cpus-used" [ "$(field cpus_used "$line")" = 0xf ]
