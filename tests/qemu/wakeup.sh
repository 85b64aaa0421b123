# bench=wakeup on every scheduler, 1 and 2 vCPUs, one second, two workers,
# with the default hogs (one CPU hog per CPU): the run completes (hogs stop,
# every task is reaped, exit 0) and reports a sane latency distribution:
# samples > 0 and p50 <= p90 <= p99 <= p99.9 <= max.  Latency values depend
# on timing and are not asserted.
. "$(dirname "$0")/../lib.sh"

# tenths V: "123.4" -> 1234 (latencies are printed in microseconds with one decimal)
tenths() { printf '%s\n' "$1" | sed -n 's/^\([0-9]*\)\.\([0-9]\)$/\1\2/p'; }
ordered() {  # ordered A B C ...: each value <= the next (all non-empty)
    prev=
    for v in "$@"; do
        [ -n "$v" ] || return 1
        [ -z "$prev" ] || [ "$prev" -le "$v" ] || return 1
        prev=$v
    done
}
positive() { case "$1" in ''|*[!0-9]*) return 1 ;; esac; [ "$1" -gt 0 ]; }

for sched in $(make -s -C "$ROOT" list-scheds); do
    for smp in 1 2; do
        boot "$sched" "$smp" 'bench=wakeup seconds=1 workers=2'
        tag="wakeup-$sched-smp$smp"
        check "$tag-exit0" [ "$RC" = 0 ]
        expect "$tag-line" "^result bench=wakeup sched=$sched cpus=$smp run=0 seconds=1 workers=2 hogs=$smp samples=[0-9]+ p50_us=[0-9]+\.[0-9] p90_us=[0-9]+\.[0-9] p99_us=[0-9]+\.[0-9] p999_us=[0-9]+\.[0-9] max_us=[0-9]+\.[0-9] dropped=[0-9]+ status=ok$"
        l=$(results wakeup)
        check "$tag-samples" positive "$(field samples "$l")"
        check "$tag-percentiles-ordered" ordered "$(tenths "$(field p50_us "$l")")" "$(tenths "$(field p90_us "$l")")" \
            "$(tenths "$(field p99_us "$l")")" "$(tenths "$(field p999_us "$l")")" "$(tenths "$(field max_us "$l")")"
        echo "# $tag: $(printf '%s\n' "$l" | sed 's/.* samples=/samples=/')"
    done
done

# No hogs at all still works (idle CPUs: small latencies).
boot rr 2 'bench=wakeup seconds=1 workers=3 hogs=0'
check "wakeup-no-hogs-exit0" [ "$RC" = 0 ]
expect "wakeup-no-hogs-line" '^result bench=wakeup .* workers=3 hogs=0 samples=[1-9][0-9]* .* status=ok$'

# Bad input: an "error:" line, exit 1, no result.
bad() {
    boot rr 1 "$2"
    check "wakeup-bad-$1-exit1" [ "$RC" = 1 ]
    expect "wakeup-bad-$1-message" "^error: $3"
    expect_not "wakeup-bad-$1-no-result" '^result '
}
bad workers-zero 'bench=wakeup workers=0' 'workers=0.*out of range'
bad seconds-zero 'bench=wakeup seconds=0' 'seconds=0.*out of range'
bad hogs-text 'bench=wakeup hogs=many' 'hogs=many'
