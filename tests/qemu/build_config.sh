# Build settings are part of what a kernel is (Kbuild's idea): every setting
# that changes the code picks its own build directory and is recorded in
# BUILD/kernel.flags, on which every object depends.
#   - make SCHED=<default> HZ=100 after a default build gives a kernel that
#     says hz=100 (it did not rebuild at all before), and the default one
#     still says hz=1000;
#   - LOCK=ticket gives lock=ticket, and bad values are refused;
#   - a change of CFLAGS_EXTRA rebuilds the objects (the record changes);
#   - tools/schedlab run --hz builds its own configuration and writes the
#     exact flags into meta.txt.
# Each configuration is a full build of the kernel (about 13 s of CPU), so
# HZ=100, LOCK=ticket and CFLAGS_EXTRA are tested in one configuration: each
# must pick the directory on its own (print-build with and without it) and
# reach the kernel (its boot line, kernel.flags).  Two full builds (this one
# and schedlab's --hz 250), with every core (make -j), where there were four.
. "$(dirname "$0")/../lib.sh"
plan 22

S=$DEFAULT_SCHED
mk() { ( flock 9; make -s -j"$(nproc 2>/dev/null || echo 1)" -C "$ROOT" SCHED="$S" "$@" ) 9>"$ROOT/build/.lock"; }
HZ100=HZ=100 TICKET=LOCK=ticket CFX=CFLAGS_EXTRA=-DCONFIG_TEST_A=1

mk kernel >"$TMP/cfg.log" 2>&1
dir100=$ROOT/$(mk $HZ100 $TICKET $CFX print-build)
check "config-hz100-own-dir" [ "$dir100" != "$ROOT/build/$S" -a "$dir100" != "$ROOT/$(mk $TICKET $CFX print-build)" ]
mk $HZ100 $TICKET $CFX kernel >>"$TMP/cfg.log" 2>&1
OUT="$TMP/cfg.out"
"$ROOT/tools/qemu-run.sh" --kernel "$dir100/kernel.elf" --smp 1 --cmdline bench=boot --timeout "$(boot_limit 120)" >"$OUT" 2>/dev/null; RC=$?
expect "config-hz100-boots-with-hz100" "^boot: cpus=1 sched=$S hz=100 "
check "config-hz100-flags-recorded" grep -q -- '-DHZ=100 ' "$dir100/kernel.flags"
"$ROOT/tools/qemu-run.sh" --kernel "$ROOT/build/$S/kernel.elf" --smp 1 --cmdline bench=boot --timeout "$(boot_limit 120)" >"$OUT" 2>/dev/null; RC=$?
expect "config-default-still-hz1000" "^boot: cpus=1 sched=$S hz=1000 .* lock=tas( |$)"

"$ROOT/tools/qemu-run.sh" --kernel "$dir100/kernel.elf" --smp 2 --cmdline bench=boot --timeout "$(boot_limit 120)" \
    >"$OUT" 2>/dev/null; RC=$?
expect "config-ticket-lock" "^boot: cpus=2 sched=$S .* lock=ticket( |$)"
for bad in LOCK=mcs HZ=50 HZ=fast SCHED=nosuch; do
    mk "$bad" kernel >"$OUT" 2>&1; RC=$?
    check "config-bad-$bad-exit2" [ "$RC" = 2 ]
    expect "config-bad-$bad-message" "^error: ${bad%%=*}="
done

# CFLAGS_EXTRA: a new record rebuilds every object of that configuration.
xdir=$dir100
check "config-cflags-own-dir" [ -f "$xdir/kernel.elf" -a "$xdir" != "$ROOT/$(mk $HZ100 $TICKET print-build)" ]
check "config-cflags-recorded" grep -q -- '-DCONFIG_TEST_A=1' "$xdir/kernel.flags"
check "config-rebuild-is-noop" [ -z "$(mk $HZ100 $TICKET $CFX kernel 2>&1)" ]
rm -rf "$xdir"

# schedlab run --hz: its own build, the flags in meta.txt, the kernel says so.
R="$TMP/cfg-run"
MAKEFLAGS=-j$(nproc 2>/dev/null || echo 1) "$ROOT/tools/schedlab" run --sched "$S" --bench boot --hz 250 --out "$R" >"$OUT" 2>&1; RC=$?
check "config-schedlab-hz-exit0" [ "$RC" = 0 ]
check "config-schedlab-meta-build" grep -q '^build: HZ=250 LOCK=tas' "$R/meta.txt"
check "config-schedlab-meta-flags" grep -q "^kernel_flags_$S: .*-DHZ=250 " "$R/meta.txt"
check "config-schedlab-kernel-hz250" grep -q ' hz=250 ' "$R"/logs/*.log
"$ROOT/tools/schedlab" run --sched "$S" --bench boot --lock mcs --out "$R-bad" >"$OUT" 2>&1; RC=$?
check "config-schedlab-bad-lock-exit2" [ "$RC" = 2 ]
expect "config-schedlab-bad-lock-message" '^schedlab( [a-z-]+)?: error: --lock mcs: expected tas or ticket'
rm -rf "$R" "$R-bad"
