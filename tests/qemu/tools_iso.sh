# make iso-all: one ISO with every scheduler and a GRUB menu.  The menu has
# an entry per scheduler, a submenu of workloads per scheduler, an entry that
# asks for the command line and a timeout to the default; a small FAT disk
# with /schedlab-default.cfg (GRUB's "set default") picks a non-default
# entry, and the ISO boots it.  The kernels are usually built by then (the
# other tests build every scheduler); about 10 s, a minute when they are not.
. "$(dirname "$0")/../lib.sh"

D="$TMP/iso.$$"
mkdir -p "$D"
ISO="$ROOT/build/iso-all/schedlab.iso"
CFG="$ROOT/build/iso-all/iso/boot/grub/grub.cfg"
SCHEDS=$(make -s -C "$ROOT" list-scheds)
set -- $SCHEDS
plan $((1 + 3 * $# + 10))

if ( flock 9; make -s -C "$ROOT" iso-all >"$D/build.log" 2>&1 ) 9>"$ROOT/build/.lock"; then
    pass iso-all-build
else
    fail iso-all-build "make iso-all failed:"; tail -10 "$D/build.log" | sed 's/^/    /'
    rm -rf "$D"
    exit 0
fi
OUT=$CFG RC=0
for s in $SCHEDS; do
    check "iso-all-kernel-$s" [ -s "$ROOT/build/iso-all/iso/boot/$s.elf" ]
    expect "iso-all-entry-$s" "^menuentry \"$s: the short suite.*\" --id $s-suite \\{"
    expect "iso-all-submenu-$s" "^submenu \"$s: pick a workload\" --id $s-more \\{"
done
expect "iso-all-default" "^set default=$DEFAULT_SCHED-suite\$"
expect "iso-all-timeout" '^set timeout=10$'
expect "iso-all-edit-entry" '^menuentry "Type the scheduler and the kernel command line" --id edit \{'
expect "iso-all-edit-reads" '^    read args$'
expect "iso-all-serial" '^terminal_input console serial$'

# A non-default entry, chosen by a second disk: rr's pipe ping-pong in its submenu.
if command -v mformat >/dev/null && command -v mcopy >/dev/null; then
    printf 'set default="rr-more>rr-pipe"\nset timeout=0\n' >"$D/schedlab-default.cfg"
    mformat -i "$D/select.img" -C -f 1440 :: && mcopy -i "$D/select.img" "$D/schedlab-default.cfg" ::/
    OUT="$D/boot.out"
    "$ROOT/tools/qemu-run.sh" --iso "$ISO" --drive "$D/select.img" --smp 1 --timeout 60 >"$OUT" 2>"$OUT.err"
    RC=$?
    tr -d '\r' <"$OUT" >"$OUT.txt" && OUT="$OUT.txt"
    check "iso-all-select-exit0" [ "$RC" = 0 ]
    expect "iso-all-select-menu" "Booting .rr: pipe ping-pong"
    expect "iso-all-select-boot-line" '^boot: cpus=1 sched=rr '
    expect "iso-all-select-workload" '^result bench=pipe sched=rr cpus=1 run=0 loops=20000 .*status=ok'
    expect_not "iso-all-select-no-grub-error" '^error: '
else
    fail iso-all-select-exit0 "mtools (mformat, mcopy) are not installed (tools/deps.sh check)"
    for n in menu boot-line workload no-grub-error; do skip "iso-all-select-$n" "no mtools"; done
fi
rm -rf "$D"
