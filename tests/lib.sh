# Helpers for QEMU tests (sourced by tests/qemu/*.sh).
#
# A test script speaks TAP (the Test Anything Protocol, as perl's and git's
# suites do): first its plan, "1..N", the number of checks it will make,
# then one line per check, "ok <name>" or "not ok <name>: <why>" (a check
# that is not asserted on this host, "ok <name> # SKIP <why>"), and "# ..."
# lines for people.  tests/run-all.sh counts them, and fails a script that
# exits non-zero, dies, or makes another number of checks than it planned
# (naming the script and its last line); `prove -e sh tests/qemu/NAME.sh`
# runs one too.  Typical use:
#
#   . "$(dirname "$0")/../lib.sh"
#   plan 2                            # before anything else: the checks below
#   boot rr 2 'bench=boot'            # sets OUT (serial output file) and RC (exit status)
#   check "rr boots" [ "$RC" = 0 ]
#   expect "boot line" '^boot: cpus=2 sched=rr '
#
# A script whose number of checks depends on its parameters computes it
# (plan $((6 * $(nscheds)))); every branch of a script makes the same
# number of checks (skip NAME WHY for one that does not apply).
#
# Images are built once per scheduler (make is incremental and serialised by a lock).
#
# Boot limits (boot()'s TIMEOUT, boot_limit) are no timed assertions.  A
# limit only ends a guest that would otherwise never stop; a real hang is
# caught inside the guest, on its own clock, by the kernel's watchdog
# (watchdog=, exit 3) and its spinlock stall check.  So every limit a test
# names is nominal: seconds on this project's 2-core development machine
# when it is quiet, with a margin of 2x or more over the boot's time there.
# The limit used is the nominal one times the host factor:
#
#   factor = max(1, T_goodness / 2000 ms, T_rr / 850 ms), T_s = the median
#   wall time of three calibration boots of SCHED=s (CALIB_* below: the
#   same fixed amount of guest work, hackbench on 2 vCPUs under TCG, which
#   a busy host slows down like the most load-sensitive boots: goodness's
#   one run-queue lock convoys when the host preempts its holder, rr's
#   wake-ups are IPIs to a vCPU the host may not be running), and 2000 and
#   850 ms the same medians on the development machine when quiet.
#
# tests/run-all.sh measures it once at the start and caches it for the run
# in $TEST_TMP/host-factor (a script run on its own measures it before its
# first boot).  When a boot still times out, the host is measured again: if
# it has become slower (a larger factor), the boot is retried once with the
# limit scaled by the new factor, and a "# boot ...: retried" line says so;
# the larger factor then holds for the rest of the run.  Otherwise the
# timeout stands (RC=124) and a "# ..." line gives both factors.  Nothing
# else is ever retried.  A limit written "=S" is exact (never scaled or
# retried): for a test that expects the timeout itself.
set -u
ROOT=${TEST_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
TMP=${TEST_TMP:-$(mktemp -d /tmp/schedlab-test.XXXXXX)}
mkdir -p "$TMP"

# build SCHED: make -j SCHED=SCHED kernel, once per run of the suite for this
# tree: the sources do not change while it runs, so a later build() of the
# same scheduler finds the stamp and skips make (tests that build other
# configurations, or a changed copy of the tree, call make themselves).
build() {
    _bd_stamp="$TMP/built.$(printf '%s' "$ROOT" | cksum | cut -d' ' -f1).$1"
    [ -e "$_bd_stamp" ] && [ -f "$ROOT/build/$1/kernel.elf" ] && return 0
    ( flock 9; make -s -j"$(nproc 2>/dev/null || echo 1)" -C "$ROOT" SCHED="$1" kernel >"$TMP/build-$1.log" 2>&1 ) 9>"$ROOT/build/.lock" || {
        fail "build-$1" "make SCHED=$1 failed:"; sed 's/^/    /' "$TMP/build-$1.log" | tail -20; return 1; }
    : >"$_bd_stamp"
}

# ---- the host factor (see the top of this file) ----
# Two calibration workloads, each a fixed amount of guest work on 2 vCPUs
# under TCG (the same hackbench): on goodness every switch takes one global
# run-queue lock, which convoys when the host preempts its holder; on rr
# every wake-up is an IPI to the other vCPU.  The factor is the larger of
# their slowdowns.  CALIB_REF_MS: their medians on the development machine
# when quiet (load below 0.5), measured again whenever the workload changes
# (2026-12-01, AF_UNIX sockets and the reaping window: 4126/4255/4668 and
# 1722/2048/2130 ms; before them 2000 and 850).
CALIB_SMP=2 CALIB_CMDLINE='bench=hackbench groups=20 loops=200'
CALIB_SCHEDS='goodness rr'
CALIB_REF_MS_goodness=4250 CALIB_REF_MS_rr=2050

# host_measure [N]: prints "FACTOR MS_goodness MS_rr": the medians in ms of
# N (default 3) calibration boots of each, and the factor in hundredths they
# give (at least 100); nothing when a boot fails (then the factor stays as it
# was).  The suite's first measurement is one boot each (host_calibrate 1):
# a factor too small only costs a timed-out boot, which measures again with
# three and is retried (boot below); one too large only loosens limits.
host_measure() {
    mkdir -p "$ROOT/build"
    _hm_f=100 _hm_all= _hm_n=${1:-3}
    for _hm_s in $CALIB_SCHEDS; do
        build "$_hm_s" >/dev/null || return 0
        _hm_times=
        for _hm_i in $(seq "$_hm_n"); do
            _hm_t0=$(date +%s%N)
            "$ROOT/tools/qemu-run.sh" --kernel "$ROOT/build/$_hm_s/kernel.elf" --smp "$CALIB_SMP" \
                --cmdline "$CALIB_CMDLINE" --timeout 900 >"$TMP/calibrate.out.$$" 2>&1 || return 0
            _hm_times="$_hm_times $(( ($(date +%s%N) - _hm_t0) / 1000000 ))"
        done
        _hm_ms=$(printf '%s\n' $_hm_times | sort -n | sed -n "$(( (_hm_n + 1) / 2 ))p")
        eval "_hm_ref=\$CALIB_REF_MS_$_hm_s"
        _hm_this=$(( (_hm_ms * 100 + _hm_ref - 1) / _hm_ref ))
        [ "$_hm_this" -gt "$_hm_f" ] && _hm_f=$_hm_this
        _hm_all="$_hm_all $_hm_s=${_hm_ms}ms/${_hm_ref}ms"
    done
    echo "$_hm_f$_hm_all"
}

# fmt_factor F100: 235 -> 2.35
fmt_factor() { printf '%d.%02d' $(($1 / 100)) $(($1 % 100)); }

# host_calibrate [N]: measures the host (N boots each, default 3) and caches
# its factor; prints one "#" line
host_calibrate() {
    _hc=$(host_measure "${1:-3}")
    if [ -n "$_hc" ]; then
        echo "$_hc" >"$TMP/host-factor.$$" && mv "$TMP/host-factor.$$" "$TMP/host-factor"
        echo "# host speed: calibration boots (median of ${1:-3}, against the quiet development machine): ${_hc#* }: boot limits x $(fmt_factor "${_hc%% *}")"
    else
        echo "100 failed" >"$TMP/host-factor.$$" && mv "$TMP/host-factor.$$" "$TMP/host-factor"
        echo "# host speed: a calibration boot failed (output in $TMP/calibrate.out.$$): boot limits x 1.00"
    fi
}

# host_factor: the cached factor in hundredths (measured first when there is none)
host_factor() {
    [ -s "$TMP/host-factor" ] || host_calibrate >&2
    cut -d' ' -f1 "$TMP/host-factor"
}

# boot_limit S [F100]: the limit to use for a nominal limit of S seconds
# ("=S": exactly S); for tests that run tools/qemu-run.sh or schedlab themselves
boot_limit() {
    case $1 in
    =*) echo "${1#=}" ;;
    *) _bl_f=${2:-$(host_factor)}; echo $(( ($1 * _bl_f + 99) / 100 )) ;;
    esac
}

# boot SCHED SMP CMDLINE [MEM] [TIMEOUT] [ACCEL]: OUT = serial output, RC = exit status.
# TIMEOUT is nominal (default 60) and scaled by the host factor; a boot that
# times out is retried once, and only when the host has become slower (see
# the top of this file).  Nothing else is retried: an intermittent failure
# is a kernel bug to find, not noise.
boot() {
    mkdir -p "$ROOT/build"
    build "$1" || { RC=255; OUT=/dev/null; return 0; }
    _b_nominal=${5:-60}
    [ -s "$TMP/host-factor" ] || host_calibrate
    _b_f=$(host_factor)
    _b_limit=$(boot_limit "$_b_nominal" "$_b_f")
    boot_once "$1" "$2" "$3" "${4:-256}" "${6:-tcg}" "$_b_limit"
    case $_b_nominal in =*) return 0 ;; esac
    [ "$RC" = 124 ] || return 0
    _b_m=$(host_measure)
    _b_f2=${_b_m%% *}
    if [ -n "$_b_m" ] && [ "$_b_f2" -gt "$_b_f" ]; then
        echo "$_b_m" >"$TMP/host-factor.$$" && mv "$TMP/host-factor.$$" "$TMP/host-factor"   # scripts may run two at once
        echo "# boot $1 smp$2 '$3': timed out after $_b_limit s; the host got slower (calibration now ${_b_m#* }: factor $(fmt_factor "$_b_f") -> $(fmt_factor "$_b_f2")): retried once with $(boot_limit "$_b_nominal" "$_b_f2") s"
        boot_once "$1" "$2" "$3" "${4:-256}" "${6:-tcg}" "$(boot_limit "$_b_nominal" "$_b_f2")"
    else
        _b_now="a calibration boot failed"
        [ -n "$_b_m" ] && _b_now="calibration now ${_b_m#* }: factor $(fmt_factor "$_b_f2")"
        echo "# boot $1 smp$2 '$3': timed out after $_b_limit s (factor $(fmt_factor "$_b_f")); the host is not slower ($_b_now): not retried"
    fi
}
# boot_once SCHED SMP CMDLINE MEM ACCEL LIMIT: one boot, sets OUT and RC
# (each boot's wall time goes to $TMP/boot-times: tests/run-all.sh prints the slowest)
# Every test boot checks the scheduler core's invariants (checks=1: kernel/sched_env.h;
# off by default, where it would be instructions on the measured paths) unless its
# command line says checks= itself.
boot_once() {
    OUT="$TMP/out.$$.$(date +%s%N)"
    _bo_t0=$(date +%s%N)
    case " $3 " in *" checks="*) _bo_cmdline=$3 ;; *) _bo_cmdline="${3:+$3 }checks=1" ;; esac
    "$ROOT/tools/qemu-run.sh" --kernel "$ROOT/build/$1/kernel.elf" --smp "$2" --cmdline "$_bo_cmdline" \
        --mem "$4" --timeout "$6" --accel "$5" >"$OUT" 2>"$OUT.err"
    RC=$?
    echo "$(( ($(date +%s%N) - _bo_t0) / 1000000 )) $(basename "$0") $1 smp$2 $5 '$3'" >>"$TMP/boot-times"
}

# The long checks: runs that cost minutes of the suite for what a shorter
# run already shows on most of its configurations (the bound icount boots on
# 4 vCPUs, long fuzzing, the longer stress slice).  make test-long
# (TEST_LONG=1) runs them with everything else; docs/testing.md lists them.
# long_only WHAT: true under make test-long; otherwise one "# ..." line says
# that WHAT runs there, and false.
long_only() {
    [ "${TEST_LONG:-0}" = 1 ] && return 0
    echo "# make test-long: $*"
    return 1
}

# ---- TAP: the plan and the checks ----
# plan N: this script makes N checks; before the first.  TEST_PLAN_ONLY=1
# prints N and exits (a script that runs another one counts its checks so).
plan() {
    if [ "${TEST_PLAN_ONLY:-0}" = 1 ]; then echo "$1"; exit 0; fi
    echo "1..$1"
}
# pass NAME / fail NAME WHY / skip NAME WHY: one check's line
pass() { echo "ok $1"; }
fail() { echo "not ok $1: $2"; }
skip() { echo "ok $1 # SKIP $2"; }
# fail_with NAME WHY [FILE...]: a failure with the tail of FILE (a log) below it
fail_with() { fail "$1" "$2"; shift 2; [ $# -gt 0 ] && sed 's/^/    | /' "$@" | tail -15; return 0; }
# ok_if NAME WHY-IF-NOT COMMAND...: a check that shows $LAST (default
# $D/last.log: the log the script kept of what it ran last) when it fails
ok_if() {
    _oi_name=$1 _oi_why=$2; shift 2
    if "$@"; then pass "$_oi_name"; else fail_with "$_oi_name" "$_oi_why" "${LAST:-$D/last.log}"; fi
}

# check NAME COMMAND...: runs the command; ok when it succeeds
check() {
    _check_name=$1; shift   # a prefixed name: test scripts use $name themselves
    if "$@"; then pass "$_check_name"; else fail "$_check_name" "'$*' was false (exit $RC; output in $OUT)"; show_tail; fi
}

# expect NAME REGEX: some line of the output matches
expect() {
    if grep -Eq -- "$2" "$OUT"; then pass "$1"; else fail "$1" "no line matches /$2/ (exit $RC)"; show_tail; fi
}

# expect_not NAME REGEX: no line of the output matches
expect_not() {
    if grep -Eq -- "$2" "$OUT"; then fail "$1" "a line matches /$2/"; grep -E -- "$2" "$OUT" | head -3 | sed 's/^/    /'; else pass "$1"; fi
}

# show_tail: the end of the last boot's output and errors, and the first
# lines of a kernel report (panic:, watchdog:, stall:), whose kind and
# first words a long report's tail would not show
show_tail() {
    grep -E '^(panic|watchdog|stall):' "$OUT" 2>/dev/null | head -3 | sed 's/^/    > /'
    tail -5 "$OUT" 2>/dev/null | sed 's/^/    | /'; tail -3 "$OUT.err" 2>/dev/null | sed 's/^/    ! /'
}

# ---- the kernel's lines, read by the tools' one parser (docs/protocol.md) ----
# The program that reads them (built once per run of the suite, as kernels are).
SCHEDLAB_BIN="$ROOT/build/tools/schedlab"
tools_built() {
    _tb_stamp="$TMP/tools-built.$(printf '%s' "$ROOT" | cksum | cut -d' ' -f1)"
    [ -e "$_tb_stamp" ] && [ -x "$SCHEDLAB_BIN" ] && return 0
    mkdir -p "$ROOT/build"
    ( flock 9; make -s -C "$ROOT/tools" >"$TMP/tools-build.log" 2>&1 ) 9>"$ROOT/build/.lock" || {
        fail build-tools "make -C tools failed:"; sed 's/^/    /' "$TMP/tools-build.log" | tail -20; return 1; }
    : >"$_tb_stamp"
}
# proto_field KEY [--kind K] [--where KEY=VALUE]... [FILE...]: schedlab field
proto_field() { tools_built && "$SCHEDLAB_BIN" field "$@"; }

# field KEY LINE: the value of key=value in a line
field() { printf '%s\n' "$2" | proto_field "$1" | head -1; }

# results BENCH: the result lines of that bench
results() { grep -E "^result bench=$1 " "$OUT"; }

# oversubscribed SMP: true when the guest has more vCPUs than the host has
# cores.  Then vCPUs are time-shared by the host and per-CPU share, idle and
# balance figures say more about the host than about the scheduler: tests
# print them instead of asserting them.
oversubscribed() { [ "$1" -gt "$(nproc 2>/dev/null || echo 1)" ]; }

# judge NAME COMMAND... : like check, but not asserted (a skipped check that
# says whether it held) on an oversubscribed guest (set JUDGE_SMP to the
# guest's vCPU count).
judge() {
    if oversubscribed "${JUDGE_SMP:-1}"; then
        _check_name=$1; shift
        unasserted "$_check_name" "${JUDGE_SMP} vCPUs on $(nproc) host cores" "$@"
    else
        check "$@"
    fi
}

# milli X.YYY: the value in thousandths (0.669 -> 669); empty when malformed
milli() { printf '%s\n' "$1" | sed -n 's/^\([0-9]*\)\.\([0-9][0-9][0-9]\)$/\1\2/p' | sed 's/^0*\([0-9]\)/\1/'; }

# in_range N LO HI: N is a number within LO..HI
in_range() { [ -n "$1" ] && [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; }

# stat_field CPU KEY: KEY of that CPU's schedstat line
stat_field() { proto_field "$2" --kind schedstat --where "cpu=$1" "$OUT" | head -1; }
# stat_of KIND CPU KEY: KEY of that CPU's line of KIND (schedstat, coststat, vsmpstat...)
stat_of() { proto_field "$3" --kind "$1" --where "cpu=$2" "$OUT" | head -1; }
# kind_sum KEY KIND: the sum of KEY over the lines of KIND (0 when there are none)
kind_sum() { proto_field "$1" --kind "$2" "$OUT" | awk '{ s += $1 } END { printf "%d\n", s }'; }

# cpuhog_shares: over the cpuhog result lines of $OUT, in thousandths of a CPU,
# sets SHARES_N (lines with a share), SHARES_SUM, SHARES_MIN and SHARES_MAX.
cpuhog_shares() {
    SHARES_N=0 SHARES_SUM=0 SHARES_MIN=100000 SHARES_MAX=0
    for _share in $(proto_field share --kind result --where bench=cpuhog "$OUT"); do
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
scheds() { echo "${TEST_SCHEDS:-$(make -s -C "$ROOT" list-scheds)}" | tr "," " "; }   # TEST_SCHEDS: "o1 cfs" or o1,cfs
# For plans: nscheds, the number of scheds; long, 1 under make test-long
# (else 0); limited, 1 when TEST_SCHEDS limits the run to some schedulers.
nscheds() { set -- $(scheds); echo $#; }
long() { if [ "${TEST_LONG:-0}" = 1 ]; then echo 1; else echo 0; fi; }
limited() { if [ -n "${TEST_SCHEDS:-}" ]; then echo 1; else echo 0; fi; }

# ---- host-independent judgement of SMP share and idle figures ----
# Under TCG the guest's TSC clock is the host's: when the host deschedules a
# vCPU, TSC time passes but that vCPU sees no ticks.  cpuhog shares and
# idle_ms are TSC time, while the schedulers count slices and balancing
# intervals in ticks (jiffies are CPU 0's ticks), so on a busy host a share
# or an idle time says more about the host than about the scheduler.  The
# guest's own progress does not: jiffies, and the ticks at which a CPU ran
# something (ticks - idle_ticks).  idle_ticks alone is no such measure: a
# halted vCPU costs the host almost nothing, so an idle CPU gets its ticks
# at nearly the full rate while a busy one loses them (measured at host
# load 14: 179 idle ticks in 192 ms idle, 245 ticks in 2.3 s busy).

# stat_all KEY SMP: KEY of CPUs 0..SMP-1, one per line (a missing one empty)
stat_all() { _sa=0; while [ "$_sa" -lt "$2" ]; do echo "$(stat_field "$_sa" "$1")"; _sa=$((_sa + 1)); done; }
# stat_sum KEY SMP / stat_min KEY SMP: over CPUs 0..SMP-1; empty when a CPU lacks KEY
stat_sum() { stat_all "$1" "$2" | awk '!/^[0-9]+$/ { bad = 1 } { s += $1 } END { if (!bad) print s }'; }
stat_min() { stat_all "$1" "$2" | awk '!/^[0-9]+$/ { bad = 1 } NR == 1 || $1 < m { m = $1 } END { if (!bad) print m }'; }
# busy_min SMP: the fewest ticks at which one CPU was not idle (ticks - idle_ticks)
busy_min() {
    _bm=0 _bm_min=
    while [ "$_bm" -lt "$1" ]; do
        _bm_t=$(stat_field "$_bm" ticks) _bm_i=$(stat_field "$_bm" idle_ticks)
        [ -n "$_bm_t" ] && [ -n "$_bm_i" ] || { echo; return; }
        [ -z "$_bm_min" ] || [ $((_bm_t - _bm_i)) -lt "$_bm_min" ] && _bm_min=$((_bm_t - _bm_i))
        _bm=$((_bm + 1))
    done
    echo "$_bm_min"
}

# report NAME WHY COMMAND...: the outcome as a "# ..." line, never asserted
report() {
    _r_name=$1 _r_why=$2; shift 2
    if "$@"; then echo "# $_r_name: holds (not asserted: $_r_why)";
    else echo "# $_r_name: does not hold, not asserted: $_r_why ('$*')"; fi
}
# unasserted NAME WHY COMMAND...: a check that this run cannot assert (WHY):
# skipped, its line saying whether it held
unasserted() {
    _u_name=$1 _u_why=$2; shift 2
    if "$@"; then skip "$_u_name" "holds, not asserted: $_u_why";
    else skip "$_u_name" "does not hold, not asserted: $_u_why ('$*')"; fi
}

# full_ticks SMP SECONDS: every CPU of the last boot saw at least 90% of the
# ticks of a SECONDS-long run at HZ=1000 (the boot line says hz=1000).  Then
# the host stretched the guest's ticks by at most 10% of the run, and TSC
# shares agree with the schedulers' tick counts within the bands the scripts
# use; sets FEWEST_TICKS.
full_ticks() { FEWEST_TICKS=$(stat_min ticks "$1"); [ -n "$FEWEST_TICKS" ] && [ "$FEWEST_TICKS" -ge $(($2 * 900)) ]; }

# judge_ticks NAME SMP SECONDS COMMAND...: a TSC share figure of a
# SECONDS-long run: judged (judge: asserted unless oversubscribed) when the
# guest got its ticks (full_ticks), otherwise reported
judge_ticks() {
    _jt_name=$1 _jt_smp=$2 _jt_s=$3; shift 3
    if full_ticks "$_jt_smp" "$_jt_s"; then JUDGE_SMP=$_jt_smp judge "$_jt_name" "$@"
    else unasserted "$_jt_name" "a CPU saw only $FEWEST_TICKS of the ~$((_jt_s * 1000)) ticks of the run: TSC shares of a tick-driven scheduler are host timing" "$@"; fi
}

# no_idle_check TAG SMP SECONDS: TAG-no-cpu-idle-while-tasks-wait on a boot
# of bench=cpuhog alone (SECONDS long) with more hogs than CPUs: no CPU stays
# idle while tasks wait.  The idle CPU time of the run is what the shares
# leave of the CPUs (SMP - sum of shares, in TSC time), and it is judged in
# the guest's own clock: jiffies, CPU 0's ticks, on which the balancers
# count their intervals.  At the rate CPU 0 saw them (J ticks in the boot
# for SECONDS x 1000 ms: a slight overestimate, the boot is longer), the
# idle time must be at most 10% of the run's nominal CPU-jiffies
# (SMP x SECONDS x 1000): on a quiet host (J = 1000 per second) exactly the
# former "sum of shares >= 0.90 x SMP", but a host that stretches a
# 64-jiffy balance interval to 0.5 s of TSC time cannot fail it.  Judged
# (not asserted on an oversubscribed guest, whose vCPUs the host time-shares)
# when J is large enough that a CPU idle for the whole run would exceed the
# allowance by 25%; otherwise reported.
no_idle_check() {
    cpuhog_shares
    _ni_j=$(stat_field 0 ticks)
    _ni_max=$(($2 * $3 * 100))
    if [ "$SHARES_N" = 0 ] || [ -z "$_ni_j" ]; then
        fail "$1-no-cpu-idle-while-tasks-wait" "no shares or no ticks in the output (exit $RC)"; show_tail; return
    fi
    _ni_def=$(($2 * 1000 - SHARES_SUM))
    [ "$_ni_def" -lt 0 ] && _ni_def=0
    _ni_idle=$((_ni_def * _ni_j / 1000))
    echo "# $1: shares sum $SHARES_SUM/1000 of $2 CPUs: $_ni_def/1000 CPU idle, at CPU 0's $_ni_j ticks about $_ni_idle CPU-jiffies (allowed: $_ni_max)"
    if [ "$_ni_j" -lt $((_ni_max * 5 / 4)) ]; then
        unasserted "$1-no-cpu-idle-while-tasks-wait" "CPU 0 saw only $_ni_j ticks, too few for a CPU idle all along to exceed the allowance" \
            in_range "$_ni_idle" 0 "$_ni_max"
    else
        JUDGE_SMP=$2 judge "$1-no-cpu-idle-while-tasks-wait" in_range "$_ni_idle" 0 "$_ni_max"
    fi
}

# within_mask MASK USED...: three runs' cpus_used, each within MASK (0x..)
within_mask() {
    _wm=$1; shift
    [ $# = 3 ] || return 1
    for _u in "$@"; do [ $(( _u & ~_wm )) -eq 0 ] || return 1; done
}

# hogs_ran N: N cpuhog result lines, each with runtime_ms >= 1
hogs_ran() { [ "$(results cpuhog | grep -c ' runtime_ms=[1-9][0-9]* ')" = "$1" ]; }

# every_hog_runs NAME SMP SLICE LO: no hog of a bench=cpuhog boot with 2*SMP
# hogs and seconds=2 starves (a scheduler with slices of SLICE ticks).  When
# the guest got its ticks (full_ticks), every share >= LO/1000, the band the
# script documents.  Otherwise the band is TSC timing and is reported; what
# is asserted then is that every hog ran at all (runtime_ms >= 1), provided
# every CPU was busy for >= 4 x SLICE ticks (two turns of two hogs): a hog
# that gets no turn in that many ticks is starved whatever the host does.
# Judged (not asserted on an oversubscribed guest).
every_hog_runs() {
    cpuhog_shares
    _eh_busy=$(busy_min "$2")
    if full_ticks "$2" 2; then
        JUDGE_SMP=$2 judge "$1" in_range "$SHARES_MIN" "$4" 1000
    elif [ -n "$_eh_busy" ] && [ "$_eh_busy" -ge $(($3 * 4)) ]; then
        report "$1-share" "a CPU saw only $FEWEST_TICKS of the ~2000 ticks of the run: TSC shares of a tick-driven scheduler are host timing" \
            in_range "$SHARES_MIN" "$4" 1000
        echo "# $1: every CPU was busy for >= $_eh_busy ticks (>= 4 slices of $3): every hog must have run"
        JUDGE_SMP=$2 judge "$1" hogs_ran $((2 * $2))
    else
        unasserted "$1" "a CPU was busy for only $_eh_busy ticks (fewer than 4 slices of $3): the host starved the guest" \
            hogs_ran $((2 * $2))
    fi
}
