#!/bin/sh
# The GRUB menu of `make iso-all`: one ISO with every scheduler's kernel.
#
# usage: tools/grub-menu.sh DEFAULT_SCHED SCHED...   (grub.cfg on stdout)
#
# The menu: one entry per scheduler (the short default suite), a submenu per
# scheduler with a few workloads, and an entry that asks for the scheduler
# and the kernel command line; GRUB waits TIMEOUT seconds (default 10), then
# boots DEFAULT_SCHED's suite.  GRUB talks on the screen and on the serial
# line (a VM with -nographic, or QEMU's -serial stdio) alike.
#
# Another default without rebuilding the ISO: a second disk or USB stick
# (FAT) with a file /schedlab-default.cfg, e.g.
#     set default="rr-more>rr-pipe"
#     set timeout=0
# (entry ids: SCHED-suite, SCHED-more>SCHED-hackbench, -pipe, -cpuhog, -wakeup, edit).
# tools/qemu-run.sh --iso ISO --drive FAT.img attaches such a disk.
set -u
[ $# -ge 2 ] || { echo "usage: $0 DEFAULT_SCHED SCHED..." >&2; exit 2; }
default=$1; shift
case " $* " in *" $default "*) ;; *) echo "error: the default scheduler $default is not among: $*" >&2; exit 2 ;; esac
timeout=${TIMEOUT_MENU:-10}
case "$timeout" in ''|*[!0-9]*) echo "error: TIMEOUT_MENU=$timeout: expected seconds" >&2; exit 2 ;; esac

cat <<EOF
# GRUB menu of build/iso-all/schedlab.iso, written by tools/grub-menu.sh (make iso-all).
serial --unit=0 --speed=115200
terminal_input console serial
terminal_output console serial
set timeout=$timeout
set default=$default-suite
# A disk with /schedlab-default.cfg picks another default (and timeout).
insmod part_msdos
insmod fat
search --no-floppy --set=seldev --file /schedlab-default.cfg
if [ -n "\$seldev" ]; then
    source (\$seldev)/schedlab-default.cfg
fi

EOF
for s in "$@"; do
    note=""
    [ "$s" = "$default" ] && note=" (default)"
    cat <<EOF
menuentry "$s: the short suite (hackbench, pipe, lat_ctx, tbench)$note" --id $s-suite {
    multiboot /boot/$s.elf
    boot
}
EOF
done
echo
for s in "$@"; do
    cat <<EOF
submenu "$s: pick a workload" --id $s-more {
    menuentry "$s: hackbench, 10 and 20 groups" --id $s-hackbench {
        multiboot /boot/$s.elf bench=hackbench groups=10,20 loops=50
        boot
    }
    menuentry "$s: pipe ping-pong (perf bench sched pipe), 20000 round trips" --id $s-pipe {
        multiboot /boot/$s.elf bench=pipe loops=20000
        boot
    }
    menuentry "$s: two CPU hogs at nice 0 and 5 on one CPU" --id $s-cpuhog {
        multiboot /boot/$s.elf bench=cpuhog tasks=2 nice=0,5 seconds=3 bind=0
        boot
    }
    menuentry "$s: wake-up latency with every CPU busy" --id $s-wakeup {
        multiboot /boot/$s.elf bench=wakeup seconds=3
        boot
    }
}
EOF
done
cat <<EOF

menuentry "Type the scheduler and the kernel command line" --id edit {
    echo "schedulers: $*"
    echo -n "scheduler [$default]: "
    read sched
    if [ -z "\$sched" ]; then set sched=$default; fi
    echo "kernel command line, key=value words (docs/workloads.md), e.g. bench=hackbench groups=20"
    echo -n "> "
    read args
    multiboot /boot/\$sched.elf \$args
    boot
}
EOF
