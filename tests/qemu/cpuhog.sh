# bench=cpuhog: two CPU-bound tasks, nice 0 and nice 10, sharing one CPU
# (bind=0) for 1 second, on 1 vCPU, on every scheduler.
#   Every scheduler (an invariant): the line is well formed and the two
#   shares add up to one CPU (0.90..1.02): the CPU never idles while a hog
#   waits.
#   A scheduler that declares cpuhog_ratio in sched/<name>.expect (its
#   algorithm's prediction of share(nice 0) / share(nice 10), x1000, and a
#   tolerance in %) must match it: rr 1000, goodness and mq 2000 (2.4's 6 vs
#   3 ticks), o1 1920 (2.6.0's 102 vs 53 ms), cfs 9300 (1024/110).  1 s is
#   about 11 epochs of 2.4 and 6.5 rounds of 2.6.0's timeslices, so a
#   partial last round moves the ratio by up to about 10%.
# The boots use --accel icount: QEMU's clock then advances with the
# instructions executed, so ticks, timeslices and shares are deterministic
# and a busy host cannot starve the guest of ticks (with plain TCG on an
# overloaded host a 2 s run saw only about 130 of its 2,000 ticks and the
# shares were noise).  Measured this way: rr 0.500/0.500, goodness
# 0.670/0.330, o1 0.663/0.337, cfs 0.904/0.096, mq 0.680/0.320.
. "$(dirname "$0")/../lib.sh"

# make test leaves out the schedulers whose own script (sched_<name>.sh)
# boots the same nice 0 against nice 10 pair under icount, with bands inside
# the .expect ones: o1, goodness and mq on 2 vCPUs, nick on 1 (here in make
# test-long, and in make check SCHED=<name>).  The others are judged here only.
judged_elsewhere=
if [ -z "${TEST_SCHEDS:-}" ] && ! long_only "cpuhog: cpuhog-{o1,goodness,mq,nick}-smp1-* (here in their sched_<name>.sh icount boots)"; then
    judged_elsewhere="o1 goodness mq nick"
fi
# 4 checks a scheduler, 5 with a cpuhog_ratio expectation; 12 for the bad nice lists
n=0
for sched in $(scheds); do
    case " $judged_elsewhere " in *" $sched "*) continue ;; esac
    n=$((n + 4))
    [ -z "$(expectation "$sched" cpuhog_ratio)" ] || n=$((n + 1))
done
plan $((n + 12 * (1 - $(limited))))
for sched in $(scheds); do
    case " $judged_elsewhere " in *" $sched "*) continue ;; esac
    set -- $(expectation "$sched" cpuhog_ratio)
    predicted=${1:-} tolerance=${2:-25}
    for smp in 1; do   # more vCPUs with bind=: the per-scheduler scripts (sched_*.sh)
        boot "$sched" "$smp" 'bench=cpuhog tasks=2 nice=0,10 seconds=1 bind=0' 256 120 icount
        tag="cpuhog-$sched-smp$smp"
        check "$tag-exit0" [ "$RC" = 0 ]
        l0=$(results cpuhog | grep ' task=0 ') l1=$(results cpuhog | grep ' task=1 ')
        expect "$tag-line" "^result bench=cpuhog sched=$sched cpus=$smp run=0 tasks=2 seconds=1 task=0 nice=0 share=[0-9]+\.[0-9]{3} runtime_ms=[0-9]+ status=ok$"
        expect "$tag-line-nice10" "^result bench=cpuhog sched=$sched cpus=$smp run=0 tasks=2 seconds=1 task=1 nice=10 share=[0-9]+\.[0-9]{3} runtime_ms=[0-9]+ status=ok$"
        s0=$(milli "$(field share "$l0")") s1=$(milli "$(field share "$l1")")
        if [ -z "$s0" ] || [ -z "$s1" ]; then
            fail "$tag-shares-sum-to-one-cpu" "no shares parsed (exit $RC)"; show_tail
            [ -z "$predicted" ] || fail "$tag-ratio-as-predicted" "no shares parsed"
            continue
        fi
        sum=$((s0 + s1))
        check "$tag-shares-sum-to-one-cpu" in_range "$sum" 900 1020
        [ -n "$predicted" ] || { echo "# $tag: shares $s0/1000 and $s1/1000 (no cpuhog_ratio expectation)"; continue; }
        [ "$s1" -gt 0 ] || { fail "$tag-ratio-as-predicted" "the nice 10 hog got no CPU (exit $RC)"; continue; }
        ratio=$((s0 * 1000 / s1))
        echo "# $tag: shares $s0/1000 and $s1/1000, ratio $ratio/1000, predicted $predicted/1000"
        check "$tag-ratio-as-predicted" \
            in_range "$ratio" $((predicted * (100 - tolerance) / 100)) $((predicted * (100 + tolerance) / 100))
    done
done

# Bad nice lists: an "error:" line, exit 1, no result.
# The rest tests the workload on the default scheduler, not a scheduler of
# TEST_SCHEDS (make check SCHED=<name> runs the loop above only).
[ -z "${TEST_SCHEDS:-}" ] || exit 0

bad() {
    boot "$DEFAULT_SCHED" 1 "$2"
    check "cpuhog-bad-$1-exit1" [ "$RC" = 1 ]
    expect "cpuhog-bad-$1-message" "^error: $3"
    expect_not "cpuhog-bad-$1-no-result" '^result '
}
bad nice-count 'bench=cpuhog tasks=2 nice=0' 'nice=0: 1 nice levels for tasks=2'
bad nice-range 'bench=cpuhog tasks=2 nice=0,20' 'nice=0,20: .*-20..19'
bad nice-syntax 'bench=cpuhog tasks=2 nice=0,x' 'nice=0,x'
bad tasks-zero 'bench=cpuhog tasks=0' 'tasks=0.*out of range'
