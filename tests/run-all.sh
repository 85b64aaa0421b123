#!/bin/sh
# The test suite: host unit tests (cmocka, tests/host/) and QEMU tests
# (tests/qemu/*.sh).  Every check prints "ok <name>" or "not ok <name>: why"
# (TAP; tests/lib.sh); the last line is "N passed, N failed".  A QEMU script
# that exits non-zero, dies, or makes another number of checks than its
# plan ("1..N") is one failure more, named after the script, with its last
# line (tap_verdict).  Exit status is 0 only when nothing failed.
#   tests/run-all.sh [host|qemu] [PATTERN]
#   tests/run-all.sh sched NAME     make check SCHED=NAME: one scheduler's checks
# TEST_LONG=1 (make test-long) adds the long checks (tests/lib.sh long_only).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
WHICH=${1:-all}
PATTERN=${2:-}
HOST_BINS=    # the host tests to build and run (sched mode); empty: all
SCRIPTS=      # the QEMU scripts to run (sched mode); empty: tests/qemu/*.sh matching PATTERN
if [ "$WHICH" = sched ]; then
    # One scheduler, for whoever edits sched/NAME.c: its host conformance
    # suite and tests/host/test_sched_NAME.c, its own QEMU script
    # tests/qemu/sched_NAME.sh, the generic scripts' judgement against its
    # sched/NAME.expect (cpuhog, schedcost, wakeup), the SMP invariants
    # (smp.sh) and the smoke boot on 1, 2 and 4 vCPUs (boot_sched.sh), all
    # with TEST_SCHEDS=NAME.  The host is measured only if a boot times out
    # (tests/lib.sh: the boot is then retried with the measured factor).
    S=$PATTERN PATTERN=
    if [ -z "$S" ] || [ ! -f "$ROOT/sched/$S.c" ]; then
        echo "error: SCHED=$S is not a scheduler; choose one of: $(make -s -C "$ROOT" list-scheds)" >&2
        exit 2
    fi
    export TEST_SCHEDS=$S
    HOST_BINS="test_conformance_$S"
    [ -f "$ROOT/tests/host/test_sched_$S.c" ] && HOST_BINS="$HOST_BINS test_sched_$S"
    SCRIPTS="boot_sched.sh cpuhog.sh schedcost.sh wakeup.sh smp.sh"
    [ -f "$ROOT/tests/qemu/sched_$S.sh" ] && SCRIPTS="$SCRIPTS sched_$S.sh"
fi
export TEST_TMP=$(mktemp -d /tmp/schedlab-test.XXXXXX)
LOG="$TEST_TMP/all.log"
: >"$LOG"
mkdir -p "$ROOT/build"

run_host() {
    # -k: one test that does not build must not hide the others.  The build
    # is incremental (the Makefile names every source and header a test
    # uses); a binary that is not up to date afterwards (make -q: its build
    # failed, and an older one may be left) counts as not building.
    make -k -s -j"${HOST_JOBS:-$(nproc 2>/dev/null || echo 1)}" -C "$ROOT/tests/host" \
        $(for b in $HOST_BINS; do echo "../../build/host/$b"; done) >"$TEST_TMP/host-build.log" 2>&1
    # Every test the Makefile knows: one per tests/host/test_*.c, and the
    # conformance suite once per sched/*.c (test_conformance_<sched>).
    for bin in ${HOST_BINS:-$(make -s -C "$ROOT/tests/host" list)}; do
        t="$ROOT/build/host/$bin"
        case "$bin" in *"$PATTERN"*) ;; *) continue ;; esac
        if [ ! -x "$t" ] || ! make -q -s -C "$ROOT/tests/host" "../../build/host/$bin" 2>/dev/null; then
            echo "not ok build-$bin: it does not build:"
            grep -B2 -A6 "error" "$TEST_TMP/host-build.log" | grep -A8 "${bin#test_}" | head -16 | sed 's/^/    /'
            continue
        fi
        # cmocka prints "[       OK ] name" and "[  FAILED  ] name" per test.
        CMOCKA_MESSAGE_OUTPUT=stdout timeout 300 "$t" >"$TEST_TMP/$(basename "$t").log" 2>&1
        rc=$?
        name=$(basename "$t" | sed 's/^test_//')
        sed -n -e "s/^\[       OK \] \(.*\)\$/ok $name:\1/p" -e "s/^\[  FAILED  \] \([^ ]*\)\$/not ok $name:\1: see below/p" \
            "$TEST_TMP/$(basename "$t").log" | awk '!seen[$0]++'   # cmocka lists failures twice
        if [ $rc -ne 0 ]; then
            grep -q '^\[  FAILED  \]' "$TEST_TMP/$(basename "$t").log" ||
                echo "not ok $(basename "$t"): exited with status $rc"
            grep -vE '^\[ *(OK|RUN|PASSED|==========) *\]' "$TEST_TMP/$(basename "$t").log" | head -20 | sed 's/^/    /'
        fi
    done
}

# The QEMU scripts run TEST_JOBS at a time (default: 2, or 1 on a one-core
# host), and with them the host unit tests as one more job ("host", first;
# the scripts that boot no QEMU run in that job after them);
# each one's output is printed whole, host first and then the scripts in
# name order.  Every script is written to survive a loaded host (boot limits
# scale, timing is judged in guest ticks or under icount), and kernels are
# built under a lock (tests/lib.sh build), so two at once only share the
# host; the factor measured before they start is multiplied by TEST_JOBS for
# that reason.  They start longest first, by the wall times of the last run
# kept in build/test-times.txt, or in a fresh clone by those of
# tests/script-times.txt (a script in neither first: a new script may be
# long), so that no long script starts last.
run_jobs() {  # run_jobs WITH_HOST WITH_QEMU
    jobs=${TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
    [ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
    [ "$jobs" -le 2 ] || jobs=2
    qdir="$TEST_TMP/qemu-scripts"
    mkdir -p "$qdir"
    names=""
    if [ "$2" = 1 ]; then
        # Every boot limit is scaled by the host's speed, measured once here and
        # cached in $TEST_TMP for the run (the rule is at the top of tests/lib.sh):
        # a slow or busy host must not fail a check by its timing.
        if [ "$WHICH" = sched ]; then
            echo "100 not measured (make check: only when a boot times out)" >"$TEST_TMP/host-factor"
            echo "# host speed: not measured (make check SCHED=$S): a boot that times out measures it and is retried"
        else
            ( TEST_ROOT=$ROOT; . "$ROOT/tests/lib.sh"; host_calibrate 1 )
        fi
        if [ "$jobs" -gt 1 ] && [ -s "$TEST_TMP/host-factor" ]; then
            read -r f rest <"$TEST_TMP/host-factor"
            echo "$((f * jobs)) $rest (x$jobs: $jobs scripts at once)" >"$TEST_TMP/host-factor.new" &&
                mv "$TEST_TMP/host-factor.new" "$TEST_TMP/host-factor"
            echo "# $jobs QEMU scripts at once (TEST_JOBS=$jobs): boot limits x $jobs more"
        fi
        for t in ${SCRIPTS:-"$ROOT"/tests/qemu/*.sh}; do
            name=$(basename "$t")
            [ -f "$ROOT/tests/qemu/$name" ] || continue
            case "$name" in *"$PATTERN"*) names="$names $name" ;; esac
        done
    fi
    # start order: host first, then the scripts by last run's time, longest
    # first (a fresh clone: by the times in tests/script-times.txt)
    startorder=$(for n in $names; do
                t=$(awk -v n="$n" '$1 == "script" && $2 == n { print $3 }' "$TIMES_OLD" 2>/dev/null | tail -1)
                [ -n "$t" ] || t=$(awk -v n="$n" '$1 == "script" && $2 == n { print $3 }' "$ROOT/tests/script-times.txt" 2>/dev/null | tail -1)
                echo "${t:-999999} $n"
            done | sort -k1,1nr -k2 | cut -d' ' -f2)
    # The host tests are one more job beside TEST_JOBS QEMU scripts, and
    # after them, in the same job, the scripts that boot no QEMU (a line
    # "# run-all: host job" in the script: the libFuzzer runs, ...), longest
    # first.  With TEST_JOBS=1 everything runs one by one.
    hostjob=
    if [ "$1" = 1 ] && [ "$jobs" -gt 1 ]; then
        for n in $startorder; do
            grep -qx '# run-all: host job' "$ROOT/tests/qemu/$n" && hostjob="$hostjob $n"
        done
        startorder=$(for n in $startorder; do case " $hostjob " in *" $n "*) ;; *) echo "$n" ;; esac; done)
    fi
    startorder=$(echo $startorder)   # one line: the lists below are matched as " a b c "
    counted=$startorder
    [ "$1" = 1 ] && { names="host $names"; startorder="host $startorder"; }
    [ "$jobs" = 1 ] && counted=$names
    order=$names
    for name in $startorder; do
        while case " $counted " in *" $name "*) true ;; *) false ;; esac &&
            [ "$(running "$qdir" $counted)" -ge "$jobs" ]; do
            order=$(flush "$qdir" $order)
            sleep 0.5
        done
        # started, before the job itself gets to open its log: the next turn counts it
        : >"$qdir/$name.log"
        if [ "$name" = host ]; then
            (
                t0=$(date +%s)
                { echo "# host unit tests"; HOST_JOBS=$jobs run_host 2>&1; echo "# host unit tests: $(($(date +%s) - t0)) s"; } >"$qdir/host.log" 2>&1
                echo "script host $(($(date +%s) - t0))" >"$qdir/host.time"
                : >"$qdir/host.done"
                for n in $hostjob; do : >"$qdir/$n.log"; run_script "$n"; done
            ) &
        else
            run_script "$name" &
        fi
        order=$(flush "$qdir" $order)
    done
    while [ -n "$order" ]; do
        order=$(flush "$qdir" $order)
        [ -z "$order" ] || sleep 0.5
    done
    wait
}
# run_script NAME: runs tests/qemu/NAME into $qdir/NAME.log, then NAME.time
# and NAME.done; the script's exit status and plan are judged (tap_verdict)
run_script() {
    t0=$(date +%s)
    sh "$ROOT/tests/qemu/$1" >"$qdir/$1.out" 2>&1
    rc=$?
    { echo "# $1"; cat "$qdir/$1.out"; tap_verdict "$1" "$qdir/$1.out" "$rc"; echo "# $1: $(($(date +%s) - t0)) s"; } >"$qdir/$1.log"
    echo "script $1 $(($(date +%s) - t0))" >"$qdir/$1.time"
    : >"$qdir/$1.done"
}
# tap_verdict NAME OUTPUT RC: a "not ok NAME: ..." line when the script
# exited non-zero (RC), has no plan ("1..N" before its first check), or
# made another number of checks than it planned; nothing otherwise.  The
# line names the script's last line of output, where it stopped.
tap_verdict() {
    awk -v name="$1" -v rc="$3" '
        /^1\.\.[0-9]+$/ && !planned && checks == 0 { planned = 1; plan = substr($0, 4) + 0; next }
        /^1\.\.[0-9]+$/ { plans++ }
        /^(not )?ok( |$)/ { checks++ }
        NF { last = $0 }
        END {
            if (length(last) > 160) last = substr(last, 1, 157) "..."
            where = " (last line: " (last == "" ? "none" : last) ")"
            made = checks " check" (checks == 1 ? "" : "s")
            if (rc != 0) why = "exited with status " rc " after " made (planned ? " of " plan " planned" : "")
            else if (!planned) why = "no plan (a 1..N line before its first check); " made
            else if (plans) why = "a second plan line"
            else if (checks != plan) why = plan " checks planned, " made
            if (why != "") print "not ok " name ": " why where
        }' "$2"
}
# running DIR NAME...: how many of the scripts have started (a .log) and not finished
running() {
    d=$1; shift; n=0
    for x in "$@"; do [ -e "$d/$x.log" ] && [ ! -e "$d/$x.done" ] && n=$((n + 1)); done
    echo $n
}
# flush DIR NAME...: prints the logs of the finished scripts at the head of
# the list (to stderr, which run-all sends on with stdout), echoes the rest
flush() {
    d=$1; shift
    while [ $# -gt 0 ] && [ -e "$d/$1.done" ]; do
        cat "$d/$1.log" >&2
        shift
    done
    echo "$@"
}

# The wall times of this run's scripts and boots, for the next run's order
# and for profiling: build/test-times.txt, "script NAME SECONDS" (kept for
# the scripts this run did not run) and "boot MS SCRIPT SCHED SMP ACCEL
# 'CMDLINE'", slowest first.
TIMES_OLD=${TEST_TIMES:-$ROOT/build/test-times.txt}   # (tests/qemu/runner.sh names another)
save_times() {
    d="$TEST_TMP/qemu-scripts"
    [ -d "$d" ] || return 0
    {
        cat "$d"/*.time 2>/dev/null
        [ -f "$TIMES_OLD" ] && awk '$1 == "script"' "$TIMES_OLD" | while read -r _ n _; do
            [ -e "$d/$n.time" ] || grep -E "^script $n " "$TIMES_OLD" | tail -1
        done
    } | sort -k3,3nr >"$TIMES_OLD.new"
    sort -nr "$TEST_TMP/boot-times" 2>/dev/null | sed 's/^/boot /' >>"$TIMES_OLD.new"
    mv "$TIMES_OLD.new" "$TIMES_OLD"
}

start=$(date +%s)
echo "# load average at the start: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
case "$WHICH" in
host) run_host ;;
qemu) run_jobs 0 1 ;;
all) run_jobs 1 1 ;;
sched)
    # the kernel first, with every core (the scripts would build it one file at a time)
    make -s -j"$(nproc 2>/dev/null || echo 1)" -C "$ROOT" SCHED="$S" kernel >"$TEST_TMP/build-$S.log" 2>&1 ||
        { echo "not ok build-$S: make SCHED=$S failed:"; tail -20 "$TEST_TMP/build-$S.log" | sed 's/^/    /'; }
    run_jobs 1 1 ;;
*) echo "usage: $0 [host|qemu|all] [PATTERN] | $0 sched NAME" >&2; exit 2 ;;
esac 2>&1 | tee "$LOG"
[ "$WHICH" = sched ] || save_times   # a subset of the scripts: not the next run's order
passed=$(grep '^ok ' "$LOG" | grep -vc ' # SKIP ')
skipped=$(grep '^ok ' "$LOG" | grep -c ' # SKIP ')
failed=$(grep -c '^not ok ' "$LOG")
echo "# wall time: $(( $(date +%s) - start )) s (TEST_JOBS=${TEST_JOBS:-default}; times in build/test-times.txt); load average at the end: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
if [ -s "$TEST_TMP/host-factor" ]; then
    echo "# host factor at the end: $(cut -d' ' -f1 "$TEST_TMP/host-factor" | awk '{ printf "%.2f", $1 / 100 }') ($(cut -d' ' -f2- "$TEST_TMP/host-factor"))"
fi
[ "$skipped" = 0 ] || echo "# $skipped checks not asserted on this host (ok ... # SKIP: the line says whether each held)"
if [ "$failed" -gt 0 ]; then
    echo "# failures:"; grep '^not ok ' "$LOG" | sed 's/^/#   /'
fi
echo "$passed passed, $failed failed"
rm -rf "$TEST_TMP"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
