#!/bin/sh
# The test suite: host unit tests (cmocka, tests/host/) and QEMU tests
# (tests/qemu/*.sh).  Every check prints "ok <name>" or "FAIL <name>: why";
# the last line is "N passed, N failed".  Exit status is 0 only when nothing failed.
#   tests/run-all.sh [host|qemu] [PATTERN]
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WHICH=${1:-all}
PATTERN=${2:-}
export TEST_TMP=$(mktemp -d /tmp/schedlab-test.XXXXXX)
LOG="$TEST_TMP/all.log"
: >"$LOG"
mkdir -p "$ROOT/build"

run_host() {
    # -k: one test that does not build must not hide the others.
    rm -f "$ROOT"/build/host/test_*
    make -k -s -C "$ROOT/tests/host" >"$TEST_TMP/host-build.log" 2>&1
    # Every test the Makefile knows: one per tests/host/test_*.c, and the
    # conformance suite once per sched/*.c (test_conformance_<sched>).
    for bin in $(make -s -C "$ROOT/tests/host" list); do
        t="$ROOT/build/host/$bin"
        case "$bin" in *"$PATTERN"*) ;; *) continue ;; esac
        if [ ! -x "$t" ]; then
            echo "FAIL build-$bin: it does not build:"
            grep -B2 -A6 "error" "$TEST_TMP/host-build.log" | grep -A8 "${bin#test_}" | head -16 | sed 's/^/    /'
            continue
        fi
        # cmocka prints "[       OK ] name" and "[  FAILED  ] name" per test.
        CMOCKA_MESSAGE_OUTPUT=stdout timeout 300 "$t" >"$TEST_TMP/$(basename "$t").log" 2>&1
        rc=$?
        name=$(basename "$t" | sed 's/^test_//')
        sed -n -e "s/^\[       OK \] \(.*\)\$/ok $name:\1/p" -e "s/^\[  FAILED  \] \([^ ]*\)\$/FAIL $name:\1: see below/p" \
            "$TEST_TMP/$(basename "$t").log" | awk '!seen[$0]++'   # cmocka lists failures twice
        if [ $rc -ne 0 ]; then
            grep -q '^\[  FAILED  \]' "$TEST_TMP/$(basename "$t").log" ||
                echo "FAIL $(basename "$t"): exited with status $rc"
            grep -vE '^\[ *(OK|RUN|PASSED|==========) *\]' "$TEST_TMP/$(basename "$t").log" | head -20 | sed 's/^/    /'
        fi
    done
}

run_qemu() {
    # Every boot limit is scaled by the host's speed, measured once here and
    # cached in $TEST_TMP for the run (the rule is at the top of tests/lib.sh):
    # a slow or busy host must not fail a check by its timing.
    ( TEST_ROOT=$ROOT; . "$ROOT/tests/lib.sh"; host_calibrate )
    for t in "$ROOT"/tests/qemu/*.sh; do
        [ -f "$t" ] || continue
        case "$(basename "$t")" in *"$PATTERN"*) ;; *) continue ;; esac
        echo "# $(basename "$t")"
        t0=$(date +%s)
        sh "$t" 2>&1
        echo "# $(basename "$t"): $(($(date +%s) - t0)) s"
    done
}

start=$(date +%s)
echo "# load average at the start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
case "$WHICH" in
host) run_host ;;
qemu) run_qemu ;;
all) run_host; run_qemu ;;
*) echo "usage: $0 [host|qemu|all] [PATTERN]" >&2; exit 2 ;;
esac 2>&1 | tee "$LOG"
passed=$(grep -c '^ok ' "$LOG")
failed=$(grep -c '^FAIL ' "$LOG")
echo "# $(( $(date +%s) - start )) s; load average at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
if [ -s "$TEST_TMP/host-factor" ]; then
    echo "# host factor at the end: $(cut -d' ' -f1 "$TEST_TMP/host-factor" | awk '{ printf "%.2f", $1 / 100 }') ($(cut -d' ' -f2- "$TEST_TMP/host-factor"))"
fi
if [ "$failed" -gt 0 ]; then
    echo "# failures:"; grep '^FAIL ' "$LOG" | sed 's/^/#   /'
fi
echo "$passed passed, $failed failed"
rm -rf "$TEST_TMP"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
