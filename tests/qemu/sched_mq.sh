# SCHED=mq (the LSE multi-queue scheduler for Linux 2.4) under QEMU on 1, 2
# and 4 vCPUs.
#
# No check depends on the host's speed.  Under TCG the guest's TSC runs on
# while the host deschedules a vCPU, which then sees no ticks, and MQ counts
# its slices in ticks.  So idle time is judged in jiffies (CPU 0's ticks), a
# turn of every task in the ticks at which a CPU ran tasks, timing-shaped
# properties run under --accel icount (guest time = instructions executed:
# one CPU, or tasks bound to one CPU), and a TSC band is asserted only when
# the guest got >= 90% of its ticks, else printed as "# ..." (see
# tests/lib.sh).  Checks keep their names and meanings; new are
# cpuhog-exit0 and cpu-time-within-the-cpus (the upper bound that was part
# of no-cpu-idle-while-tasks-wait).
#
# Per vCPU count (the third boot on 2 and 4 only):
#  1. bench=hackbench groups=2 loops=20 (TCG)
#     - every hackbench task finishes and every message arrives:
#       2 groups x 20 senders x 20 receivers x 20 loops = 16000 messages,
#       80 tasks, with wake-ups, sync wake-ups and steals across the queues.
#  2. bench=cpuhog tasks=2*cpus seconds=2 (TCG; until the reliability work
#     it shared boot 1, after hackbench)
#     - no CPU stays idle while another queue has waiting tasks (MQ has no
#       balancer: stealing in schedule() and the idle tick's
#       self-reschedule must do it).  The idle CPU time the shares leave
#       (cpus - their sum) is judged in jiffies: at most 10% of the run's
#       CPU-jiffies (no_idle_check; on a quiet host exactly the former "sum
#       of shares >= 0.90 x cpus").  The TSC form failed on a busy host
#       (3.45 of 4 on an oversubscribed guest, where it was asserted: now
#       judged, 4 vCPUs on 2 host cores are time-shared).  The upper bound
#       1.10 x cpus (a vCPU's clock runs on while the host deschedules it,
#       measured 4.20 of 4) is judged when every CPU saw >= 90% of its
#       ticks (judge_ticks, cpu-time-within-the-cpus);
#     - no hog starves: each gets >= 0.10 (fair share 0.5).  Not tighter: MQ
#       keeps a task on its CPU's queue between epochs and republishes other
#       queues' maxima only when they reschedule, so under QEMU per-task
#       shares spread widely (measured 0.21..0.83 in 2 s on 4 vCPUs, 0.38..
#       0.62 in 6 s on 2); the host tests show the exact 2.4 fairness.
#       A 2.4 slice is 6 ticks of HZ=100 (60 of the kernel's), and a host
#       at load 20 has delivered ~350 ticks per CPU in a 15 s boot, so one
#       slice lasted ~2 s of wall time and the hog whose turn had not come
#       measured 0.017.  So the 0.10 band is asserted when every CPU saw
#       >= 90% of its ticks; otherwise it is reported and what is asserted
#       is that every hog ran at all, once every CPU ran tasks for 4 slices
#       (every_hog_runs).
#  3. bench=cpuhog tasks=2 nice=0,10 seconds=2 bind=<last cpu>, --accel
#     icount (one busy CPU, so QEMU's icount serves every vCPU; this ran
#     under TCG with a +-30% band, asserted only when the guest got its
#     ticks, until the reliability work)
#     - affinity: the bound CPU is busy (idle_ms <= 800 of a run of 2 s
#       plus boot; measured 0) and every other CPU stays idle (idle_ms >=
#       1700, measured >= 2011): nothing steals a task that may not run
#       there.  A pick outside cpus_allowed would stop the kernel
#       (sched_bug, exit 2), so exit 0 is checked;
#     - the two shares add up to one CPU, 0.95..1.05;
#     - nice 0 against nice 10: NICE_TO_TICKS(0) = 6 and NICE_TO_TICKS(10) = 3
#       ticks per 2.4 epoch (HZ=100 counted on the 1000 Hz tick), so the
#       ratio of shares is predicted 2.0, +-10% (measured 2.08 on 2 and 4
#       vCPUs: 11 epochs, the first one from fork-split counters).
#  On 1 vCPU the nice run is the same under icount with seconds=1 (mq-icount:
#  ratio 2.0 +-10%, measured 2.13; shares sum 0.95..1.05; every tick arrives).
# On 4 vCPUs also bench=pingpong migrate=1: running tasks move themselves to
# the next CPU every round (affinity changes of running and queued tasks,
# and the republishing of a queue's maximum when its task leaves).
. "$(dirname "$0")/../lib.sh"
plan $((32 + 21 * $(long)))

idle_ms() { stat_field "$1" idle_ms; }
ticks() { stat_field "$1" ticks; }

# nice_ratio TAG RATIO_LO RATIO_HI SUM_LO SUM_HI: checks the two cpuhog
# shares of the last boot (an icount boot: both are asserted)
nice_ratio() {
    l0=$(results cpuhog | grep ' task=0 ') l1=$(results cpuhog | grep ' task=1 ')
    s0=$(milli "$(field share "$l0")") s1=$(milli "$(field share "$l1")")
    if [ -z "$s0" ] || [ -z "$s1" ] || [ "$s1" -le 0 ]; then
        fail "$1-nice-shares-one-cpu" "no shares parsed (exit $RC)"; show_tail
        fail "$1-nice-ratio-2.0" "no shares parsed"; return
    fi
    ratio=$((s0 * 1000 / s1))
    echo "# $1: nice 0 share $s0/1000, nice 10 share $s1/1000, ratio $ratio/1000 (predicted 2000)"
    check "$1-nice-shares-one-cpu" in_range "$((s0 + s1))" "$4" "$5"
    check "$1-nice-ratio-2.0" in_range "$ratio" "$2" "$3"
}

for smp in 1 2 4; do
    tag="mq-smp$smp"
    ntasks=$((2 * smp))
    boot mq "$smp" "bench=hackbench groups=2 loops=20" 256 80
    check "$tag-exit0" [ "$RC" = 0 ]
    expect "$tag-boot-line" "^boot: cpus=$smp sched=mq hz=1000 "
    expect "$tag-models-hz100" "^mq: LSE multi-queue scheduler .* counters in 2.4 ticks at HZ=100 \(kernel HZ=1000\)"
    hb=$(results hackbench | head -1)
    check "$tag-hackbench-ok" [ "$(field status "$hb")" = ok ]
    check "$tag-hackbench-all-messages" [ "$(field messages "$hb")" = 16000 ]
    check "$tag-hackbench-all-tasks" [ "$(field tasks_started "$hb")" = 80 ]

    # make test: the hogs (TCG) and the bound icount boot on 2 vCPUs; the
    # hogs on 1 and both on 4 in make test-long (tests/lib.sh long_only)
    [ "$smp" != 2 ] && ! long_only "$tag: the TCG cpuhog boot$([ "$smp" = 4 ] && echo ' and the bound icount boot') on $smp vCPU(s) (here on 2)" && continue
    boot mq "$smp" "bench=cpuhog tasks=$ntasks seconds=2" 256 60
    check "$tag-cpuhog-exit0" [ "$RC" = 0 ]
    cpuhog_shares
    sum=$SHARES_SUM min=$SHARES_MIN n=$SHARES_N
    echo "# $tag: hackbench $(field time_s "$hb") s; $n cpuhog tasks, shares sum $sum/1000 (of $smp CPUs), smallest $min/1000"
    check "$tag-cpuhog-all-tasks-report" [ "$n" = "$ntasks" ]
    no_idle_check "$tag" "$smp" 2
    judge_ticks "$tag-cpu-time-within-the-cpus" "$smp" 2 in_range "$sum" 0 $((smp * 1100))
    every_hog_runs "$tag-no-hog-starves" "$smp" 60 100

    [ "$smp" = 1 ] && continue
    [ "$smp" = 4 ] && ! long_only "$tag: the bound icount boot on 4 vCPUs (nice ratio, shares, affinity)" && continue
    last=$((smp - 1))
    boot mq "$smp" "bench=cpuhog tasks=2 nice=0,10 seconds=2 bind=$last" 256 120 icount
    check "$tag-nice-exit0" [ "$RC" = 0 ]
    nice_ratio "$tag" 1800 2200 950 1050
    busy=$(idle_ms "$last")
    echo "# $tag: icount, bound cpu $last idle_ms=$busy ticks=$(ticks "$last")"
    check "$tag-affinity-bound-cpu-busy" in_range "$busy" 0 800
    cpu=0
    while [ "$cpu" -lt "$last" ]; do
        check "$tag-affinity-cpu$cpu-unused" in_range "$(idle_ms "$cpu")" 1700 1000000
        cpu=$((cpu + 1))
    done
done

# (make test-long: cpuhog.sh boots mq the same way, bind=0 aside, and judges
# the ratio against sched/mq.expect; the bound boot on 2 vCPUs above has this band)
if long_only "sched_mq: mq-icount-* (nice 0 against 10 on 1 vCPU, every tick; here on 2 vCPUs and in cpuhog.sh)"; then
boot mq 1 'bench=cpuhog tasks=2 nice=0,10 seconds=1' 256 80 icount
check "mq-icount-nice-exit0" [ "$RC" = 0 ]
check "mq-icount-every-tick" in_range "$(ticks 0)" 990 1200
nice_ratio mq-icount 1800 2200 950 1050
fi

boot mq 4 'bench=pingpong pairs=2 rounds=200 migrate=1' 256 60
line=$(results pingpong)
check "mq-migrate-exit0" [ "$RC" = 0 ]
check "mq-migrate-ok" [ "$(field status "$line")" = ok ]
check "mq-migrate-no-errors" [ "$(field errors "$line")" = 0 ]
check "mq-migrate-all-cpus-used" [ "$(field cpus_used "$line")" = 0xf ]
