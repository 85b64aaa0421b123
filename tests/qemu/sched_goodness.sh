# SCHED=goodness (Linux 2.4.18) under QEMU on 1, 2 and 4 vCPUs.
#
# Per vCPU count, two boots:
#  1. bench=cpuhog,hackbench tasks=2*cpus seconds=2 groups=2 loops=20
#     - every hackbench task finishes and every message arrives:
#       2 groups x 20 senders x 20 receivers x 20 loops = 16000 messages,
#       80 tasks;
#     - no CPU stays idle while another has waiting tasks: 2*cpus CPU-bound
#       tasks must together get all cpus CPUs, sum of shares >= 0.90 x cpus
#       (2.4 has no balancer: an idle CPU is woken by reschedule_idle when a
#       task is woken or preempted, and picks from the one global queue);
#       every task runs (share >= 0.05; the fair share is 0.5, but on a busy
#       host single shares range 0.12..0.88 for o1 as well).  Only lower
#       bounds: shares are wall-clock fractions, and a host that starves a
#       vCPU thread inflates them.
#  2. bench=cpuhog tasks=2 nice=0,10 bind=<last cpu>
#     - nice 0 against nice 10 on one CPU: 2.4 gives NICE_TO_TICKS(0) = 6
#       and NICE_TO_TICKS(10) = 3 ticks per epoch at HZ=100, so the ratio of
#       shares is predicted 2.0 (the first epoch starts from fork-split
#       counters, 5 and 3: about 1.98 after one second);
#     - on 1 vCPU with --accel icount (guest time = instructions executed,
#       so host load cannot disturb it), seconds=1: ratio 1.90..2.10 (+-5%;
#       measured 2.03 with seconds=1 and 2), shares sum 0.95..1.05;
#     - on 2 and 4 vCPUs with plain TCG, seconds=2: ratio 1.50..2.50 (+-25%):
#       shares are wall-clock time while the scheduler counts ticks, and on
#       a busy host QEMU delivers few ticks (as few as 270 in a 3 s run at
#       load 16) and a stalled vCPU charges its stall to whichever task is
#       current.  When the bound CPU saw fewer than 1600 ticks (of ~2000 +
#       boot) the ratio is reported but not asserted;
#     - affinity: both tasks are bound to the last CPU, so that CPU is busy
#       for the run: its idle_ms is at least 1000 below that of a CPU that
#       runs nothing (CPU 1 on 4 vCPUs; on 2 vCPUs CPU 0, which also runs
#       the benchmark's main task, briefly); a task picked outside its mask
#       would stop the kernel (sched_bug, exit 2), so exit 0 is checked too.
# About 90 s on this 2-core machine when it is not overloaded.
. "$(dirname "$0")/../lib.sh"


for smp in 1 2 4; do
    tag="goodness-smp$smp"
    ntasks=$((2 * smp))
    boot goodness "$smp" "bench=cpuhog,hackbench tasks=$ntasks seconds=2 groups=2 loops=20" 256 80
    check "$tag-exit0" [ "$RC" = 0 ]
    expect "$tag-boot-line" "^boot: cpus=$smp sched=goodness hz=1000 "
    expect "$tag-models-hz100" "^goodness: Linux 2.4.18 scheduler, counters in 2.4 ticks at HZ=100"
    hb=$(results hackbench | head -1)
    check "$tag-hackbench-ok" [ "$(field status "$hb")" = ok ]
    check "$tag-hackbench-all-messages" [ "$(field messages "$hb")" = 16000 ]
    check "$tag-hackbench-all-tasks" [ "$(field tasks_started "$hb")" = 80 ]
    cpuhog_shares
    sum=$SHARES_SUM min=$SHARES_MIN max=$SHARES_MAX n=$SHARES_N
    echo "# $tag: $n cpuhog tasks, shares sum $sum/1000 (of $smp CPUs), smallest $min/1000"
    check "$tag-cpuhog-all-tasks-report" [ "$n" = "$ntasks" ]
    JUDGE_SMP=$smp judge "$tag-no-cpu-idle-while-tasks-wait" in_range "$sum" $((smp * 900)) 1000000
    JUDGE_SMP=$smp judge "$tag-every-hog-runs" in_range "$min" 50 1000

    last=$((smp - 1))
    if [ "$smp" = 1 ]; then
        boot goodness 1 "bench=cpuhog tasks=2 nice=0,10 seconds=1" 256 90 icount
        lo=1900 hi=2100
    else
        boot goodness "$smp" "bench=cpuhog tasks=2 nice=0,10 seconds=2 bind=$last" 256 60
        lo=1500 hi=2500
    fi
    check "$tag-nice-exit0" [ "$RC" = 0 ]
    l0=$(results cpuhog | grep ' task=0 ') l1=$(results cpuhog | grep ' task=1 ')
    s0=$(milli "$(field share "$l0")") s1=$(milli "$(field share "$l1")")
    ticks=$(stat_field "$last" ticks)
    if [ -n "$s0" ] && [ -n "$s1" ] && [ "$s1" -gt 0 ]; then
        ratio=$((s0 * 1000 / s1))
        echo "# $tag: nice 0 share $s0/1000, nice 10 share $s1/1000, ratio $ratio/1000 (predicted 2000), bound cpu ticks $ticks"
        if [ "$smp" = 1 ] || [ "${ticks:-0}" -ge 1600 ]; then
            check "$tag-nice-ratio-2.0" in_range "$ratio" "$lo" "$hi"
        else
            echo "# $tag: only $ticks ticks reached the bound CPU (host overloaded): ratio not asserted"
        fi
        [ "$smp" = 1 ] && check "$tag-nice-shares-one-cpu" in_range "$((s0 + s1))" 950 1050
    else
        echo "FAIL $tag-nice-ratio-2.0: no shares parsed (exit $RC)"
        show_tail
    fi
    if [ "$smp" -gt 1 ]; then
        ref=1
        [ "$last" = 1 ] && ref=0
        busy=$(stat_field "$last" idle_ms) other=$(stat_field "$ref" idle_ms)
        echo "# $tag: idle_ms of bound cpu $last: $busy, of cpu $ref: $other"
        check "$tag-affinity-only-bound-cpu-busy" in_range "$((other - busy))" 1000 1000000
    fi
done
