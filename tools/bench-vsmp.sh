#!/bin/sh
# bench-vsmp: what a vsmp boot costs the host, this tree against a baseline
# git revision, measured side by side in one run (schedlab bench-vsmp and
# make bench-vsmp run it; docs/vsmp.md "What the dispatcher costs").
#
#   tools/bench-vsmp.sh [--base REV] [--runs N] [--sched o1,goodness] [--cpus 2,4,8]
#                       [--workloads hackbench,tbench] [--timeout S] [--out DIR]
#
# The fixed set: o1 and goodness, on 2, 4 and 8 logical CPUs, each with
#   hackbench  bench=hackbench groups=20 loops=100     (process mode, sockets: seed 000's)
#   tbench     bench=tbench clients=32 load_ops=2000 sock_model=2.4.18 (seed 003's, shorter)
# Each boot runs once on the baseline's kernel and once on this tree's,
# one right after the other (the order alternates from one boot to the
# next), --runs times.  The baseline (--base, default main) is exported
# with git archive and built in its own directory
# (build/bench-vsmp/base-<commit>/); this tree is built as make builds it.
#
# Per boot it prints:
#   vcpu_s       virtual CPU-seconds: the logical CPUs' clocks summed (each
#                CPU's busy_ms + idle_ms, schedstat), the boot included
#   host/vcpu_s  host CPU seconds (QEMU's user + system, /usr/bin/time) per
#                virtual CPU-second
#   disp/vcpu_s  dispatches (vsmpstat) per virtual CPU-second
#   share        the dispatcher's share of the physical instructions:
#                1 - charged / physical_us, charged = busy time less lock
#                waits and spin-wait steps (time that passes without
#                instructions); the idle loop's few instructions count as
#                the dispatcher's.  An estimate, the same for both builds.
#   time_s       the workload's own figure (virtual), which a dispatcher
#                change must not move (the two columns should agree)
# and last the geometric mean of new/base over the set.  Host times depend
# on the host and its load (printed at the start and the end): judge the
# ratios, not the seconds.  A boot that fails shows "failed" and is left
# out of the means.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
ME=${BENCH_VSMP_ME:-tools/bench-vsmp.sh}   # schedlab bench-vsmp sets it
die() { echo "$ME: error: $*" >&2; exit 2; }
usage() { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
is_uint() { case "$1" in ''|*[!0-9]*) return 1;; *) return 0;; esac; }

BASE=main RUNS=1 SCHEDS=o1,goodness CPUS=2,4,8 WORKLOADS=hackbench,tbench TIMEOUT=900 OUT=
while [ $# -gt 0 ]; do
    case $1 in
    --base|--runs|--sched|--cpus|--workloads|--timeout|--out)
        [ $# -ge 2 ] || die "$1 needs a value ($ME --help)"
        case $1 in
        --base) BASE=$2 ;; --runs) RUNS=$2 ;; --sched) SCHEDS=$2 ;; --cpus) CPUS=$2 ;;
        --workloads) WORKLOADS=$2 ;; --timeout) TIMEOUT=$2 ;; --out) OUT=$2 ;;
        esac
        shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "$1: unknown argument ($ME --help)" ;;
    esac
    shift
done
is_uint "$RUNS" && [ "$RUNS" -ge 1 ] || die "--runs $RUNS: expected a whole number >= 1"
is_uint "$TIMEOUT" && [ "$TIMEOUT" -ge 1 ] || die "--timeout $TIMEOUT: expected seconds >= 1"
for c in $(echo "$CPUS" | tr , ' '); do
    is_uint "$c" && [ "$c" -ge 2 ] && [ "$c" -le 32 ] || die "--cpus: $c: expected logical CPU counts 2..32"
done
for w in $(echo "$WORKLOADS" | tr , ' '); do
    case $w in hackbench|tbench) ;; *) die "--workloads: $w: expected hackbench or tbench" ;; esac
done
for s in $(echo "$SCHEDS" | tr , ' '); do
    [ -f "$ROOT/sched/$s.c" ] || die "--sched: $s: no sched/$s.c (make list-scheds)"
done
[ -x /usr/bin/time ] || die "/usr/bin/time is not installed (apt-get install time)"
cd "$ROOT" || exit 2
BASE_COMMIT=$(git rev-parse --verify -q "$BASE^{commit}") || die "--base $BASE: not a git revision here"
NEW_COMMIT=$(git rev-parse --short HEAD)
git diff --quiet HEAD -- kernel sched workloads Makefile linker.ld boot 2>/dev/null || NEW_COMMIT="$NEW_COMMIT+changes"
[ -n "$OUT" ] || OUT=$(mktemp -d "${TMPDIR:-/tmp}/bench-vsmp.XXXXXX")
mkdir -p "$OUT" || die "--out $OUT: cannot create it"

workload_cmdline() {
    case $1 in
    hackbench) echo "bench=hackbench groups=20 loops=100" ;;
    tbench) echo "bench=tbench clients=32 load_ops=2000 sock_model=2.4.18" ;;
    esac
}

# ---- builds
BASE_DIR="$ROOT/build/bench-vsmp/base-$(echo "$BASE_COMMIT" | cut -c1-12)"
if [ ! -f "$BASE_DIR/Makefile" ]; then
    rm -rf "$BASE_DIR" && mkdir -p "$BASE_DIR" || die "cannot create $BASE_DIR"
    git archive "$BASE_COMMIT" | tar -x -C "$BASE_DIR" || die "git archive $BASE_COMMIT failed"
fi
for s in $(echo "$SCHEDS" | tr , ' '); do
    echo "# building $s: baseline $BASE ($(echo "$BASE_COMMIT" | cut -c1-7)) and this tree ($NEW_COMMIT)" >&2
    make -s -C "$BASE_DIR" SCHED="$s" kernel >"$OUT/build-base-$s.log" 2>&1 ||
        { tail -20 "$OUT/build-base-$s.log" >&2; die "the baseline's build of $s failed ($OUT/build-base-$s.log)"; }
    make -s SCHED="$s" kernel >"$OUT/build-new-$s.log" 2>&1 ||
        { tail -20 "$OUT/build-new-$s.log" >&2; die "this tree's build of $s failed ($OUT/build-new-$s.log)"; }
done

# ---- one boot: writes $OUT/<tag>.out (console) and <tag>.time ("user sys")
boot() { # tag kernel cpus cmdline
    /usr/bin/time -f '%U %S' -o "$OUT/$1.time" \
        tools/qemu-run.sh --kernel "$2" --smp "$3" --accel vsmp --cmdline "$4" --timeout "$TIMEOUT" \
        >"$OUT/$1.out" 2>"$OUT/$1.err"
    echo $? >"$OUT/$1.rc"
}

# ---- what a boot cost: "vcpu_s host_s host_per dispatches_per share time_s" or "failed"
measure() { # tag
    [ "$(cat "$OUT/$1.rc")" = 0 ] && grep -q '^vsmpstat physical_us=' "$OUT/$1.out" || { echo failed; return; }
    awk -v timefile="$OUT/$1.time" '
    function val(k,   i) { for (i = 1; i <= NF; i++) if (index($i, k "=") == 1) return substr($i, length(k) + 2); return "" }
    /^schedstat cpu=/ { vcpu_ms += val("busy_ms") + val("idle_ms"); busy_ms += val("busy_ms"); wait_us += val("lock_wait_us") }
    /^vsmpstat cpu=/ { disp += val("dispatches"); spin_us += val("spin_us") }
    /^vsmpstat physical_us=/ { phys_us = val("physical_us") }
    /^result / && time_s == "" { time_s = val("time_s") }
    END {
        getline line < timefile; split(line, t, " "); host = t[1] + t[2]
        if (vcpu_ms <= 0 || phys_us <= 0) { print "failed"; exit }
        vcpu = vcpu_ms / 1000
        charged = busy_ms * 1000 - wait_us - spin_us
        printf "%.3f %.2f %.2f %.0f %.3f %s\n", vcpu, host, host / vcpu, disp / vcpu, 1 - charged / phys_us, time_s == "" ? "-" : time_s
    }' "$OUT/$1.out"
}

{
    echo "# bench-vsmp: baseline $BASE ($(git rev-parse --short "$BASE_COMMIT")) against this tree ($NEW_COMMIT), runs=$RUNS"
    echo "# host: $(nproc) cores, load average at the start $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC')"
} | tee "$OUT/report"
printf '%-28s | %-13s | %-11s | %-20s | %-17s | %-11s | %s\n' "boot" "vcpu_s b new" "host_s b new" \
    "host_s/vcpu_s b new" "disp/vcpu_s b new" "share b new" "time_s b new" | tee -a "$OUT/report"
n=0
: >"$OUT/ratios"
for w in $(echo "$WORKLOADS" | tr , ' '); do
    cmd=$(workload_cmdline "$w")
    for s in $(echo "$SCHEDS" | tr , ' '); do
        for c in $(echo "$CPUS" | tr , ' '); do
            r=1
            while [ "$r" -le "$RUNS" ]; do
                tag="$s-$c-$w-$r"
                if [ $((n % 2)) = 0 ]; then
                    boot "$tag-base" "$BASE_DIR/build/$s/kernel.elf" "$c" "$cmd"
                    boot "$tag-new" "build/$s/kernel.elf" "$c" "$cmd"
                else
                    boot "$tag-new" "build/$s/kernel.elf" "$c" "$cmd"
                    boot "$tag-base" "$BASE_DIR/build/$s/kernel.elf" "$c" "$cmd"
                fi
                n=$((n + 1))
                b=$(measure "$tag-base") x=$(measure "$tag-new")
                if [ "$b" = failed ] || [ "$x" = failed ]; then
                    printf '%-34s base: %s, new: %s (%s)\n' "$s vsmp=$c $w #$r" "$b" "$x" "$OUT/$tag-*.out" | tee -a "$OUT/report"
                else
                    # shellcheck disable=SC2086
                    set -- $b $x
                    printf '%-28s | %6s %6s | %5s %5s | %5s %5s x%-5.2f | %7s %7s | %5s %5s | %s %s\n' \
                        "$s vsmp=$c $w #$r" "$1" "$7" "$2" "$8" "$3" "$9" "$(echo "$9 $3" | awk '{ print $1 / $2 }')" \
                        "$4" "${10}" "$5" "${11}" "$6" "${12}" | tee -a "$OUT/report"
                    echo "$3 $9 $4 ${10}" >>"$OUT/ratios"
                fi
                r=$((r + 1))
            done
        done
    done
done
awk '{ n++; h += log($2 / $1); d += log($4 / $3) }
     END { if (n) printf "# geometric mean over %d boots, new/base: host_s/vcpu_s x%.3f, dispatches/vcpu_s x%.3f\n", n, exp(h / n), exp(d / n) }' \
    "$OUT/ratios" | tee -a "$OUT/report"
echo "# load average at the end $(cut -d' ' -f1-3 /proc/loadavg); consoles and times in $OUT" | tee -a "$OUT/report"
