#!/bin/sh
# The memory model's stalls as trace events (memstall; docs/caches.md "See
# it", docs/tracing.md).  In make test: a kernel without the model records
# none and says so (the stream's event list, summary.txt's "not recorded"),
# and refuses trace_events=memstall.  In make test-long (CACHES=1 builds):
# tools/schedlab trace on the model names the objects of the stalls in
# trace.txt, trace.dat (trace-cmd report), the timeline and summary.txt,
# with a clean trace-check; and a kernel that differs in one data word and
# records no stall (-DSTALLTRACE_DRY=1) prints the same result line for
# the same command line: recording costs no virtual time.
. "$(dirname "$0")/../lib.sh"
plan $((5 + 13 * $(long)))
S=goodness
build "$S" || exit 1
tools_built

# tboot KERNEL_DIR SMP CMDLINE TRACE_OUT: a vsmp boot with the trace channel
tboot() {
    OUT="$TMP/ctrace-out.$$.$(date +%s%N)"
    "$ROOT/tools/qemu-run.sh" --kernel "$ROOT/build/$1/kernel.elf" --smp "$2" --accel vsmp --cmdline "$3" \
        --timeout 600 ${4:+--trace-out "$4"} >"$OUT" 2>"$OUT.err"
    RC=$?
}

# ---- without the model: none, and said so
tboot "$S" 2 'bench=hackbench groups=1 loops=5 trace=1 trace_events=switch,memstall' "$TMP/ct-bad.bin"
expect "caches-trace-memstall-needs-model" '^error: trace_events=switch,memstall: memstall needs the memory model'
tboot "$S" 2 'bench=hackbench groups=1 loops=5 trace=1' "$TMP/ct-plain.bin"
check "caches-trace-plain-exit0" [ "$RC" = 0 ]
rm -rf "$TMP/ct-plain"
"$SCHEDLAB_BIN" trace-convert "$TMP/ct-plain.bin" --out "$TMP/ct-plain" >"$TMP/ct-plain.log" 2>&1
OUT="$TMP/ct-plain/summary.txt"
expect "caches-trace-plain-not-recorded" '^memory stalls: not recorded \(memstall needs the memory model'
OUT="$TMP/ct-plain/trace.txt"
expect "caches-trace-plain-events" '^# schedlab: .* events=switch,wakeup,wakeup_new,migrate,fork,exit,sched capacity='
check "caches-trace-plain-no-memstall" sh -c '! grep -q ": memstall: " "$1"' _ "$OUT"

long_only "memstall with the model, and that recording it is free" || exit 0

# ---- with the model: tools/schedlab trace, 2 CPUs
D="$TMP/ct-model"
rm -rf "$D"
"$SCHEDLAB_BIN" trace --sched "$S" --smp 2 --accel vsmp --caches 1 --set machine=piii-xeon-1m --bench hackbench \
    --groups 2 --loops 10 --timeout 600 --out "$D" >"$TMP/ct-model.out" 2>&1
RC=$? OUT="$TMP/ct-model.out"
check "caches-trace-verb-exit0" [ "$RC" = 0 ]
OUT="$D/check.txt"
expect "caches-trace-check-clean" '^trace-check: [0-9]+ events on 2 CPUs, none dropped, 0 violations$'
expect "caches-trace-round-trip" '^round trip: the text reads back as the same [0-9]+ events$'
OUT="$D/trace.txt"
expect "caches-trace-events-memstall" '^# schedlab: .* events=.*,sched,memstall capacity='
# on both CPUs, naming what was accessed (a field of a kernel object, a copy)
expect "caches-trace-memstall-cpu0" '\[000\] d\.\.\. +[0-9.]+: memstall: what=[a-z_@?][^ ]* stall_ns=[1-9][0-9]* from=(l2|memory|c2c|l1_xfer|upgrade|bus) tick_stall_ns=[1-9][0-9]* site=0x[0-9a-f]{8}$'
expect "caches-trace-memstall-cpu1" '\[001\] d\.\.\. +[0-9.]+: memstall: what=[a-z_@?][^ ]* '
expect "caches-trace-memstall-object" ': memstall: what=[a-z_]+\.[a-z_]'
check "caches-trace-dat-memstall" sh -c '[ "$(trace-cmd report "$1" 2>/dev/null | grep -c " memstall: ")" = "$(grep -c ": memstall: " "$2")" ]' _ "$D/trace.dat" "$OUT"
OUT="$D/summary.txt"
expect "caches-trace-summary" '^memory stalls: [1-9][0-9]* ticks with a stall recorded'
check "caches-trace-timeline" grep -q 'class="memstall"' "$D/timeline.html"

# ---- recording is free: one data word apart, the same command line, the same result
for dry in 0 1; do
    ( flock 9; make -s -C "$ROOT" SCHED="$S" CACHES=1 CFLAGS_EXTRA="-DSTALLTRACE_DRY=$dry" kernel \
        >"$TMP/build-dry$dry.log" 2>&1 ) 9>"$ROOT/build/.lock" ||
        { fail_with caches-trace-build "make CACHES=1 STALLTRACE_DRY=$dry failed:" "$TMP/build-dry$dry.log"; exit 1; }
done
ELF0=$(ls -d "$ROOT"/build/$S-caches-x*/ | while read -r d; do grep -q 'STALLTRACE_DRY=0' "$d/kernel.flags" && echo "$d"; done | head -1)
ELF1=$(ls -d "$ROOT"/build/$S-caches-x*/ | while read -r d; do grep -q 'STALLTRACE_DRY=1' "$d/kernel.flags" && echo "$d"; done | head -1)
check "caches-trace-dry-one-byte" sh -c '[ "$(cmp -l "$1/kernel.elf" "$2/kernel.elf" | wc -l)" = 1 ]' _ "$ELF0" "$ELF1"
# On 1 CPU: there the model's own work moves no trajectory (vsmp's timer counts
# time without it, docs/caches.md "The model's work and vsmp's timer"); on 2
# CPUs a path from the model's host-side work into the run remains (the same
# two kernels print other result lines: not yet found, docs/caches.md).
C='bench=hackbench groups=4 loops=20 machine=piii-xeon-1m trace=1'
tboot "$(basename "$ELF0")" 1 "$C" "$TMP/ct-rec.bin"
rec=$(grep -E '^result ' "$OUT") nrec=$(grep -oE '^trace: [0-9]+ memstall records' "$OUT" | grep -oE '[0-9]+')
tboot "$(basename "$ELF1")" 1 "$C" "$TMP/ct-dry.bin"
drec=$(grep -E '^result ' "$OUT") ndry=$(grep -oE '^trace: [0-9]+ memstall records' "$OUT" | grep -oE '[0-9]+')
check "caches-trace-recorded" sh -c '[ "${1:-0}" -gt 0 ] && [ "${2:-x}" = 0 ]' _ "$nrec" "$ndry"
check "caches-trace-free" sh -c '[ -n "$1" ] && [ "$1" = "$2" ]' _ "$rec" "$drec"
echo "# caches_trace: $nrec memstall records; the result line with them and without: $(field time_s "$rec") / $(field time_s "$drec") s"
