# SCHED=goodness (Linux 2.4.18) under QEMU on 1, 2 and 4 vCPUs.
#
# No check depends on the host's speed.  Under TCG the guest's TSC runs on
# while the host deschedules a vCPU, which then sees no ticks, and 2.4
# counts its slices in ticks.  So idle time is judged in jiffies (CPU 0's
# ticks), a turn of every task in the ticks at which a CPU ran tasks,
# timing-shaped properties run under --accel icount (guest time =
# instructions executed: one CPU, or tasks bound to one CPU), and a TSC band
# is asserted only when the guest got >= 90% of its ticks, else printed as
# "# ..." (see tests/lib.sh).  Checks keep their names and meanings; new is
# cpuhog-exit0, and nice-shares-one-cpu is now asserted on 2 and 4 vCPUs too.
#
# Per vCPU count, three boots:
#  1. bench=hackbench groups=2 loops=20 (TCG)
#     - every hackbench task finishes and every message arrives:
#       2 groups x 20 senders x 20 receivers x 20 loops = 16000 messages,
#       80 tasks.
#  2. bench=cpuhog tasks=2*cpus seconds=2 (TCG; until the reliability work
#     it shared boot 1)
#     - no CPU stays idle while another has waiting tasks: 2*cpus CPU-bound
#       tasks must together get all cpus CPUs (2.4 has no balancer: an idle
#       CPU is woken by reschedule_idle when a task is woken or preempted,
#       and picks from the one global queue).  The idle CPU time the shares
#       leave (cpus - their sum) is judged in jiffies: at most 10% of the
#       run's CPU-jiffies (no_idle_check; on a quiet host exactly the former
#       "sum of shares >= 0.90 x cpus");
#     - every task runs: share >= 0.05 (the fair share is 0.5, but on a busy
#       host single shares range 0.12..0.88 for o1 as well) when every CPU
#       saw >= 90% of its ticks; otherwise (shares are TSC time, slices of
#       60 ticks are not) the band is reported and what is asserted is that
#       every hog ran at all, once every CPU ran tasks for 4 slices
#       (every_hog_runs).
#  3. bench=cpuhog tasks=2 nice=0,10 bind=<last cpu>, --accel icount
#     (seconds=1 on 1 vCPU, 2 on 2 and 4; one busy CPU, so QEMU's icount
#     serves every vCPU; on 2 and 4 vCPUs this ran under TCG with a +-25%
#     band until the reliability work)
#     - nice 0 against nice 10 on one CPU: 2.4 gives NICE_TO_TICKS(0) = 6
#       and NICE_TO_TICKS(10) = 3 ticks per epoch at HZ=100, so the ratio of
#       shares is predicted 2.0 (the first epoch starts from fork-split
#       counters, 5 and 3: about 1.98 after one second): ratio 1.90..2.10
#       (+-5%; measured 2.03 with seconds=1 and 2, on 1, 2 and 4 vCPUs),
#       shares sum 0.95..1.05;
#     - affinity (2 and 4 vCPUs): both tasks are bound to the last CPU, so
#       that CPU is busy for the run: its idle_ms is at least 1000 below
#       that of a CPU that runs nothing (CPU 1 on 4 vCPUs; on 2 vCPUs CPU
#       0, which also runs the benchmark's main task, briefly); a task
#       picked outside its mask would stop the kernel (sched_bug, exit 2),
#       so exit 0 is checked too.
# About 100 s on this 2-core machine when it is not overloaded.
. "$(dirname "$0")/../lib.sh"
plan $((26 + 15 * $(long)))


for smp in 1 2 4; do
    tag="goodness-smp$smp"
    ntasks=$((2 * smp))
    boot goodness "$smp" "bench=hackbench groups=2 loops=20" 256 80
    check "$tag-exit0" [ "$RC" = 0 ]
    expect "$tag-boot-line" "^boot: cpus=$smp sched=goodness hz=1000 "
    expect "$tag-models-hz100" "^goodness: Linux 2.4.18 scheduler, counters in 2.4 ticks at HZ=100"
    hb=$(results hackbench | head -1)
    check "$tag-hackbench-ok" [ "$(field status "$hb")" = ok ]
    check "$tag-hackbench-all-messages" [ "$(field messages "$hb")" = 16000 ]
    check "$tag-hackbench-all-tasks" [ "$(field tasks_started "$hb")" = 80 ]

    # make test: the hogs (TCG) and the bound icount boot on 2 vCPUs; on 1
    # and 4 in make test-long (tests/lib.sh long_only)
    [ "$smp" != 2 ] && ! long_only "$tag: the TCG cpuhog boot and the bound icount boot on $smp vCPU(s) (here on 2)" && continue
    boot goodness "$smp" "bench=cpuhog tasks=$ntasks seconds=2" 256 60
    check "$tag-cpuhog-exit0" [ "$RC" = 0 ]
    cpuhog_shares
    sum=$SHARES_SUM min=$SHARES_MIN n=$SHARES_N
    echo "# $tag: $n cpuhog tasks, shares sum $sum/1000 (of $smp CPUs), smallest $min/1000"
    check "$tag-cpuhog-all-tasks-report" [ "$n" = "$ntasks" ]
    no_idle_check "$tag" "$smp" 2
    every_hog_runs "$tag-every-hog-runs" "$smp" 60 50

    [ "$smp" = 4 ] && ! long_only "$tag: the bound icount boot on 4 vCPUs (nice ratio, shares, affinity)" && continue
    last=$((smp - 1))
    seconds=2
    [ "$smp" = 1 ] && seconds=1
    boot goodness "$smp" "bench=cpuhog tasks=2 nice=0,10 seconds=$seconds bind=$last" 256 120 icount
    check "$tag-nice-exit0" [ "$RC" = 0 ]
    l0=$(results cpuhog | grep ' task=0 ') l1=$(results cpuhog | grep ' task=1 ')
    s0=$(milli "$(field share "$l0")") s1=$(milli "$(field share "$l1")")
    if [ -n "$s0" ] && [ -n "$s1" ] && [ "$s1" -gt 0 ]; then
        ratio=$((s0 * 1000 / s1))
        echo "# $tag: icount, nice 0 share $s0/1000, nice 10 share $s1/1000, ratio $ratio/1000 (predicted 2000)"
        check "$tag-nice-ratio-2.0" in_range "$ratio" 1900 2100
        check "$tag-nice-shares-one-cpu" in_range "$((s0 + s1))" 950 1050
    else
        fail "$tag-nice-ratio-2.0" "no shares parsed (exit $RC)"
        show_tail
        fail "$tag-nice-shares-one-cpu" "no shares parsed"
    fi
    if [ "$smp" -gt 1 ]; then
        ref=1
        [ "$last" = 1 ] && ref=0
        busy=$(stat_field "$last" idle_ms) other=$(stat_field "$ref" idle_ms)
        echo "# $tag: idle_ms of bound cpu $last: $busy, of cpu $ref: $other"
        check "$tag-affinity-only-bound-cpu-busy" in_range "$((${other:-0} - ${busy:-1000000}))" 1000 1000000
    fi
done
