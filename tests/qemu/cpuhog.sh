# bench=cpuhog: two CPU-bound tasks, nice 0 and nice 10, sharing one CPU
# (bind=0) for 1 second, on 1 and 2 vCPUs.  The ratio share(nice 0) /
# share(nice 10) must match what each scheduler's algorithm predicts:
#   rr        ignores nice                                            1.0
#   goodness  Linux 2.4 NICE_TO_TICKS at HZ=100: 6 ticks vs 3 ticks   2.0
#   o1        Linux 2.6.0 task_timeslice: 102 ms vs 53 ms             1.92
#   cfs       nice-to-weight table: 1024 / 110                        9.3
#   mq        2.4 goodness per CPU queue, same epochs as goodness     2.0
# Tolerance: +-25% of the prediction (1 s is about 11 epochs of 2.4 and 6.5
# rounds of 2.6.0's timeslices, so a partial last round moves the ratio by
# up to about 10%).  The shares must add up to one CPU: 0.90..1.02.
# The boots use --accel icount: QEMU's clock then advances with the
# instructions executed, so ticks, timeslices and shares are deterministic
# and a busy host cannot starve the guest of ticks (with plain TCG on an
# overloaded host a 2 s run saw only about 130 of its 2,000 ticks and the
# shares were noise).  Measured this way: rr 0.500/0.500, goodness
# 0.670/0.330, o1 0.663/0.337, cfs 0.904/0.096, mq 0.680/0.320.
# Assertions for a scheduler run only when it exists; a scheduler not listed
# here gets the generic checks.
. "$(dirname "$0")/../lib.sh"

# milli S: "0.667" -> 667 (shares are printed with three decimals)

for sched in $(make -s -C "$ROOT" list-scheds); do
    case $sched in
    rr) predicted=1000 ;;
    goodness|mq) predicted=2000 ;;
    o1) predicted=1920 ;;
    cfs) predicted=9300 ;;
    *) predicted= ;;
    esac
    for smp in 1 2; do
        boot "$sched" "$smp" 'bench=cpuhog tasks=2 nice=0,10 seconds=1 bind=0' 256 120 icount
        tag="cpuhog-$sched-smp$smp"
        check "$tag-exit0" [ "$RC" = 0 ]
        l0=$(results cpuhog | grep ' task=0 ') l1=$(results cpuhog | grep ' task=1 ')
        expect "$tag-line" "^result bench=cpuhog sched=$sched cpus=$smp run=0 tasks=2 seconds=1 task=0 nice=0 share=[0-9]+\.[0-9]{3} runtime_ms=[0-9]+ status=ok$"
        expect "$tag-line-nice10" "^result bench=cpuhog sched=$sched cpus=$smp run=0 tasks=2 seconds=1 task=1 nice=10 share=[0-9]+\.[0-9]{3} runtime_ms=[0-9]+ status=ok$"
        s0=$(milli "$(field share "$l0")") s1=$(milli "$(field share "$l1")")
        [ -n "$s0" ] && [ -n "$s1" ] && [ "$s1" -gt 0 ] || { echo "FAIL $tag-shares: no shares parsed (exit $RC)"; show_tail; continue; }
        sum=$((s0 + s1)) ratio=$((s0 * 1000 / s1))
        echo "# $tag: shares $s0/1000 and $s1/1000, ratio $ratio/1000, predicted ${predicted:-none}/1000"
        check "$tag-shares-sum-to-one-cpu" in_range "$sum" 900 1020
        if [ -n "$predicted" ]; then
            check "$tag-ratio-as-predicted" \
                in_range "$ratio" $((predicted * 75 / 100)) $((predicted * 125 / 100))
        fi
    done
done

# Bad nice lists: an "error:" line, exit 1, no result.
bad() {
    boot rr 1 "$2"
    check "cpuhog-bad-$1-exit1" [ "$RC" = 1 ]
    expect "cpuhog-bad-$1-message" "^error: $3"
    expect_not "cpuhog-bad-$1-no-result" '^result '
}
bad nice-count 'bench=cpuhog tasks=2 nice=0' 'nice=0: 1 nice levels for tasks=2'
bad nice-range 'bench=cpuhog tasks=2 nice=0,20' 'nice=0,20: .*-20..19'
bad nice-syntax 'bench=cpuhog tasks=2 nice=0,x' 'nice=0,x'
bad tasks-zero 'bench=cpuhog tasks=0' 'tasks=0.*out of range'
