#!/bin/sh
# A seeded randomized stress run: boots drawn at random (scheduler, vCPUs,
# memory, workloads and their keys from the kernel's own bench=list, bind=,
# runs=), each outcome classified as explained or as a failure, a summary,
# and for every failure the exact command that reproduces it.
#
# usage: tools/stress.sh [--boots N] [--seed S] [--jobs 1|2] [--timeout S]
#                        [--sched LIST] [--out DIR] [--clock strict|note] [--plan] [--quiet]
#   --quiet: no status line (boots done / total, elapsed, ETA from recorded boot times)
#   make stress N=1000 SEED=7          the same through make (docs/testing.md)
#
# The same seed (and the same kernel sources: the draw reads bench=list) gives
# the same boots, and N boots of a seed are the first N of any longer run of it.
# Exit status: 0 when every boot is explained, 1 when some boot failed or the
# kernels could not be built or listed, 2 for a usage error, 130 when interrupted.
#
# Files: tools/stress/plan.awk draws the boots, tools/stress/classify.awk judges
# one boot, tools/stress/summary.awk writes the summary.  In DIR (default
# build/stress/seed-S): plan.txt, kernels/ (the images booted: a rebuild
# elsewhere cannot change them mid-run), logs/NNNN.{log,err}, res/NNNN (one
# classified line per boot), summary.txt.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
HERE=$ROOT/tools/stress
SMPS="1 2 3 4 5 8"

usage() {  # usage [STATUS]: the usage block at the top of this file
    sed -n '/^# usage:/,/^#   make stress/p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit "${1:-2}"
}
die() { echo "error: $*" >&2; exit 2; }
fail() { echo "stress: error: $*" >&2; exit 1; }
SCHEDLAB=$ROOT/build/tools/schedlab   # reads the console logs (docs/protocol.md)
# classify LOG RC INTENT SMP CMDLINE: CLASS VERDICT REASON of one boot
# (tools/stress/classify.awk over the log as the tools' parser splits it)
classify() {
    "$SCHEDLAB" parse "$1" --format tsv | STRESS_RC=$2 STRESS_INTENT=$3 STRESS_SMP=$4 STRESS_CMDLINE=$5 \
        STRESS_TIMEOUT=$TIMEOUT STRESS_LAST=$(tail -n 1 "$1") awk -f "$HERE/classify.awk"
}
is_uint() { case "$1" in ''|*[!0-9]*) return 1 ;; *) return 0 ;; esac; }

BOOTS=100 SEED= JOBS= TIMEOUT=180 SCHEDS= OUT= PLAN_ONLY=0 CLOCK=strict QUIET=0
while [ $# -gt 0 ]; do
    case "$1" in
    --*=*) opt=${1%%=*}; arg=${1#*=}; shift; set -- "$opt" "$arg" "$@"; continue ;;
    esac
    case "$1" in
    --boots|-n|--seed|-s|--jobs|-j|--timeout|-t|--sched|--out|-o|--clock)
        [ $# -ge 2 ] || die "$1: needs a value (tools/stress.sh --help)" ;;
    esac
    case "$1" in
    --boots|-n) BOOTS=$2; shift 2 ;;
    --seed|-s) SEED=$2; shift 2 ;;
    --jobs|-j) JOBS=$2; shift 2 ;;
    --timeout|-t) TIMEOUT=$2; shift 2 ;;
    --sched) SCHEDS=$(printf '%s' "$2" | tr ',' ' '); shift 2 ;;
    --out|-o) OUT=$2; shift 2 ;;
    --clock) CLOCK=$2; shift 2 ;;
    --plan) PLAN_ONLY=1; shift ;;
    --quiet) QUIET=1; shift ;;
    -h|--help) usage 0 ;;
    *) die "unknown option '$1' (tools/stress.sh --help)" ;;
    esac
done

# A boot whose clock calibration disagrees with the run's other boots (see
# summary.awk) is a failure (strict), or only listed (note).
case "$CLOCK" in strict|note) ;; *) die "--clock $CLOCK: expected strict or note" ;; esac
is_uint "$BOOTS" && [ "$BOOTS" -ge 1 ] && [ "$BOOTS" -le 1000000 ] || die "--boots $BOOTS: expected 1..1000000"
if [ -z "$SEED" ]; then
    SEED=$(( $(date +%s) % 1000000 ))
    echo "stress: no seed given: seed $SEED (SEED=$SEED repeats this run)" >&2
fi
# 18 digits at most: the seed is reduced in 64-bit shell arithmetic elsewhere, kept as text here
case "$SEED" in ''|*[!0-9]*) die "--seed $SEED: expected a decimal number" ;; esac
[ ${#SEED} -le 18 ] || die "--seed $SEED: at most 18 digits"
# Two at a time at most: the development host has 2 cores, and more boots than
# cores would make the boots' timing, and so the watchdog, say more about the host.
CORES=$(nproc 2>/dev/null || echo 1)
[ -n "$JOBS" ] || JOBS=$([ "$CORES" -ge 2 ] && echo 2 || echo 1)
case "$JOBS" in 1|2) ;; *) die "--jobs $JOBS: expected 1 or 2" ;; esac
# Generous: a boot normally takes seconds; the kernel's own watchdog (30 s
# without progress) reports real stalls long before this kills a boot.
is_uint "$TIMEOUT" && [ "$TIMEOUT" -ge 10 ] || die "--timeout $TIMEOUT: expected seconds >= 10"
ALL_SCHEDS=$(make -s -C "$ROOT" list-scheds) || fail "make list-scheds failed"
[ -n "$SCHEDS" ] || SCHEDS=$ALL_SCHEDS
for s in $SCHEDS; do
    case " $ALL_SCHEDS " in *" $s "*) ;; *) die "--sched: '$s' is not a scheduler; choose from: $ALL_SCHEDS" ;; esac
done
command -v qemu-system-i386 >/dev/null 2>&1 || fail "qemu-system-i386 not found (tools/deps.sh check)"

# The output directory: ours to replace only if a stress run made it.
[ -n "$OUT" ] || OUT=$ROOT/build/stress/seed-$SEED
if [ -d "$OUT" ] && [ -n "$(ls -A "$OUT" 2>/dev/null)" ]; then
    [ -f "$OUT/.stress-run" ] || die "--out $OUT: exists, is not empty and was not made by tools/stress.sh"
    rm -rf "$OUT/plan.txt" "$OUT/kernels" "$OUT/logs" "$OUT/res" "$OUT/summary.txt" "$OUT"/.worker*
fi
mkdir -p "$OUT/kernels" "$OUT/logs" "$OUT/res" || fail "cannot create $OUT"
: >"$OUT/.stress-run"

# Build every image once (serialised with other builders, as tests/lib.sh does),
# copy it, and read its bench=list.
mkdir -p "$ROOT/build"
( flock 9; make -s -C "$ROOT/tools" >"$OUT/kernels/tools.build.log" 2>&1 ) 9>"$ROOT/build/.lock" ||
    { tail -20 "$OUT/kernels/tools.build.log" >&2; fail "make -C tools failed"; }
for s in $SCHEDS; do
    ( flock 9; make -s -C "$ROOT" SCHED="$s" kernel >"$OUT/kernels/$s.build.log" 2>&1 ) 9>"$ROOT/build/.lock" ||
        { tail -20 "$OUT/kernels/$s.build.log" >&2; fail "make SCHED=$s kernel failed"; }
    cp "$ROOT/build/$s/kernel.elf" "$OUT/kernels/$s.elf" || fail "cannot copy build/$s/kernel.elf"
done
first=${SCHEDS%% *}
"$ROOT/tools/qemu-run.sh" --kernel "$OUT/kernels/$first.elf" --smp 1 --mem 32 --timeout 60 --cmdline bench=list \
    >"$OUT/kernels/bench-list.txt" 2>"$OUT/kernels/bench-list.err" ||
    fail "bench=list did not boot on $first (see $OUT/kernels/bench-list.txt)"
grep -q '^workload name=' "$OUT/kernels/bench-list.txt" || fail "bench=list printed no workload line"

"$SCHEDLAB" parse "$OUT/kernels/bench-list.txt" --format tsv >"$OUT/kernels/bench-list.tsv" ||
    fail "cannot read $OUT/kernels/bench-list.txt"
awk -f "$HERE/plan.awk" -v seed="$SEED" -v boots="$BOOTS" -v scheds="$SCHEDS" -v smps="$SMPS" \
    "$OUT/kernels/bench-list.tsv" >"$OUT/plan.txt" || fail "drawing the boots failed"
if [ "$PLAN_ONLY" = 1 ]; then
    cat "$OUT/plan.txt"
    exit 0
fi

# One boot: log, classification, a progress line.
run_boot() {  # run_boot WORKER IDX SCHED SMP MEM INTENT CMDLINE
    log=$OUT/logs/$2.log
    t0=$(date +%s)
    "$ROOT/tools/qemu-run.sh" --kernel "$OUT/kernels/$3.elf" --smp "$4" --mem "$5" --accel tcg \
        --timeout "$TIMEOUT" --cmdline "$7" >"$log" 2>"$OUT/logs/$2.err" </dev/null &
    BOOT_PID=$!
    echo "$BOOT_PID" >"$OUT/.worker$1.pid"
    wait "$BOOT_PID"
    rc=$?
    BOOT_PID=
    t1=$(date +%s)
    verdict=$(classify "$log" "$rc" "$6" "$4" "$7")
    tsc=$("$SCHEDLAB" field tsc_khz --kind boot "$log" | head -1)
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$2" "$3" "$4" "$5" "$6" "$rc" "$((t1 - t0))" "${tsc:--}" "$verdict" \
        >"$OUT/res/$2.tmp" && mv "$OUT/res/$2.tmp" "$OUT/res/$2"
    ndone=$(ls "$OUT/res" | wc -l)
    printf '%sstress: [%s/%s] #%s %s smp=%s mem=%s %s (%s s)\n' "$CLEAR" "$ndone" "$BOOTS" "$2" "$3" "$4" "$5" \
        "$(printf '%s' "$verdict" | cut -f1,2 | tr '\t' ' ' | sed 's/ explained$//')${tsc:+ tsc_khz=$tsc}" "$((t1 - t0))" >&2
}

# A worker takes every JOBS-th boot of the plan.  On TERM it stops its boot:
# qemu-run.sh waits for its timeout(1) child, which runs QEMU in a process
# group of its own, so that child is signalled first.
worker() {  # worker W
    BOOT_PID=
    trap 'if [ -n "$BOOT_PID" ]; then pkill -TERM -P "$BOOT_PID" 2>/dev/null; kill -TERM "$BOOT_PID" 2>/dev/null; fi; exit 143' TERM INT
    n=0
    TAB=$(printf '\t')
    while IFS=$TAB read -r idx sched smp mem intent cmdline; do
        n=$((n + 1))
        [ $(( (n - 1) % JOBS )) -eq "$1" ] || continue
        run_boot "$1" "$idx" "$sched" "$smp" "$mem" "$intent" "$cmdline" </dev/null
    done <"$OUT/plan.txt"
}

echo "stress: $BOOTS boots, seed $SEED, $JOBS at a time, timeout $TIMEOUT s, schedulers: $SCHEDS; logs in $OUT" >&2
# The status line (schedlab progress, as tools/schedlab run's): boots
# done / total, elapsed, the ETA from recorded boot times; each boot's line
# clears it first on a terminal.
CLEAR= PROGRESS_PID=
TOOL=$ROOT/build/tools/schedlab
if ( flock 9; make -s -C "$ROOT" tools ) 9>"$ROOT/build/.lock" >"$OUT/tools-build.log" 2>&1 &&
    "$TOOL" plan stress "$OUT" >"$OUT/.plan" 2>>"$OUT/tools-build.log"; then
    q=
    [ "$QUIET" = 1 ] && q=--quiet
    "$TOOL" progress "$OUT/.plan" --label stress --slots "$JOBS" --pid $$ --times "$ROOT/build/boot-times.txt" \
        --reference "$ROOT/tools/boot-times.txt" $q </dev/null &
    PROGRESS_PID=$!
    [ -n "$q" ] || [ ! -t 2 ] || CLEAR=$(printf '\r\033[K')
else
    echo "stress: no status line (building schedlab failed: $OUT/tools-build.log)" >&2
fi
PIDS=
w=0
while [ "$w" -lt "$JOBS" ]; do
    worker "$w" &
    PIDS="$PIDS $!"
    w=$((w + 1))
done
trap 'for p in $PIDS $PROGRESS_PID; do kill -TERM "$p" 2>/dev/null; done; wait; echo "stress: interrupted; results so far in $OUT/res" >&2; exit 130' INT TERM
for p in $PIDS; do wait "$p"; done
trap - INT TERM
[ -z "$PROGRESS_PID" ] || { kill -TERM "$PROGRESS_PID" 2>/dev/null; wait "$PROGRESS_PID" 2>/dev/null; }
rm -f "$OUT/.plan"

find "$OUT/res" -type f ! -name '*.tmp' -exec cat {} + |
    awk -f "$HERE/summary.awk" -v seed="$SEED" -v jobs="$JOBS" -v timeout="$TIMEOUT" -v out="$OUT" -v clock="$CLOCK" \
        "$OUT/plan.txt" - >"$OUT/summary.txt"
status=$?
cat "$OUT/summary.txt"
[ "$status" -eq 0 ] || exit 1
exit 0
