# SCHED=o1 (Linux 2.6.0 O(1) scheduler) under QEMU on 1, 2 and 4 vCPUs.
#
# No check depends on the host's speed.  2.6.0 counts timeslices (102 ms
# at nice 0) and balancing intervals (200 ms) in timer ticks, while the
# benchmarks measure shares with the TSC clock.  A loaded host delivers far
# fewer than 1000 ticks per second of TSC time (a starved vCPU loses
# ticks), and then shares say little about the algorithm.  So idle time is
# judged in jiffies (CPU 0's ticks), a turn of every task in the ticks at
# which a CPU ran tasks, the nice ratio and affinity run under QEMU's
# icount mode (virtual time: exactly 1000 ticks per second whatever the
# host does; one busy CPU, so icount serves every vCPU), and the TSC share
# bands are asserted only when the guest saw at least 90% of the ticks it
# should have (otherwise a "#" line says why not; see tests/lib.sh).  On a
# heavily oversubscribed host the TSC-based shares of a 4-vCPU guest were
# also seen to be inconsistent between vCPUs (two hogs on one CPU summing
# to 1.53 of it).  Checks keep their names and meanings; new are
# cpuhog-exit0 and cpu-time-within-the-cpus (the upper bound that was part
# of no-cpu-idle-while-tasks-wait).
#
# Per vCPU count:
#  1. bench=hackbench groups=2 loops=20 (TCG)
#     - every hackbench task finishes and every message arrives:
#       2 groups x 20 senders x 20 receivers x 20 loops = 16000 messages,
#       80 tasks.
#  2. bench=cpuhog tasks=2*cpus seconds=2 (TCG; until the reliability work
#     it shared boot 1)
#     - no CPU stays idle while another has waiting tasks: the 2*cpus hogs
#       are all woken on the runner's CPU (2.6.0 wakes a task where it last
#       ran), so the other CPUs must pull them: idle CPUs every tick, busy
#       ones every 200 ms.  The idle CPU time the shares leave (cpus -
#       their sum) is judged in jiffies: at most 10% of the run's
#       CPU-jiffies (no_idle_check; on a quiet host exactly the former "sum
#       of shares >= 0.90 x cpus").  The TSC sum's upper bound (1.02 x
#       cpus) is judged when every CPU saw >= 1800 ticks (90% of the 2 s
#       of cpuhog; judge_ticks, cpu-time-within-the-cpus);
#     - every hog runs: share >= 0.10 each (fair share 0.5; idle CPUs take
#       one hog each at once, the busy balancer evens the rest out over a
#       few 200-tick rounds, see docs/sched-o1.md), judged when every CPU
#       saw >= 1800 ticks; otherwise it is reported and what is asserted
#       is that every hog ran at all, once every CPU ran tasks for 4 slices
#       of 102 ticks (every_hog_runs);
#     - on 2 and 4 vCPUs the balancer moved tasks (migrations > 0: the hogs
#       can only spread by migrating).
#  3. bench=cpuhog tasks=2 nice=0,10 seconds=2 bind=<last cpu>, --accel
#     icount: nice 0 against nice 10 on one CPU.  Both are CPU hogs with no
#     sleep bonus; per swap of the arrays each runs task_timeslice(): 102
#     against 53 ticks, predicted ratio 1.925.  The first round (slices
#     halved at fork) and the last one are partial, so with T ticks,
#     k = T / 155 rounds, nice 0 gets 102 x (k +- 1) and nice 10 gets
#     53 x (k +- 1) ticks: the ratio must lie in
#     [1.925 (k-1)/(k+1), 1.925 (k+1)/(k-1)].
#     - T = 2000, k = 12: band 1.63..2.27 (measured 2.02: 0.669 / 0.331 on
#       1, 2 and 4 vCPUs).  On 2 and 4 vCPUs this ran under TCG, seconds=3,
#       with another 15% either way, until the reliability work;
#     - the two shares add up to one CPU (0.90..1.02);
#     - affinity: both tasks are bound to the last CPU, so that CPU is busy
#       (idle_ms <= 500, boot included; measured 0) and every other CPU
#       stays idle (idle_ms >= 1700 of a 2 s run); a task picked outside
#       its mask would stop the kernel (sched_bug, exit 2), so exit 0 is
#       checked too.
. "$(dirname "$0")/../lib.sh"
plan $((26 + 22 * $(long)))


for smp in 1 2 4; do
    tag="o1-smp$smp"
    ntasks=$((2 * smp))
    boot o1 "$smp" "bench=hackbench groups=2 loops=20" 256 80
    check "$tag-exit0" [ "$RC" = 0 ]
    expect "$tag-boot-line" "^boot: cpus=$smp sched=o1 hz=1000 "
    hb=$(results hackbench | head -1)
    check "$tag-hackbench-ok" [ "$(field status "$hb")" = ok ]
    check "$tag-hackbench-all-messages" [ "$(field messages "$hb")" = 16000 ]
    check "$tag-hackbench-all-tasks" [ "$(field tasks_started "$hb")" = 80 ]

    # make test: the hogs (TCG) and the bound icount boot on 2 vCPUs; on 1
    # and 4 in make test-long (tests/lib.sh long_only)
    [ "$smp" != 2 ] && ! long_only "$tag: the TCG cpuhog boot and the bound icount boot on $smp vCPU(s) (here on 2)" && continue
    boot o1 "$smp" "bench=cpuhog tasks=$ntasks seconds=2" 256 60
    check "$tag-cpuhog-exit0" [ "$RC" = 0 ]
    cpuhog_shares
    sum=$SHARES_SUM min=$SHARES_MIN n=$SHARES_N
    echo "# $tag: $n cpuhog tasks, shares sum $sum/1000 (of $smp CPUs), smallest $min/1000"
    check "$tag-cpuhog-all-tasks-report" [ "$n" = "$ntasks" ]
    no_idle_check "$tag" "$smp" 2
    judge_ticks "$tag-cpu-time-within-the-cpus" "$smp" 2 in_range "$sum" 0 $((smp * 1020))
    every_hog_runs "$tag-every-hog-runs" "$smp" 102 100
    if [ "$smp" -gt 1 ]; then
        migrations=$(stat_sum migrations "$smp")
        echo "# $tag: $migrations migrations"
        check "$tag-balancer-moves-tasks" in_range "$migrations" 1 1000000000
    fi

    [ "$smp" = 4 ] && ! long_only "$tag: the bound icount boot on 4 vCPUs (nice ratio, shares, affinity)" && continue
    last=$((smp - 1))
    boot o1 "$smp" "bench=cpuhog tasks=2 nice=0,10 seconds=2 bind=$last" 256 120 icount
    check "$tag-nice-exit0" [ "$RC" = 0 ]
    l0=$(results cpuhog | grep ' task=0 ') l1=$(results cpuhog | grep ' task=1 ')
    s0=$(milli "$(field share "$l0")") s1=$(milli "$(field share "$l1")")
    ticks=$(stat_field "$last" ticks)
    ticks=${ticks:-0}
    if [ -z "$s0" ] || [ -z "$s1" ] || [ "$s1" -le 0 ] || [ "$ticks" -lt 620 ]; then
        fail "$tag-nice-ratio-102-to-53" "no shares parsed, or fewer than 4 rounds of ticks ($ticks; exit $RC)"
        show_tail
        fail "$tag-nice-shares-one-cpu" "no shares parsed, or too few ticks"
    else
        rounds=$((ticks / 155))
        ratio=$((s0 * 1000 / s1))
        lo=$((1925 * (rounds - 1) / (rounds + 1))) hi=$((1925 * (rounds + 1) / (rounds - 1)))
        echo "# $tag: icount, nice 0 share $s0/1000, nice 10 share $s1/1000, ratio $ratio/1000 (predicted 1925; $ticks ticks, $rounds rounds: $lo..$hi)"
        check "$tag-nice-ratio-102-to-53" in_range "$ratio" "$lo" "$hi"
        check "$tag-nice-shares-one-cpu" in_range "$((s0 + s1))" 900 1020
    fi
    busy=$(stat_field "$last" idle_ms)
    echo "# $tag: bound cpu $last idle_ms=$busy"
    check "$tag-affinity-bound-cpu-busy" in_range "$busy" 0 500
    cpu=0
    while [ "$cpu" -lt "$last" ]; do
        idle=$(stat_field "$cpu" idle_ms)
        check "$tag-affinity-cpu$cpu-unused" in_range "$idle" 1700 1000000
        cpu=$((cpu + 1))
    done
done
