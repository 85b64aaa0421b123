# SCHED=o1 (Linux 2.6.0 O(1) scheduler) under QEMU on 1, 2 and 4 vCPUs.
#
# 2.6.0 counts timeslices (102 ms at nice 0) and balancing intervals (200 ms)
# in timer ticks, while the benchmarks measure shares with the TSC clock.  A
# loaded host delivers far fewer than 1000 ticks per second of TSC time (a
# starved vCPU loses ticks), and then shares say little about the algorithm.
# So the nice ratio is checked once deterministically under QEMU's icount
# mode (virtual time: exactly 1000 ticks per second whatever the host does),
# and the share checks of the other boots are judged only when the guest saw
# at least 90% of the ticks it should have (otherwise a "#" line says why
# not).  On a heavily oversubscribed host the TSC-based shares of a 4-vCPU
# guest were also seen to be inconsistent between vCPUs (two hogs on one CPU
# summing to 1.53 of it), so the sum checks are gated the same way.
#
# Per vCPU count:
#  1. bench=hackbench,cpuhog groups=2 loops=20 tasks=2*cpus seconds=2 (TCG)
#     - every hackbench task finishes and every message arrives:
#       2 groups x 20 senders x 20 receivers x 20 loops = 16000 messages,
#       80 tasks;
#     - no CPU stays idle while another has waiting tasks: the 2*cpus hogs
#       are all woken on the runner's CPU (2.6.0 wakes a task where it last
#       ran), so the other CPUs must pull them: idle CPUs every tick, busy
#       ones every 200 ms.  Together they must get all the CPUs: sum of
#       shares >= 0.90 x cpus;
#     - every hog runs: share >= 0.10 each (fair share 0.5; idle CPUs take
#       one hog each at once, the busy balancer evens the rest out over a
#       few 200-tick rounds, see docs/sched-o1.md).  These two are judged
#       when every CPU saw >= 1800 ticks (90% of the 2 s of cpuhog alone);
#     - on 2 and 4 vCPUs the balancer moved tasks (migrations > 0).
#  2. bench=cpuhog tasks=2 nice=0,10 bind=<last cpu>: nice 0 against nice 10
#     on one CPU.  Both are CPU hogs with no sleep bonus; per swap of the
#     arrays each runs task_timeslice(): 102 against 53 ticks, predicted
#     ratio 1.925.  The first round (slices halved at fork) and the last one
#     are partial, so with T ticks, k = T / 155 rounds, nice 0 gets 102 x
#     (k +- 1) and nice 10 gets 53 x (k +- 1) ticks: the ratio must lie in
#     [1.925 (k-1)/(k+1), 1.925 (k+1)/(k-1)].
#     - 1 vCPU: icount, seconds=2: T = 2000, k = 12, band 1.63..2.27
#       (measured 2.02: 0.669 / 0.331);
#     - 2 and 4 vCPUs: TCG, seconds=3, judged when the bound CPU saw >= 2700
#       ticks: band 1.71..2.17 (k = 19);
#     - the two shares add up to one CPU (0.90..1.02), judged as the ratio;
#     - affinity: both tasks are bound to the last CPU, so that CPU is busy
#       (idle_ms <= 500, boot included) and every other CPU stays idle
#       (idle_ms >= 2600 of a ~3 s run); a task picked outside its mask
#       would stop the kernel (sched_bug, exit 2), so exit 0 is checked too.
. "$(dirname "$0")/../lib.sh"


for smp in 1 2 4; do
    tag="o1-smp$smp"
    ntasks=$((2 * smp))
    boot o1 "$smp" "bench=hackbench,cpuhog groups=2 loops=20 tasks=$ntasks seconds=2" 256 80
    check "$tag-exit0" [ "$RC" = 0 ]
    expect "$tag-boot-line" "^boot: cpus=$smp sched=o1 hz=1000 "
    hb=$(results hackbench | head -1)
    check "$tag-hackbench-ok" [ "$(field status "$hb")" = ok ]
    check "$tag-hackbench-all-messages" [ "$(field messages "$hb")" = 16000 ]
    check "$tag-hackbench-all-tasks" [ "$(field tasks_started "$hb")" = 80 ]
    cpuhog_shares
    sum=$SHARES_SUM min=$SHARES_MIN max=$SHARES_MAX n=$SHARES_N
    echo "# $tag: $n cpuhog tasks, shares sum $sum/1000 (of $smp CPUs), smallest $min/1000"
    check "$tag-cpuhog-all-tasks-report" [ "$n" = "$ntasks" ]
    fewest=1000000 migrations=0 cpu=0
    while [ "$cpu" -lt "$smp" ]; do
        t=$(stat_field "$cpu" ticks) m=$(stat_field "$cpu" migrations)
        [ "${t:-0}" -lt "$fewest" ] && fewest=${t:-0}
        migrations=$((migrations + ${m:-0}))
        cpu=$((cpu + 1))
    done
    if [ "$fewest" -ge 1800 ]; then
        JUDGE_SMP=$smp judge "$tag-no-cpu-idle-while-tasks-wait" in_range "$sum" $((smp * 900)) $((smp * 1020))
        JUDGE_SMP=$smp judge "$tag-every-hog-runs" in_range "$min" 100 1000
    else
        echo "# $tag-no-cpu-idle-while-tasks-wait and -every-hog-runs not judged: a CPU saw only $fewest ticks (loaded host)"
    fi
    if [ "$smp" -gt 1 ]; then
        echo "# $tag: $migrations migrations"
        check "$tag-balancer-moves-tasks" [ "$migrations" -gt 0 ]
    fi

    last=$((smp - 1))
    if [ "$smp" = 1 ]; then
        boot o1 1 "bench=cpuhog tasks=2 nice=0,10 seconds=2 bind=0" 256 120 icount
        need=0
    else
        boot o1 "$smp" "bench=cpuhog tasks=2 nice=0,10 seconds=3 bind=$last" 256 60
        need=2700
    fi
    check "$tag-nice-exit0" [ "$RC" = 0 ]
    l0=$(results cpuhog | grep ' task=0 ') l1=$(results cpuhog | grep ' task=1 ')
    s0=$(milli "$(field share "$l0")") s1=$(milli "$(field share "$l1")")
    ticks=$(stat_field "$last" ticks)
    ticks=${ticks:-0}
    if [ -z "$s0" ] || [ -z "$s1" ]; then
        echo "FAIL $tag-nice-ratio-102-to-53: no shares parsed (exit $RC)"
        show_tail
    else
        if [ "$ticks" -ge "$need" ] && [ "$ticks" -ge 620 ] && [ "$s1" -gt 0 ]; then
            rounds=$((ticks / 155))
            ratio=$((s0 * 1000 / s1))
            lo=$((1925 * (rounds - 1) / (rounds + 1))) hi=$((1925 * (rounds + 1) / (rounds - 1)))
            echo "# $tag: nice 0 share $s0/1000, nice 10 share $s1/1000, ratio $ratio/1000 (predicted 1925; $ticks ticks, $rounds rounds: $lo..$hi)"
            # TCG on a shared host: another 15% either way (icount on 1 vCPU stays exact).
            [ "$smp" -gt 1 ] && lo=$((lo * 85 / 100)) hi=$((hi * 115 / 100))
            JUDGE_SMP=$smp judge "$tag-nice-ratio-102-to-53" in_range "$ratio" "$lo" "$hi"
            JUDGE_SMP=$smp judge "$tag-nice-shares-one-cpu" in_range "$((s0 + s1))" 800 1020
        else
            echo "# $tag-nice-ratio-102-to-53 and -nice-shares-one-cpu not judged: the bound CPU saw only $ticks ticks (loaded host); shares $s0 and $s1"
        fi
    fi
    busy=$(stat_field "$last" idle_ms)
    echo "# $tag: bound cpu $last idle_ms=$busy"
    JUDGE_SMP=$smp judge "$tag-affinity-bound-cpu-busy" in_range "$busy" 0 500
    cpu=0
    while [ "$cpu" -lt "$last" ]; do
        idle=$(stat_field "$cpu" idle_ms)
        check "$tag-affinity-cpu$cpu-unused" in_range "$idle" 2600 1000000
        cpu=$((cpu + 1))
    done
done
