# Helpers for QEMU tests (sourced by tests/qemu/*.sh).
#
# A test script prints one line per check:  "ok <name>"  or  "FAIL <name>: <why>".
# tests/run-all.sh counts them.  Typical use:
#
#   . "$(dirname "$0")/../lib.sh"
#   boot rr 2 'bench=boot'            # sets OUT (serial output file) and RC (exit status)
#   check "rr boots" [ "$RC" = 0 ]
#   expect "boot line" '^boot: cpus=2 sched=rr '
#
# Images are built once per scheduler (make is incremental and serialised by a lock).
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TMP=${TEST_TMP:-$(mktemp -d /tmp/schedlab-test.XXXXXX)}
mkdir -p "$TMP"

build() {  # build SCHED
    ( flock 9; make -s -C "$ROOT" SCHED="$1" kernel >"$TMP/build-$1.log" 2>&1 ) 9>"$ROOT/build/.lock" || {
        echo "FAIL build-$1: make SCHED=$1 failed:"; sed 's/^/    /' "$TMP/build-$1.log" | tail -20; return 1; }
}

# boot SCHED SMP CMDLINE [MEM] [TIMEOUT] [ACCEL]: OUT = serial output, RC = exit status
# (never retried: an intermittent failure is a kernel bug to find, not noise)
boot() {
    mkdir -p "$ROOT/build"
    build "$1" || { RC=255; OUT=/dev/null; return 0; }
    OUT="$TMP/out.$$.$(date +%s%N)"
    "$ROOT/tools/qemu-run.sh" --kernel "$ROOT/build/$1/kernel.elf" --smp "$2" --cmdline "$3" \
        --mem "${4:-256}" --timeout "${5:-60}" --accel "${6:-tcg}" >"$OUT" 2>"$OUT.err"
    RC=$?
}

# check NAME COMMAND...: runs the command; ok when it succeeds
check() {
    _check_name=$1; shift   # a prefixed name: test scripts use $name themselves
    if "$@"; then echo "ok $_check_name"; else echo "FAIL $_check_name: '$*' was false (exit $RC; output in $OUT)"; show_tail; fi
}

# expect NAME REGEX: some line of the output matches
expect() {
    if grep -Eq -- "$2" "$OUT"; then echo "ok $1"; else echo "FAIL $1: no line matches /$2/ (exit $RC)"; show_tail; fi
}

# expect_not NAME REGEX: no line of the output matches
expect_not() {
    if grep -Eq -- "$2" "$OUT"; then echo "FAIL $1: a line matches /$2/"; grep -E -- "$2" "$OUT" | head -3 | sed 's/^/    /'; else echo "ok $1"; fi
}

show_tail() { tail -5 "$OUT" 2>/dev/null | sed 's/^/    | /'; tail -3 "$OUT.err" 2>/dev/null | sed 's/^/    ! /'; }

# field KEY LINE: the value of key=value in a result line
field() { printf '%s\n' "$2" | tr ' ' '\n' | sed -n "s/^$1=//p" | head -1; }

# results BENCH: the result lines of that bench
results() { grep -E "^result bench=$1 " "$OUT"; }

# oversubscribed SMP: true when the guest has more vCPUs than the host has
# cores.  Then vCPUs are time-shared by the host and per-CPU share, idle and
# balance figures say more about the host than about the scheduler: tests
# print them instead of asserting them.
oversubscribed() { [ "$1" -gt "$(nproc 2>/dev/null || echo 1)" ]; }

# judge NAME COMMAND... : like check, but only reported (as "# ...") on an
# oversubscribed guest (set JUDGE_SMP to the guest's vCPU count).
judge() {
    if oversubscribed "${JUDGE_SMP:-1}"; then
        _check_name=$1; shift
        if "$@"; then echo "# $_check_name: holds (not asserted: ${JUDGE_SMP} vCPUs on $(nproc) host cores)";
        else echo "# $_check_name: does not hold, not asserted: ${JUDGE_SMP} vCPUs on $(nproc) host cores ('$*')"; fi
    else
        check "$@"
    fi
}

# milli X.YYY: the value in thousandths (0.669 -> 669); empty when malformed
milli() { printf '%s\n' "$1" | sed -n 's/^\([0-9]*\)\.\([0-9][0-9][0-9]\)$/\1\2/p' | sed 's/^0*\([0-9]\)/\1/'; }

# in_range N LO HI: N is a number within LO..HI
in_range() { [ -n "$1" ] && [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; }

# stat_field CPU KEY: KEY of that CPU's schedstat line
stat_field() { grep -E "^schedstat cpu=$1 " "$OUT" | head -1 | tr ' ' '\n' | sed -n "s/^$2=//p"; }

# cpuhog_shares: over the cpuhog result lines of $OUT, in thousandths of a CPU,
# sets SHARES_N (lines with a share), SHARES_SUM, SHARES_MIN and SHARES_MAX.
cpuhog_shares() {
    SHARES_N=0 SHARES_SUM=0 SHARES_MIN=100000 SHARES_MAX=0
    for _share in $(results cpuhog | tr ' ' '\n' | sed -n 's/^share=//p'); do
        _m=$(milli "$_share")
        [ -n "$_m" ] || continue
        SHARES_SUM=$((SHARES_SUM + _m)) SHARES_N=$((SHARES_N + 1))
        [ "$_m" -lt "$SHARES_MIN" ] && SHARES_MIN=$_m
        [ "$_m" -gt "$SHARES_MAX" ] && SHARES_MAX=$_m
    done
}

# expectation SCHED KEY: the values of KEY in sched/SCHED.expect (the
# scheduler's own policy predictions, docs/new-scheduler.md); empty when the
# file or the key is absent, and then only the invariants are checked.
expectation() {
    [ -f "$ROOT/sched/$1.expect" ] || return 0
    sed -n "s/#.*//; s/^$2[[:space:]]\{1,\}//p" "$ROOT/sched/$1.expect" | head -1 | sed 's/[[:space:]]*$//'
}

# The scheduler a test uses when it tests the kernel, not a policy: the Makefile's default.
DEFAULT_SCHED=$(make -s -C "$ROOT" print-default-sched 2>/dev/null || echo o1)

# scheds: the schedulers a generic script runs on: every sched/*.c, or only
# those in TEST_SCHEDS (e.g. TEST_SCHEDS=mine tests/run-all.sh qemu).
scheds() { echo "${TEST_SCHEDS:-$(make -s -C "$ROOT" list-scheds)}"; }
