#!/bin/sh
# The host model (model=host, docs/caches.md "The host model"): the memory
# model runs inside QEMU as a TCG plugin on the plain kernel
# (kernel/machine/host/hostmodel.c).  Checked on o1's plain kernel under
# vsmp (deterministic): with every latency 0 the guest prints the plain
# boot's lines, bit for bit (the model costs the guest nothing); with the
# preset's latencies both logical CPUs' caches move lines between them
# (cache-to-cache transfers, invalidations), the stalls reach the guest's
# clock (a longer virtual time, and the ticks that clock is owed); two
# boots print the same lines; a model made slower on the host (burn=)
# prints the same lines (the model does no guest instruction); bad
# combinations are refused.  On kernels of make CACHES=host the era's
# layouts are the in-guest model's: goodness's fields are seen on 2.4's
# one goodness line (the plugin moves accesses onto it and the filter
# answers for it; none with machine_layout=flat), o1's
# tasks come from 2.6.0's task slab with a thread_info at the stack's base.  Where QEMU is not 7.2 or has no TCG plugins,
# every check is a SKIP line.  Counts and virtual time only: no timed
# assertion.
. "$(dirname "$0")/../lib.sh"
plan 21
S=o1
NAMES="plain-lines-kept memstat-lines c2c-both-cpus invalidations stall-reaches-clock ticks-owed deterministic burn-invariant
  hoststat-started needs-machine needs-vsmp bad-model bad-model-exit lat0-no-stall skips-dispatcher plugin-build lat0-exit0
  goodness-line goodness-line-flat-off goodness-line-fast layout26"

ver=$(qemu-system-i386 --version 2>/dev/null | head -1)
why=
case "$ver" in "QEMU emulator version 7.2"*) ;; *) why="the host model reads QEMU 7.2's internals; this QEMU: ${ver:-none}" ;; esac
[ -n "$why" ] || ! qemu-system-i386 -plugin help </dev/null 2>&1 | grep -qi "invalid option\|unsupported\|not compiled" ||
    why="this QEMU has no TCG plugin support"
if [ -n "$why" ]; then
    for n in $NAMES; do
        skip "caches-host-$n" "$why"
    done
    exit 0
fi

( flock 9; make -s -C "$ROOT" hostmodel-plugin >"$TMP/build-hostmodel.log" 2>&1 ) 9>"$ROOT/build/.lock"
check "caches-host-plugin-build" [ -f "$ROOT/build/hostmodel.so" ]

B='bench=hackbench groups=2 loops=10 checks=0'
lines() { grep -E '^(result|schedstat|vsmpstat|chanstat) ' "$1"; }

boot "$S" 2 "$B" 256 120 vsmp
cp "$OUT" "$TMP/host-plain"
boot "$S" 2 "$B machine=piii-xeon-1m machine_lat_pct=0 model=host" 256 120 vsmp
check "caches-host-lat0-exit0" [ "$RC" = 0 ]
lines "$TMP/host-plain" >"$TMP/host-a"; lines "$OUT" >"$TMP/host-b"
check "caches-host-plain-lines-kept" cmp -s "$TMP/host-a" "$TMP/host-b"
check "caches-host-lat0-no-stall" [ "$(grep '^memstat model=host cpu=0 ' "$OUT" | sed 's/.* stall_us=//')" = 0 ]
expect "caches-host-hoststat-started" '^hoststat .* started=1 '
# the dispatcher and the rest of kernel/machine/ are left out (as the in-guest model leaves them)
check "caches-host-skips-dispatcher" [ "$(grep '^hoststat ' "$OUT" | sed 's/.* skipped_range=\([0-9]*\).*/\1/')" -gt 100 ]

boot "$S" 2 "$B machine=piii-xeon-1m model=host" 256 120 vsmp
cp "$OUT" "$TMP/host-model"
expect "caches-host-memstat-lines" '^memstat model=host machine=piii-xeon-1m lat_pct=100 '
c2c() { grep "^memstat model=host cpu=$1 " "$TMP/host-model" | sed 's/.* c2c=\([0-9]*\).*/\1/'; }
check "caches-host-c2c-both-cpus" [ "$(c2c 0)" -gt 0 -a "$(c2c 1)" -gt 0 ]
inv=$(grep "^memstat model=host cpu=0 " "$TMP/host-model" | sed 's/.* invalidations=\([0-9]*\).*/\1/')
check "caches-host-invalidations" [ "${inv:-0}" -gt 0 ]
t_plain=$(field time_s "$(grep '^result bench=hackbench' "$TMP/host-plain")")
t_model=$(field time_s "$(grep '^result bench=hackbench' "$TMP/host-model")")
echo "# caches_host: hackbench 2 CPUs time_s $t_plain plain, $t_model with model=host piii-xeon-1m"
check "caches-host-stall-reaches-clock" awk -v a="$t_plain" -v b="$t_model" 'BEGIN { exit !(b > a * 1.2) }'
# each CPU took the ticks its own clock (stalls included) was owed
owed=$(grep '^schedstat cpu=0 ' "$TMP/host-model" | awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
    END { d = v["ticks"] - v["ticks_expected"]; print (d < 0 ? -d : d) <= 1 }')
check "caches-host-ticks-owed" [ "$owed" = 1 ]

boot "$S" 2 "$B machine=piii-xeon-1m model=host" 256 120 vsmp
grep -v '^Time' "$TMP/host-model" >"$TMP/host-a"; grep -v '^Time' "$OUT" >"$TMP/host-b"
check "caches-host-deterministic" cmp -s "$TMP/host-a" "$TMP/host-b"
export HOSTMODEL_BURN=2000
boot "$S" 2 "$B machine=piii-xeon-1m model=host" 256 120 vsmp
unset HOSTMODEL_BURN
grep -v '^Time\|^hoststat' "$TMP/host-model" >"$TMP/host-a"; grep -v '^Time\|^hoststat' "$OUT" >"$TMP/host-b"
check "caches-host-burn-invariant" cmp -s "$TMP/host-a" "$TMP/host-b"

boot "$S" 2 "$B model=host" 256 60 vsmp
check "caches-host-needs-machine" grep -q '^error: model=host needs machine=PRESET' "$OUT.err"
boot "$S" 2 "$B machine=piii-xeon-1m model=host" 256 60 icount
check "caches-host-needs-vsmp" grep -q '^error: model=host needs --accel vsmp' "$OUT.err"
boot "$S" 2 "$B machine=piii-xeon-1m model=guest" 256 60 vsmp
# (the plain kernel knows no model=: its machine= refusal, as without model=)
expect "caches-host-bad-model" '^error: machine=piii-xeon-1m: needs a kernel built with the memory model'
check "caches-host-bad-model-exit" [ "$RC" = 1 ]

# The era's layouts on make CACHES=host kernels (docs/caches.md, "The host
# model"): goodness's scan fields on 2.4's goodness line (the map the
# kernel builds with CACHES=1's rule, kernel/machine/memhooks.c), o1's
# tasks in 2.6.0's task slab.
hostmodel_kernel() {
    ( flock 9; make -s -j"$(nproc 2>/dev/null || echo 1)" -C "$ROOT" SCHED="$1" CACHES=host kernel \
        >"$TMP/build-$1-hostmodel.log" 2>&1 ) 9>"$ROOT/build/.lock"
}
# hoststat FILE KEY: a field of the plugin's hoststat line; l1_misses FILE: the CPUs' sum
hoststat() { field "$2" "$(grep '^hoststat ' "$1")"; }
l1_misses() { grep '^memstat model=host cpu=' "$1" | proto_field l1_misses | awk '{ s += $1 } END { print s + 0 }'; }
G='bench=hackbench groups=2 loops=10 checks=0 machine=piii-xeon-1m model=host'
if hostmodel_kernel goodness; then
    boot_once goodness-hostmodel 2 "$G" 256 vsmp "$(boot_limit 120)"
    cp "$OUT" "$TMP/host-era"
    boot_once goodness-hostmodel 2 "$G machine_layout=flat" 256 vsmp "$(boot_limit 120)"
    cp "$OUT" "$TMP/host-flat"
    moved=$(hoststat "$TMP/host-era" era_moved)
    echo "# caches_host: goodness 2 CPUs: era_moved=${moved:-none} with 2.4's layout, l1_misses $(l1_misses "$TMP/host-era") (flat: $(l1_misses "$TMP/host-flat"))"
    check "caches-host-goodness-line" [ "$(hoststat "$TMP/host-era" era_line)" = on -a "${moved:-0}" -gt 1000 ]
    check "caches-host-goodness-line-flat-off" [ "$(hoststat "$TMP/host-flat" era_moved)" = 0 ]
    # the moved accesses hit the goodness line in L1 (the filter answers for it, as CACHES=1's era_hit)
    check "caches-host-goodness-line-fast" [ "$(hoststat "$TMP/host-era" era_fast)" -gt 0 ]
else
    fail "caches-host-goodness-line" "make SCHED=goodness CACHES=host failed"; fail "caches-host-goodness-line-flat-off" "(build)"
    fail "caches-host-goodness-line-fast" "(build)"
fi
if hostmodel_kernel o1; then
    boot_once o1-hostmodel 2 "$G" 256 vsmp "$(boot_limit 120)"
    ti=$(hoststat "$OUT" thread_info_at_stack_base) started=$(field tasks_started "$(grep '^result ' "$OUT")")
    echo "# caches_host: o1 2 CPUs 2.6.0's layout: t26_moved=$(hoststat "$OUT" t26_moved) t26_ti_moved=$(hoststat "$OUT" t26_ti_moved) thread_info_at_stack_base=$ti (tasks started: $started)"
    check "caches-host-layout26" [ "$(hoststat "$OUT" t26_moved)" -gt 1000 -a "$(hoststat "$OUT" t26_ti_moved)" -gt 0 -a "${ti:-0}" -gt "${started:-0}" ]
else
    fail "caches-host-layout26" "make SCHED=o1 CACHES=host failed"
fi
