#!/bin/sh
# vsmp-insn-profile: where a boot's guest instructions go, by kernel
# function, counted exactly (a QEMU plugin counts every translation block's
# executions: tools/insn-profile-plugin.c).  Under vsmp and icount the
# counts are deterministic, and the boot prints the figures it prints
# without the plugin.
#
#   tools/vsmp-insn-profile.sh --kernel ELF [--smp N] [--accel vsmp|icount]
#                              [--cmdline '...'] [--mem MB] [--top K] [--out FILE]
#
# Prints the total instructions and block executions, then the K functions
# (default 30) with the most instructions: share, instructions, block
# executions, name ("?": outside the kernel's text, the firmware).
# --out keeps the raw counts ("vaddr instructions executions" per
# translation).  --mem: the guest's memory (tools/qemu-run.sh's default
# unless given; the figures depend on it, so give what the boot being
# profiled had).  The boot's console goes to stderr.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "vsmp-insn-profile: error: $*" >&2; exit 2; }
KERNEL= SMP=2 ACCEL=vsmp CMDLINE= TOP=30 OUT= MEM=
while [ $# -gt 0 ]; do
    case $1 in
    --kernel|--smp|--accel|--cmdline|--top|--out|--mem)
        [ $# -ge 2 ] || die "$1 needs a value"
        case $1 in
        --kernel) KERNEL=$2 ;; --smp) SMP=$2 ;; --accel) ACCEL=$2 ;;
        --cmdline) CMDLINE=$2 ;; --top) TOP=$2 ;; --out) OUT=$2 ;; --mem) MEM=$2 ;;
        esac
        shift ;;
    -h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) die "$1: unknown argument (--help)" ;;
    esac
    shift
done
[ -n "$KERNEL" ] || die "--kernel ELF is needed"
[ -f "$KERNEL" ] || die "--kernel $KERNEL: no such file"
case $ACCEL in vsmp|icount) ;; *) die "--accel $ACCEL: expected vsmp or icount (deterministic counts)" ;; esac
case $TOP in ''|*[!0-9]*) die "--top $TOP: expected a whole number" ;; esac
case $MEM in *[!0-9]*) die "--mem $MEM: expected megabytes" ;; esac
QEMU=$(command -v qemu-system-i386) || die "qemu-system-i386 not found (make deps)"
# Always under /tmp, and the kernel booted from a copy there: the kernel's
# path is the first word of its command line, and the boot's instructions
# that skip it grow with its length, so a count made in /work/main and one
# made in a clone elsewhere differed by about 70 instructions a boot.
TMP=$(mktemp -d /tmp/insn-profile.XXXXXX) || exit 2
trap 'rm -rf "$TMP"' EXIT
cp "$KERNEL" "$TMP/kernel.elf" || die "cannot copy $KERNEL into $TMP"
cc -shared -fPIC -O2 -o "$TMP/plugin.so" "$ROOT/tools/insn-profile-plugin.c" -lpthread ||
    die "cannot build tools/insn-profile-plugin.c"
mkdir "$TMP/bin"
printf '#!/bin/sh\nexec "%s" -plugin "%s" "$@"\n' "$QEMU" "$TMP/plugin.so" >"$TMP/bin/qemu-system-i386"
chmod +x "$TMP/bin/qemu-system-i386"
[ -n "$OUT" ] || OUT=$TMP/counts
INSN_PROFILE_OUT=$OUT PATH="$TMP/bin:$PATH" \
    "$ROOT/tools/qemu-run.sh" --kernel "$TMP/kernel.elf" --smp "$SMP" --accel "$ACCEL" --cmdline "$CMDLINE" \
    ${MEM:+--mem "$MEM"} >&2
rc=$?
[ -s "$OUT" ] || die "the boot wrote no counts (qemu-run.sh exit $rc)"
# Each block to the function that holds its first address (nm -n order).
nm -n "$KERNEL" | awk '$2 ~ /^[tTwW]$/ { print "S", $1, $3 }' | cat - "$OUT" | awk '
function hex(s,   i, n, c) { n = 0; s = tolower(s)
    for (i = 1; i <= length(s); i++) { c = index("0123456789abcdef", substr(s, i, 1)) - 1; n = n * 16 + c }
    return n }
BEGIN { ns = 0 }
$1 == "S" { addr[ns] = hex($2); name[ns] = $3; ns++; next }
{ a = hex($1); lo = 0; hi = ns - 1; f = "?"
  if (ns && a >= addr[0]) { while (lo < hi) { mid = int((lo + hi + 1) / 2); if (addr[mid] <= a) lo = mid; else hi = mid - 1 }; f = name[lo] }
  insns[f] += $2 * $3; execs[f] += $3; total += $2 * $3; blocks += $3 }
END { printf "%.0f %.0f =total\n", total, blocks; for (f in insns) printf "%.0f %.0f %s\n", insns[f], execs[f], f }' |
    sort -k1,1nr -k3,3 | awk -v top="$TOP" '
$3 == "=total" { printf "total %s instructions, %s block executions\n", $1, $2; total = $1; next }
n++ < top { printf "%6.2f%% %13s %11s  %s\n", 100 * $1 / total, $1, $2, $3 }'
exit 0
