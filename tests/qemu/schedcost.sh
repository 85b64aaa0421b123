# bench=schedcost on every scheduler: one result line per N with a positive
# cycles_per_pick (an invariant), and, for a scheduler that declares
# pick_cost in sched/<name>.expect, the shape its algorithm predicts:
#   linear (goodness, mq: schedule() walks every runnable task; all tasks
#     here are bound to one CPU, so mq's one queue holds them all): a pick
#     among 200 tasks costs more than 3x a pick among 10 (ideal: 20x;
#     measured 16x and 14x);
#   constant (o1: the first set bit of a 140-bit map; rr: the head of a
#     FIFO) or logarithmic (cfs: a cached leftmost node, log n updates):
#     below 3x (ideal: 1x; cfs measured 1.4x).
# The shape checks run on one CPU under vsmp (--accel vsmp --smp 1: QEMU
# under icount, one instruction one cycle), so the counts are exact and the
# host's load cannot move them: under TCG, at load 6 (a reproduction and
# the suite side by side), cfs's median of 8 parts of the window read 1,766
# cycles at 10 and 6,901 at 200 (mean 6,215 at 10), and the 3x check
# failed.  Under vsmp, 2026-12-06: cfs 531 / 746, cfs23 451 / 490, goodness
# 450 / 7,290, mq 563 / 7,789, nick 116 / 112, o1 162 / 161, rr 51 / 51,
# simple 59 / 59 (10 / 200 runnable), about 1 s a boot.  A second boot per
# scheduler on 2 vCPUs under TCG checks the lines only.
. "$(dirname "$0")/../lib.sh"
n=0
for sched in $(scheds); do
    n=$((n + 8))
    [ -z "$(expectation "$sched" pick_cost)" ] || n=$((n + 1))
done
plan $((n + 12 * (1 - $(limited))))

# cycles N: cycles_per_pick of the runnable=N line of the last boot
cycles() { field cycles_per_pick "$(results schedcost | grep " runnable=$1 ")"; }
positive() { case "$1" in ''|*[!0-9]*) return 1 ;; esac; [ "$1" -gt 0 ]; }
both_positive() { positive "$1" && positive "$2"; }

for sched in $(scheds); do
    shape=$(expectation "$sched" pick_cost)
    for smp in 1 2; do
        accel=tcg; [ "$smp" = 1 ] && accel=vsmp
        boot "$sched" "$smp" 'bench=schedcost runnable=10,200' 256 60 "$accel"
        tag="schedcost-$sched-smp$smp"   # not $name: check() uses that
        check "$tag-exit0" [ "$RC" = 0 ]
        check "$tag-two-lines" [ "$(results schedcost | grep -c ' status=ok$')" = 2 ]
        expect "$tag-line-10" "^result bench=schedcost sched=$sched cpus=$smp run=0 runnable=10 picks=[0-9]+ cycles_per_pick=[0-9]+ cycles_per_pick_mean=[0-9]+ status=ok$"
        c10=$(cycles 10) c200=$(cycles 200)
        check "$tag-positive" both_positive "$c10" "$c200"
        [ "$smp" = 1 ] && [ -n "$shape" ] || continue
        both_positive "$c10" "$c200" || { fail "$tag-pick-cost-shape" "no cycles_per_pick to judge ($c10, $c200)"; continue; }
        echo "# $tag: cycles_per_pick $c10 at 10 runnable, $c200 at 200 (declared: ${shape:-nothing})"
        case $shape in
        linear)
            check "$tag-linear-scan-200-over-3x-10" [ "$c200" -gt $((3 * c10)) ] ;;
        constant|logarithmic)
            check "$tag-$shape-200-under-3x-10" [ "$c200" -lt $((3 * c10)) ] ;;
        '') ;;
        *) fail "$tag-expectation" "sched/$sched.expect: pick_cost '$shape' is not constant, logarithmic or linear" ;;
        esac
    done
done

# Bad input: an "error:" line, exit 1, no result.
# The rest tests the workload on the default scheduler, not a scheduler of
# TEST_SCHEDS (make check SCHED=<name> runs the loop above only).
[ -z "${TEST_SCHEDS:-}" ] || exit 0

bad() {
    boot "$DEFAULT_SCHED" 1 "$2"
    check "schedcost-bad-$1-exit1" [ "$RC" = 1 ]
    expect "schedcost-bad-$1-message" "^error: $3"
    expect_not "schedcost-bad-$1-no-result" '^result '
}
bad zero 'bench=schedcost runnable=0' 'runnable=0.*out of range'
bad not-number 'bench=schedcost runnable=10,x' 'runnable=10,x'
bad rounds 'bench=schedcost rounds=0' 'rounds=0.*out of range'

# Out of memory: 50,000 tasks need about 225 MiB; with 64 MiB creation fails
# part way, the line says status=oom and the run exits with code 4.
boot "$DEFAULT_SCHED" 2 'bench=schedcost runnable=10,50000' 64
check "schedcost-oom-exit4" [ "$RC" = 4 ]
expect "schedcost-oom-line" '^result bench=schedcost .* runnable=50000 created=[0-9]+ status=oom$'
expect "schedcost-oom-smaller-ok" '^result bench=schedcost .* runnable=10 .* status=ok$'
