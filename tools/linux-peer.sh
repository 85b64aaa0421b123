#!/bin/sh
# The real kernel beside ours: Debian 12's Linux 6.1 booted under the same
# QEMU, running rt-tests hackbench (Rusty Russell's hackbench, as packaged)
# and perf bench sched pipe (Ingo Molnar's pipe-test), printed in the
# schedlab kernel's own line format so that schedlab reads them:
#
#   boot: cpus=2 sched=linux-6.1 kernel=6.1.0-28-cloud-amd64 accel=tcg mem_mib=2048
#   result bench=hackbench sched=linux-6.1 cpus=2 run=0 groups=10 loops=100 mode=process ipc=pipe time_s=1.172 status=ok
#   result bench=pipe sched=linux-6.1 cpus=2 run=0 loops=20000 usec_per_op=85.6 status=ok
#   done: exit=0
#
# usage: tools/linux-peer.sh [--smp N] [--groups LIST] [--loops L] [--ipc pipe|socket] [--mode process|thread]
#                            [--pipe-loops L] [--runs R] [--mem MiB] [--accel tcg|kvm|icount] [--timeout S] [--cache DIR]
#
# The first run fetches Debian's packages with apt-get download (the newest
# linux-image-6.1.0-*-cloud-amd64, busybox-static, rt-tests, linux-perf: no
# network beyond the Debian archive) into the cache (build/linux-peer/) and
# builds an initramfs from them and from this host's shared libraries, so
# the host must be Debian 12 like the packages; delete the cache to rebuild.
# Under TCG Linux boots in 20-60 s; measure it interleaved with our boots
# (docs/workloads.md#measurements): the host's speed drifts.
#
# Exit: 0 every run ok, 1 a run failed or nothing was measured, 2 usage
# error, 6 QEMU or the packages could not be had, 124 timeout.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
ME=tools/linux-peer.sh
SMP=2 GROUPS_= LOOPS=100 IPC=pipe MODE=process PIPE_LOOPS=0 RUNS=1 MEM=2048 ACCEL=tcg TIMEOUT=900
CACHE="$ROOT/build/linux-peer"

usage() {
    sed -n '/^# usage:/,/^# *$/p' "$0" | sed 's/^# \{0,1\}//'
    cat <<'EOF'
  --smp N          vCPUs                                               [2]
  --groups LIST    hackbench group counts, comma separated (none: no hackbench)
  --loops L        hackbench -l: messages per sender                   [100]
  --ipc pipe|socket, --mode process|thread
                   hackbench -p (pipes) or socket pairs; -T (threads)   [pipe, process]
  --pipe-loops L   perf bench sched pipe -l L (0: none)                 [0]
  --runs R         repeat every measurement R times in the one boot     [1]
  --mem MiB, --accel tcg|kvm|icount, --timeout S                              [2048, tcg, 900]
  --cache DIR      where the packages and the initramfs live            [build/linux-peer]
EOF
}
die() { echo "error: $*" >&2; exit "${2:-1}"; }
usage_error() { echo "error: $*" >&2; echo "usage: $ME [--smp N] [--groups LIST] [--pipe-loops L] ... ($ME --help)" >&2; exit 2; }
is_uint() { case "$1" in ''|*[!0-9]*) return 1 ;; *) return 0 ;; esac; }

while [ $# -gt 0 ]; do
    case "$1" in
    --*=*) opt=${1%%=*}; val=${1#*=}; shift; set -- "$opt" "$val" "$@"; continue ;;
    -h|--help) usage; exit 0 ;;
    esac
    [ $# -ge 2 ] || usage_error "$1 needs a value"
    case "$1" in
    --smp) SMP=$2 ;;
    --groups) GROUPS_=$2 ;;
    --loops) LOOPS=$2 ;;
    --ipc) IPC=$2 ;;
    --mode) MODE=$2 ;;
    --pipe-loops) PIPE_LOOPS=$2 ;;
    --runs) RUNS=$2 ;;
    --mem) MEM=$2 ;;
    --accel) ACCEL=$2 ;;
    --timeout) TIMEOUT=$2 ;;
    --cache) CACHE=$2 ;;
    *) usage_error "unknown flag '$1'" ;;
    esac
    shift 2
done
is_uint "$SMP" && [ "$SMP" -ge 1 ] && [ "$SMP" -le 32 ] || usage_error "--smp $SMP: expected 1..32"
case "$GROUPS_" in ''|*[!0-9,]*|,*|*,|*,,*) [ -z "$GROUPS_" ] || usage_error "--groups $GROUPS_: expected a comma list of numbers" ;; esac
for g in $(echo "$GROUPS_" | tr , ' '); do [ "$g" -ge 1 ] || usage_error "--groups: $g groups"; done
is_uint "$LOOPS" && [ "$LOOPS" -ge 1 ] || usage_error "--loops $LOOPS: expected a number >= 1"
case "$IPC" in pipe|socket) ;; *) usage_error "--ipc $IPC: expected pipe or socket" ;; esac
case "$MODE" in process|thread) ;; *) usage_error "--mode $MODE: expected process or thread" ;; esac
is_uint "$PIPE_LOOPS" || usage_error "--pipe-loops $PIPE_LOOPS: expected a number"
is_uint "$RUNS" && [ "$RUNS" -ge 1 ] && [ "$RUNS" -le 1000 ] || usage_error "--runs $RUNS: expected 1..1000"
is_uint "$MEM" && [ "$MEM" -ge 256 ] || usage_error "--mem $MEM: expected MiB >= 256"
is_uint "$TIMEOUT" && [ "$TIMEOUT" -ge 1 ] || usage_error "--timeout $TIMEOUT: expected seconds >= 1"
# icount: the same -icount shift=0,sleep=off as tools/qemu-run.sh (one guest nanosecond per
# instruction), so a time the guest prints is its instruction count: the cost model's
# calibration (docs/reproduce.md).  One vCPU only (QEMU's icount starves halted vCPUs).
case "$ACCEL" in tcg) ACCEL_ARGS="-accel tcg,thread=multi" ;; kvm) ACCEL_ARGS="-accel kvm -cpu host" ;;
icount) [ "$SMP" = 1 ] || usage_error "--accel icount needs --smp 1"; ACCEL_ARGS="-accel tcg,thread=single -icount shift=0,sleep=off -cpu max" ;;
*) usage_error "--accel $ACCEL: expected tcg, kvm or icount" ;; esac
[ -n "$GROUPS_" ] || [ "$PIPE_LOOPS" -gt 0 ] || usage_error "nothing to measure: give --groups and/or --pipe-loops"
command -v qemu-system-x86_64 >/dev/null 2>&1 || die "qemu-system-x86_64 not found (make deps)" 6
for t in cpio gzip dpkg-deb apt-get ldd; do
    command -v "$t" >/dev/null 2>&1 || die "$t not found (make deps; this needs a Debian 12 host)" 6
done

# ---------------------------------------------------------------- the initramfs (once)

fetch() {   # the four packages into $CACHE/debs
    mkdir -p "$CACHE/debs" || die "cannot create $CACHE/debs" 6
    ls "$CACHE"/debs/linux-image-*-cloud-amd64_*.deb >/dev/null 2>&1 && ls "$CACHE"/debs/linux-perf_*.deb >/dev/null 2>&1 &&
        ls "$CACHE"/debs/rt-tests_*.deb >/dev/null 2>&1 && ls "$CACHE"/debs/busybox-static_*.deb >/dev/null 2>&1 && return 0
    if [ -z "$(apt-cache search --names-only '^rt-tests$' 2>/dev/null)" ]; then
        [ "$(id -u)" = 0 ] || die "apt's package lists are empty: run apt-get update as root first" 6
        apt-get update -qq >/dev/null 2>&1 || die "apt-get update failed (no access to the Debian archive?)" 6
    fi
    img=$(apt-cache search --names-only '^linux-image-6[.]1[.]0-[0-9]+-cloud-amd64$' | cut -d' ' -f1 | sort -V | tail -n 1)
    [ -n "$img" ] || die "no linux-image-6.1.0-*-cloud-amd64 package in apt's lists (a Debian 12 archive is needed)" 6
    echo "linux-peer: fetching $img busybox-static rt-tests linux-perf into $CACHE/debs" >&2
    (cd "$CACHE/debs" && apt-get download "$img" busybox-static rt-tests linux-perf >../download.log 2>&1) ||
        { tail -5 "$CACHE/download.log" >&2; die "apt-get download failed (log: $CACHE/download.log)" 6; }
}

# copy_with_libs FILE DEST: FILE into the initramfs at DEST, with the shared libraries ldd names
copy_with_libs() {
    mkdir -p "$CACHE/initrd$(dirname "$2")" && cp -L "$1" "$CACHE/initrd$2" || die "cannot copy $1" 6
    ldd "$1" 2>/dev/null | awk '/=> \//{print $3} /^[ \t]*\/lib/{print $1}' | while read -r lib; do
        mkdir -p "$CACHE/initrd$(dirname "$lib")" && cp -L "$lib" "$CACHE/initrd$lib" || exit 1
    done || die "cannot copy the libraries of $1" 6
}

build_initrd() {
    [ -f "$CACHE/initrd.gz" ] && [ -f "$CACHE/vmlinuz" ] && return 0
    fetch
    rm -rf "$CACHE/root" "$CACHE/initrd"
    for deb in "$CACHE"/debs/*.deb; do
        dpkg-deb -x "$deb" "$CACHE/root" || die "cannot unpack $deb" 6
    done
    kernel=$(ls "$CACHE"/root/boot/vmlinuz-* 2>/dev/null | head -1)
    [ -n "$kernel" ] || die "no vmlinuz in the linux-image package" 6
    mkdir -p "$CACHE/initrd/bin" "$CACHE/initrd/proc" "$CACHE/initrd/sys" "$CACHE/initrd/dev" "$CACHE/initrd/tmp"
    cp "$CACHE/root/bin/busybox" "$CACHE/initrd/bin/" || die "no busybox in busybox-static" 6
    for l in sh mount poweroff cat grep sed tr seq; do ln -sf busybox "$CACHE/initrd/bin/$l"; done
    copy_with_libs "$CACHE/root/usr/bin/hackbench" /usr/bin/hackbench
    perf=$(ls "$CACHE"/root/usr/bin/perf_* "$CACHE"/root/usr/bin/perf 2>/dev/null | head -1)
    [ -n "$perf" ] || die "no perf in linux-perf" 6
    copy_with_libs "$perf" /usr/bin/perf
    cat >"$CACHE/initrd/init" <<'INIT'
#!/bin/sh
# schedlab's linux-peer: the measurements, in schedlab's line format, then power off.
mount -t proc proc /proc
mount -t tmpfs tmpfs /tmp
G="" L=100 I=pipe M=process P=0 R=1 A=unknown MB=unknown
for a in $(cat /proc/cmdline); do
    case $a in hb=*) G=${a#hb=} ;; loops=*) L=${a#loops=} ;; ipc=*) I=${a#ipc=} ;; mode=*) M=${a#mode=} ;;
    pipe=*) P=${a#pipe=} ;; runs=*) R=${a#runs=} ;; peer_accel=*) A=${a#peer_accel=} ;; peer_mem=*) MB=${a#peer_mem=} ;; esac
done
N=$(grep -c ^processor /proc/cpuinfo)
S=linux-$(cut -d' ' -f3 /proc/version | cut -d. -f1-2)
echo "boot: cpus=$N sched=$S kernel=$(cut -d' ' -f3 /proc/version) accel=$A mem_mib=$MB"
FLAGS=""
[ "$I" = pipe ] && FLAGS="$FLAGS -p"
[ "$M" = thread ] && FLAGS="$FLAGS -T"
bad=0
for r in $(seq 0 $((R - 1))); do
    for g in $(echo "$G" | tr , ' '); do
        t=$(/usr/bin/hackbench $FLAGS -g "$g" -l "$L" 2>&1 | sed -n 's/^Time: *//p')
        if [ -n "$t" ]; then st="time_s=$t status=ok"; else st="status=error reason=no_time_line"; bad=1; fi
        echo "result bench=hackbench sched=$S cpus=$N run=$r groups=$g loops=$L mode=$M ipc=$I $st"
    done
    if [ "$P" != 0 ]; then
        u=$(/usr/bin/perf bench sched pipe -l "$P" 2>&1 | sed -n 's/^ *\([0-9.]*\) usecs.op.*/\1/p')
        if [ -n "$u" ]; then st="usec_per_op=$u status=ok"; else st="status=error reason=no_usecs_line"; bad=1; fi
        echo "result bench=pipe sched=$S cpus=$N run=$r loops=$P $st"
    fi
done
echo "done: exit=$bad"
poweroff -f
INIT
    chmod +x "$CACHE/initrd/init"
    (cd "$CACHE/initrd" && find . | cpio -o -H newc 2>/dev/null | gzip -1 >"../initrd.gz.part") &&
        mv "$CACHE/initrd.gz.part" "$CACHE/initrd.gz" || die "cannot build $CACHE/initrd.gz" 6
    cp "$kernel" "$CACHE/vmlinuz" || die "cannot copy $kernel" 6
}

build_initrd

out=$(mktemp "${TMPDIR:-/tmp}/linux-peer.XXXXXX") || die "mktemp failed" 6
trap 'rm -f "$out" "$out.err"' EXIT
echo "linux-peer: booting $(basename "$(ls "$CACHE"/root/boot/vmlinuz-* | head -1)") on $SMP vCPU(s) ($ACCEL)" >&2
# $ACCEL_ARGS is split on purpose: a fixed list of words.
timeout -k 5 "$TIMEOUT" qemu-system-x86_64 $ACCEL_ARGS -smp "$SMP" -m "$MEM" -kernel "$CACHE/vmlinuz" \
    -initrd "$CACHE/initrd.gz" -append "console=ttyS0 quiet panic=-1 hb=$GROUPS_ loops=$LOOPS ipc=$IPC mode=$MODE pipe=$PIPE_LOOPS runs=$RUNS peer_accel=$ACCEL peer_mem=$MEM" \
    -display none -serial stdio -monitor none -no-reboot -nodefaults </dev/null >"$out" 2>"$out.err"
rc=$?
tr -d '\r' <"$out" | grep -a -E '^(boot: |result |done: )'
case $rc in
124|137) echo "error: Linux did not finish within $TIMEOUT s (--timeout)" >&2; exit 124 ;;
0) ;;
*) sed 's/^/linux-peer: qemu: /' "$out.err" | tail -3 >&2; echo "error: QEMU exited $rc" >&2; exit 6 ;;
esac
grep -a -q '^result .*status=ok' "$out" || { echo "error: no measurement came back (serial output: $(tr -d '\r' <"$out" | tail -3 | tr '\n' ' '))" >&2; exit 1; }
grep -a -q '^done: exit=0' "$out" || exit 1
exit 0
