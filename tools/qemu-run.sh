#!/bin/sh
# Boot a schedlab kernel under QEMU with the serial console on stdout, and turn
# the kernel's exit code (written to QEMU's isa-debug-exit port) into ours.
#
# usage: tools/qemu-run.sh (--kernel ELF [--cmdline 'k=v ...'] | --iso ISO [--drive IMG])
#                          [--smp N] [--mem MiB] [--accel tcg|kvm|icount|vsmp] [--timeout S]
#                          [--pvspin on|off|auto] [--gdb] [--trace-out FILE]
#        tools/qemu-run.sh --check-host-model   (exit 0 where model=host can run, else its error)
#
# --trace-out FILE gives the kernel its trace channel (QEMU's isa-debugcon at
# port 0xe9, written to FILE): with trace=1 on the command line the kernel
# writes its trace buffers there at the end of the run, never on the console
# (docs/tracing.md).
# --drive IMG: a raw disk image as a second disk (read-only: QEMU's snapshot), e.g.
# a FAT image with /schedlab-default.cfg for the menu of make iso-all.
#
# --pvspin (default auto, or $QEMU_RUN_PVSPIN): auto gives the kernel
# pvspin=1 (paravirtual spinlocks, kernel/spinlock.h) when the guest has more
# vCPUs than the host has cores, where the host deschedules lock holders, and
# pvspin=0 otherwise; on and off force it.  A pvspin= already on --cmdline
# wins over auto (and must agree with on/off).  The run: line on stderr says
# what was chosen.  With --iso the command line is baked into the image and
# is left alone.
#
# --accel vsmp (docs/vsmp.md): QEMU runs ONE vCPU under -icount shift=0 and
# the kernel runs --smp N logical CPUs on it, each with its own virtual clock
# (the kernel key vsmp=N, added here; a vsmp= on --cmdline must agree).
# Deterministic, and parallel speed-up is real in virtual time.  pvspin is
# off there (the kernel's vsmp lock waits replace it).
#
# Under --accel tcg the kernel gets cr3=elide unless --cmdline says cr3=
# (QEMU's TLB flush on every CR3 write would dominate: see below), and,
# with 2 or more vCPUs that do not outnumber the host's cores, idle=poll
# unless --cmdline says idle= (TCG's halt and IPI wake-up would dominate).
#
# model=host with machine=PRESET on --cmdline (--accel vsmp): the memory
# model runs in QEMU as a TCG plugin (docs/caches.md, "The host model");
# its memstat lines follow the console.
#
# Exit status: 0 ok, 1 error (bad arguments or a workload error), 2 kernel
# panic, 3 watchdog, 4 out of memory, 5 guest stopped without an exit code
# (triple fault or reset), 6 QEMU itself failed, 124 timeout.
set -u

usage() {
    echo "usage: $0 (--kernel ELF [--cmdline 'k=v ...'] | --iso ISO [--drive IMG]) [--smp N] [--mem MiB] [--accel tcg|kvm|icount|vsmp] [--timeout S] [--pvspin on|off|auto] [--gdb] [--trace-out FILE]" >&2
    echo "       $0 --check-host-model" >&2
    exit 1
}
die() { echo "error: $*" >&2; exit 1; }
# What model=host needs of QEMU (also `--check-host-model`, which schedlab
# reproduce runs before it builds anything): 7.2, whose clock internals the
# plugin reads, with TCG plugins.
host_model_qemu_check() {
    local ver
    ver=$(qemu-system-i386 --version 2>/dev/null | head -1)
    case "$ver" in
    "QEMU emulator version 7.2"*) ;;
    *) die "model=host: the plugin reads QEMU 7.2's clock internals; this is ${ver:-no qemu-system-i386 (make deps)}" ;;
    esac
    qemu-system-i386 -plugin help </dev/null 2>&1 | grep -qi "invalid option\|unsupported\|not compiled" &&
        die "model=host: this QEMU has no TCG plugin support (-plugin)"
    return 0
}
is_uint() { case "$1" in ''|*[!0-9]*) return 1;; *) return 0;; esac; }
# cmdline_value KEY: the value of KEY= on the kernel command line (empty if absent)
cmdline_value() { printf ' %s ' "$CMDLINE" | sed -n "s/.* $1=\([^ ]*\) .*/\1/p"; }

KERNEL= ISO= DRIVE= CMDLINE= SMP=2 MEM=256 ACCEL=tcg TIMEOUT=120 GDB=0 TRACE_OUT= PVSPIN=${QEMU_RUN_PVSPIN:-auto}
while [ $# -gt 0 ]; do
    case "$1" in
    --kernel) KERNEL=${2:-}; shift 2 ;;
    --iso) ISO=${2:-}; shift 2 ;;
    --drive) DRIVE=${2:-}; shift 2 ;;
    --cmdline) CMDLINE=${2:-}; shift 2 ;;
    --smp) SMP=${2:-}; shift 2 ;;
    --mem) MEM=${2:-}; shift 2 ;;
    --accel) ACCEL=${2:-}; shift 2 ;;
    --timeout) TIMEOUT=${2:-}; shift 2 ;;
    --pvspin) PVSPIN=${2:-}; shift 2 ;;
    --gdb) GDB=1; shift ;;
    --check-host-model) host_model_qemu_check; exit 0 ;;
    --trace-out) TRACE_OUT=${2:-}; [ -n "$TRACE_OUT" ] || die "--trace-out needs a file"; shift 2 ;;
    -h|--help) usage ;;
    *) echo "error: unknown option '$1'" >&2; usage ;;
    esac
done
[ -n "$KERNEL$ISO" ] || usage
[ -z "$KERNEL" ] || [ -f "$KERNEL" ] || die "kernel '$KERNEL' not found (run make first)"
[ -z "$ISO" ] || [ -f "$ISO" ] || die "ISO '$ISO' not found (run make iso first)"
[ -z "$DRIVE" ] || [ -f "$DRIVE" ] || die "disk image '$DRIVE' not found"
[ -z "$DRIVE" ] || [ -n "$ISO" ] || die "--drive goes with --iso (GRUB reads it; the kernel has no disk driver)"
is_uint "$SMP" && [ "$SMP" -ge 1 ] && [ "$SMP" -le 32 ] || die "SMP=$SMP: expected 1..32"
is_uint "$MEM" && [ "$MEM" -ge 16 ] && [ "$MEM" -le 3000 ] || die "MEM=$MEM: expected 16..3000 (MiB)"
is_uint "$TIMEOUT" && [ "$TIMEOUT" -ge 1 ] || die "TIMEOUT=$TIMEOUT: expected a number of seconds >= 1"
case "$PVSPIN" in on|off|auto) ;; *) die "--pvspin=$PVSPIN: expected on, off or auto" ;; esac
command -v qemu-system-i386 >/dev/null 2>&1 || die "qemu-system-i386 not found (make deps)"

case "$ACCEL" in
tcg) ACCEL_ARGS="-accel tcg,thread=multi -cpu max" ;;
icount)
    # Measured with QEMU 7.2: under -icount a halted vCPU is not woken (no timer
    # ticks, no IPIs) while another vCPU runs without halting.  Runs bound to
    # one CPU (bind=0) are fine; anything that needs several CPUs is not.
    [ "$SMP" -eq 1 ] || echo "run: warning: ACCEL=icount with SMP=$SMP: QEMU's icount mode starves halted vCPUs while another vCPU is busy; only runs bound to one CPU (bind=) are meaningful" >&2
    ACCEL_ARGS="-accel tcg,thread=single -icount shift=0,sleep=off -cpu max" ;;
vsmp)
    [ -z "$ISO" ] || die "--accel vsmp needs --kernel: an ISO's command line is baked in (make iso CMDLINE='vsmp=N ...' and boot it with --accel icount --smp 1)"
    [ "$PVSPIN" != on ] || die "--accel vsmp: --pvspin on does not go with vsmp (its lock waits are virtual-time waits, not pvspin's halt and kick)"
    ACCEL_ARGS="-accel tcg,thread=single -icount shift=0,sleep=off -cpu max" ;;
kvm)
    # SCHEDLAB_KVM_DEV: another device node to check (the tests fake a broken KVM with it)
    kvm_dev=${SCHEDLAB_KVM_DEV:-/dev/kvm}
    [ -r "$kvm_dev" ] && [ -w "$kvm_dev" ] || die "ACCEL=kvm: $kvm_dev is not available here (use ACCEL=tcg)"
    ACCEL_ARGS="-accel kvm -cpu host" ;;
*) die "ACCEL=$ACCEL: expected tcg, kvm, icount or vsmp" ;;
esac

HOST_CPUS=$(nproc 2>/dev/null || echo 1)
OVER=no
case "$ACCEL" in icount|vsmp) ;; *) [ "$SMP" -gt "$HOST_CPUS" ] && OVER=yes ;; esac
# vsmp: the logical CPU count travels as the kernel key vsmp=; QEMU gets one vCPU.
given_vsmp=$(cmdline_value vsmp)
QEMU_SMP=$SMP
if [ "$ACCEL" = vsmp ]; then
    if [ -n "$given_vsmp" ]; then
        [ "$given_vsmp" = "$SMP" ] || die "--accel vsmp --smp $SMP: the command line says vsmp=$given_vsmp"
    else
        CMDLINE="${CMDLINE:+$CMDLINE }vsmp=$SMP"
    fi
    QEMU_SMP=1
    [ "$PVSPIN" = auto ] && PVSPIN=off
elif [ -n "$given_vsmp" ]; then
    die "vsmp=$given_vsmp on the command line: use --accel vsmp --smp $given_vsmp (QEMU must run one vCPU under icount)"
fi
# model=host (docs/caches.md, "The host model"): the memory model of
# machine=PRESET runs inside QEMU as a TCG plugin (kernel/machine/host/
# hostmodel.c, built by `make hostmodel-plugin`) on the plain kernel: the
# guest's RAM is a shared file the plugin reads (which logical CPU runs,
# its clock's base), and each miss's stall moves QEMU's icount clock.  The
# model's memstat lines follow the console.
# HOSTMODEL_BURN=N in the environment: the plugin's control (N rounds of
# busy work more in every slow access; the guest's lines must not move).
# HOSTMODEL_PROFILE=1: hostprof lines, the stall by instruction address.
HOSTMODEL=
if [ "$(cmdline_value model)" = host ]; then
    HM_PRESET=$(cmdline_value machine) HM_LAT=$(cmdline_value machine_lat_pct)
    [ "$ACCEL" = vsmp ] || die "model=host needs --accel vsmp (the plugin reads vsmp's logical CPUs and moves its icount clock)"
    [ -n "$KERNEL" ] || die "model=host needs --kernel (the plugin reads the kernel's symbols and link map)"
    [ -n "$HM_PRESET" ] && [ "$HM_PRESET" != none ] || die "model=host needs machine=PRESET (make list-machines)"
    [ -z "$HM_LAT" ] || is_uint "$HM_LAT" && [ "${HM_LAT:-0}" -le 1000 ] || die "machine_lat_pct=$HM_LAT: expected 0..1000"
    HOSTMODEL=1
    # A kernel of `make CACHES=host` takes the keys (its boot line says
    # them; machine_layout= gives 2.4's task layout); the plain kernel does
    # not know them: they are taken off its command line (the layout is
    # then its own), and the run: line below says them.
    if ! nm "$KERNEL" 2>/dev/null | grep -q ' machine_host_model_build$'; then
        [ -z "$(cmdline_value machine_layout)" ] || die "machine_layout= with model=host needs a kernel of make CACHES=host (this plain kernel has its own layout)"
        CMDLINE=$(printf ' %s ' "$CMDLINE" | sed -e 's/ model=host / /g' -e 's/ machine=[^ ]* / /g' -e 's/ machine_lat_pct=[^ ]* / /g' \
                  -e 's/ machine=[^ ]* / /g' -e 's/^ *//; s/ *$//')
    fi
fi
# pvspin: the kernel's own key, given here unless --cmdline already has it.
given=$(cmdline_value pvspin)
case "$PVSPIN:$given" in
on:|off:|auto:) ;;
on:1|off:0|auto:?*) ;;
*) die "--pvspin=$PVSPIN: the command line says pvspin=$given" ;;
esac
if [ -n "$ISO" ]; then
    [ "$PVSPIN" = auto ] || die "--pvspin=$PVSPIN: an ISO's command line is baked in (make iso CMDLINE='... pvspin=1')"
    PV_SAY="pvspin=iso"
elif [ -n "$given" ]; then
    PV_SAY="pvspin=$given (from --cmdline)"
else
    pv=0
    { [ "$PVSPIN" = on ] || { [ "$PVSPIN" = auto ] && [ "$OVER" = yes ]; }; } && pv=1
    CMDLINE="${CMDLINE:+$CMDLINE }pvspin=$pv"
    PV_SAY="pvspin=$pv ($PVSPIN)"
fi
# cr3: under TCG a CR3 write makes QEMU flush its whole software TLB and
# refill it page by page (about 8 us a switch between address spaces, 30x
# what the seed machines paid), so a TCG run gets cr3=elide: the page
# directories, references and CR3 counts stay, the hardware CR3 stays the
# kernel's (kernel/mm.h; docs/cost-model.md#tcg-and-icount).  icount and
# KVM load CR3 (under icount a CR3 write is one instruction of guest time).
# A cr3= on --cmdline wins; an ISO's command line is left alone.
CR3_SAY=
if [ -z "$ISO" ]; then
    cr3_given=$(cmdline_value cr3)
    if [ -n "$cr3_given" ]; then
        CR3_SAY="cr3=$cr3_given (from --cmdline)"
    elif [ "$ACCEL" = tcg ]; then      # (a vsmp= without --accel vsmp was refused above)
        CMDLINE="${CMDLINE:+$CMDLINE }cr3=elide"
        CR3_SAY="cr3=elide (the tcg default: QEMU's full TLB flush on a CR3 write is not paid; the CR3 counts stay)"
    fi
fi
# idle: under TCG a halted vCPU's wake-up (the IPI, QEMU's exit from HLT
# and its host thread's wake-up) costs about 15.7 us, ten times the era's
# 1.66 us (bench=machine; docs/cost-model.md#tcg-and-icount), and every
# wake-up of a task onto an idle vCPU pays it.  So a TCG run with several
# vCPUs, each with a host core of its own, gets idle=poll: an idle vCPU
# watches for work (Linux's idle=poll) and a wake-up sends no IPI.  With
# more vCPUs than host cores a polling vCPU would take the host core a busy
# one needs, so those runs halt; so do icount (a polling CPU's instructions
# would count as time), KVM and vsmp.  An idle= on --cmdline wins.
IDLE_SAY=
if [ -z "$ISO" ]; then
    idle_given=$(cmdline_value idle)
    if [ -n "$idle_given" ]; then
        IDLE_SAY="idle=$idle_given (from --cmdline)"
    elif [ "$ACCEL" = tcg ] && [ "$SMP" -gt 1 ] && [ "$OVER" = no ]; then
        CMDLINE="${CMDLINE:+$CMDLINE }idle=poll"
        IDLE_SAY="idle=poll (the tcg default with $SMP vCPUs on $HOST_CPUS host cores: TCG's halt and IPI wake-up is not paid; the wake-ups are counted as poll_wakes)"
    fi
fi
echo "run: smp=$SMP host_cpus=$HOST_CPUS accel=$ACCEL oversubscribed=$OVER $PV_SAY" >&2
[ -z "$CR3_SAY" ] || echo "run: $CR3_SAY" >&2
[ -z "$IDLE_SAY" ] || echo "run: $IDLE_SAY" >&2
[ "$OVER" = yes ] && echo "run: note: $SMP vCPUs share $HOST_CPUS host cores, so vCPUs are time-shared and parallel speed-up is not real" >&2
if [ "$ACCEL" = vsmp ]; then
    if [ "$SMP" = 1 ]; then cpus="1 logical CPU"; else cpus="$SMP logical CPUs, each with its own virtual clock,"; fi
    echo "run: note: vsmp runs $cpus on one icount vCPU: deterministic, and parallel speed-up is real in virtual time (docs/vsmp.md)" >&2
fi
[ "$ACCEL" = icount ] && echo "run: note: icount time sums the instructions of all vCPUs: it shows total work, not parallel speed-up" >&2

# QEMU's multiboot loader puts the kernel's path in front of the command
# line; the kernel skips that first word only when it has a '/' and no '='
# (kernel_arguments() in kernel/main.c), and a space would split it into two
# words.  QEMU's -cdrom splits its file name at commas.  So a path with any
# other character reaches QEMU as a plain-named symlink in a temporary
# directory, removed when this script ends.
LINKDIR=
cleanup() { [ -z "$LINKDIR" ] || rm -rf "$LINKDIR"; }
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
plain_path() { case "$1" in *[!A-Za-z0-9/._+-]*) return 1 ;; *) return 0 ;; esac; }
# safe_file PATH NAME: sets SAFE to PATH, or to a symlink LINKDIR/NAME to it.
safe_file() {
    SAFE=$1
    plain_path "$1" && return 0
    base=${TMPDIR:-/tmp}
    plain_path "$base" || base=/tmp
    [ -n "$LINKDIR" ] || LINKDIR=$(mktemp -d "$base/qemu-run.XXXXXX") || die "cannot create a temporary directory in $base"
    ln -s "$1" "$LINKDIR/$2" || die "cannot link $1 into $LINKDIR"
    SAFE=$LINKDIR/$2
}

VGA=none
if [ -n "$ISO" ]; then
    VGA=std   # GRUB's multiboot loader asks the VGA BIOS for video modes ("Can't get controller info" without one)
    safe_file "$(realpath "$ISO")" kernel.iso
    set -- -cdrom "$SAFE" -boot d
    if [ -n "$DRIVE" ]; then
        iso_link=$SAFE
        safe_file "$(realpath "$DRIVE")" disk.img
        set -- -cdrom "$iso_link" -boot d -drive "file=$SAFE,format=raw,if=ide,index=0,snapshot=on"
    fi
else
    KERNEL=$(realpath "$KERNEL")   # a path with a slash: the kernel skips it on its command line
    safe_file "$KERNEL" kernel.elf
    set -- -kernel "$SAFE" -append "$CMDLINE"
fi
# The trace channel: its own device and file, so trace data never mixes
# with the console.  QEMU splits option values at commas; ",," is a comma.
if [ -n "$TRACE_OUT" ]; then
    : >"$TRACE_OUT" 2>/dev/null || die "--trace-out $TRACE_OUT: cannot write that file"
    trace_path=$(printf '%s' "$TRACE_OUT" | sed 's/,/,,/g')
    set -- "$@" -chardev "file,id=trace,path=$trace_path" -device isa-debugcon,iobase=0xe9,chardev=trace
fi
if [ -n "$HOSTMODEL" ]; then
    ROOT=$(cd "$(dirname "$0")/.." && pwd)
    kdir=$(dirname "$KERNEL")
    nm "$KERNEL" | grep -q ' memhook_miss$' && die "model=host runs on a plain kernel: $KERNEL is a CACHES=1 build (its model is in the guest)"
    [ -f "$kdir/kernel.map" ] || die "model=host: $kdir/kernel.map missing (rebuild the kernel: make writes the link map beside it)"
    host_model_qemu_check
    make -s -C "$ROOT" hostmodel-plugin >&2 || die "model=host: cannot build the plugin (make hostmodel-plugin)"
    HM_SO=$ROOT/build/hostmodel.so
    plain_path "$HM_SO" || die "model=host: $HM_SO: QEMU's option syntax cannot take that path (commas or spaces)"
    sym() { nm "$KERNEL" | awk -v n="$1" '$3 == n { print "0x" $1; exit }'; }
    HM_CUR=$(sym vsmp_cur) HM_START=$(sym machine_boot)
    HM_CPUS=$(nm -S "$KERNEL" | awk '$4 == "cpus" { print "0x" $1, "0x" $2; exit }')
    max_cpus=$(sed -n 's/^#define MAX_CPUS \([0-9]*\).*/\1/p' "$ROOT/kernel/types.h")
    [ -n "$HM_CUR" ] && [ -n "$HM_START" ] && [ -n "$HM_CPUS" ] && [ -n "$max_cpus" ] ||
        die "model=host: $KERNEL lacks vsmp_cur, machine_boot or cpus"
    HM_STRIDE=$(( ${HM_CPUS#* } / max_cpus ))
    HM_CPUS=${HM_CPUS% *}
    # vsmp's struct vcpu is private to vsmp.c: its size and ran_from's
    # offset are absolute symbols of the kernel (kernel/machine/vsmp.c)
    HM_VCPUS=$(sym vsmp_vcpus) HM_VSIZE=$(sym vsmp_vcpu_bytes) HM_RANF=$(sym vsmp_vcpu_ran_from)
    [ -n "$HM_VCPUS" ] && [ -n "$HM_VSIZE" ] && [ -n "$HM_RANF" ] ||
        die "model=host: $KERNEL lacks vsmp_vcpus, vsmp_vcpu_bytes or vsmp_vcpu_ran_from (rebuild it)"
    HM_VSIZE=$((HM_VSIZE)) HM_RANF=$((HM_RANF))
    HM_VCPU_ARGS="vcpus=$HM_VCPUS,vcpu_stride=$HM_VSIZE,ran_from=$HM_RANF"
    # A kernel of make CACHES=host: 2.4's goodness line (kernel/machine/
    # memhooks.c builds the map in its memory; the plugin reads it there)
    HM_ERA_MAP=$(sym hostmodel_era_map)
    if [ -n "$HM_ERA_MAP" ]; then
        HM_ERA_CHUNKS=$(sym hostmodel_era_chunk_mapped) HM_ERA_BLOCKS=$(sym hostmodel_era_blocks)
        HM_ERA_SHIFT=$(sym hostmodel_era_block_shift) HM_ERA_TBYTES=$(sym hostmodel_era_task_bytes)
        [ -n "$HM_ERA_CHUNKS" ] && [ -n "$HM_ERA_BLOCKS" ] && [ -n "$HM_ERA_SHIFT" ] && [ -n "$HM_ERA_TBYTES" ] ||
            die "model=host: $KERNEL has hostmodel_era_map but lacks the rest of the goodness line's symbols (rebuild it)"
        HM_VCPU_ARGS="$HM_VCPU_ARGS,era_map=$HM_ERA_MAP,era_chunks=$HM_ERA_CHUNKS,era_blocks=$HM_ERA_BLOCKS,era_shift=$((HM_ERA_SHIFT)),era_task_bytes=$((HM_ERA_TBYTES))"
        # and 2.6.0's task_struct (the task slab, thread_info at the stack's base)
        hm_t26=
        for n in t26_map t26_chunk_mapped t26_chunks t26_checked t26_head t26_obj t26_per_page t26_colours t26_align \
                 t26_chunk_shift task_layout_off task_stack_off task_cpu_off ti_cpu_off task_layout26; do
            v=$(sym hostmodel_$n)
            [ -n "$v" ] || die "model=host: $KERNEL has hostmodel_era_map but lacks hostmodel_$n (rebuild it)"
            hm_t26="$hm_t26 $((v))"
        done
        set -- $hm_t26 "$@"
        HM_VCPU_ARGS="$HM_VCPU_ARGS,t26_map=$1,t26_chunks=$2,t26_slab=$3,t26_checked=$4,t26_geom=$5:$6:$7:$8:$9:${10},t26_task=${11}:${12}:${13}:${14}:${15}"
        shift 15
    fi
    # The instructions the in-guest model does not instrument either: the
    # machine layer (vsmp's dispatcher, the model), kernel/time.c (the
    # boot's TSC calibration), every assembly file, libgcc: their .text
    # input sections in the link map.
    HM_SKIPS=$(awk -v root="$ROOT" '
        function hex(x,   i, n) { x = tolower(x); sub(/^0x/, "", x); n = 0
            for (i = 1; i <= length(x); i++) n = n * 16 + index("0123456789abcdef", substr(x, i, 1)) - 1
            return n }
        function out(addr, size, file,   src, obj) {
            obj = file; sub(/^.*build\/[^\/]*\//, "", obj); src = obj; sub(/\.o$/, "", src)
            if (file ~ /libgcc/ || obj ~ /^kernel\/machine\// || obj == "kernel/time.o" ||
                system("test -f \"" root "/" src ".S\"") == 0)
                if (hex(size) > 0) printf ",skip=%s-0x%x", addr, hex(addr) + hex(size)
        }
        pend && NF == 3 && $1 ~ /^0x/ { out($1, $2, $3); pend = 0; next }
        { pend = 0 }
        /^ \.text[^ ]*$/ { pend = 1; next }
        /^ \.text/ && NF == 4 && $2 ~ /^0x/ { out($2, $3, $4) }' "$kdir/kernel.map")
    case $HM_SKIPS in ,skip=*) ;; *) die "model=host: no skip ranges found in $kdir/kernel.map" ;; esac
    [ -n "$LINKDIR" ] || LINKDIR=$(mktemp -d "$( [ -d /dev/shm ] && [ -w /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}")/qemu-run.XXXXXX") ||
        die "cannot create a temporary directory"
    plain_path "$LINKDIR" || die "model=host: $LINKDIR: not a plain path"
    set -- "$@" -object "memory-backend-file,id=hostmodel-ram,size=${MEM}M,mem-path=$LINKDIR/ram,share=on" \
        -machine memory-backend=hostmodel-ram \
        -plugin "$HM_SO,preset=$HM_PRESET,lat_pct=${HM_LAT:-100},ncpus=$SMP,ram=$LINKDIR/ram,ram_mb=$MEM,cur=$HM_CUR,cpus=$HM_CPUS,cpu_stride=$HM_STRIDE,$HM_VCPU_ARGS,start=$HM_START,out=$LINKDIR/memstat${HOSTMODEL_BURN:+,burn=$HOSTMODEL_BURN}${HOSTMODEL_PROFILE:+,profile=$HOSTMODEL_PROFILE}$HM_SKIPS"
    echo "run: model=host machine=$HM_PRESET machine_lat_pct=${HM_LAT:-100}: the memory model in QEMU (kernel/machine/host/hostmodel.c; docs/caches.md)" >&2
fi
# $ACCEL_ARGS is split on purpose: it is a fixed list of words.
set -- -M pc -m "$MEM" -smp "$QEMU_SMP" $ACCEL_ARGS "$@" \
    -device isa-debug-exit,iobase=0xf4,iosize=0x04 \
    -display none -serial stdio -monitor none -no-reboot -nodefaults -vga "$VGA"

if [ "$GDB" = 1 ]; then
    [ -n "$KERNEL" ] || die "--gdb needs --kernel"
    script="$(dirname "$KERNEL")/gdbinit"
    printf 'file "%s"\ntarget remote localhost:1234\nbreak kmain\n' "$KERNEL" > "$script"
    echo "gdb: QEMU is halted at the first instruction; in another terminal run: gdb -x '$script'" >&2
    qemu-system-i386 "$@" -s -S   # no exec: the symlink, if any, is removed afterwards
    exit $?
fi

# QEMU's own stderr is kept (and passed on after it ends) so that a KVM
# that does not work here can be recognised and explained.
[ -n "$LINKDIR" ] || LINKDIR=$(mktemp -d "${TMPDIR:-/tmp}/qemu-run.XXXXXX") || die "cannot create a temporary directory"
# (the subshell's stderr too: the shell's own "Aborted" when QEMU dies of SIGABRT)
# The console goes through tee into console.txt as well: a timeout then says
# how long the guest had been silent and what it printed last (a guest
# whose CPUs all halted and took no tick again prints nothing, and no check
# inside it can run; docs/notebook/2026-12-07-lost-wakeup-or-lost-tick.md).
( timeout -k 5 "$TIMEOUT" qemu-system-i386 "$@" </dev/null 2>"$LINKDIR/qemu.err"; echo $? >"$LINKDIR/rc" ) 2>>"$LINKDIR/qemu.err" |
    tee "$LINKDIR/console.txt"
rc=$(cat "$LINKDIR/rc" 2>/dev/null) || rc=6
# silence: ", no console output for N s, since: LAST LINE" (or none at all)
silence() {
    if [ ! -s "$LINKDIR/console.txt" ]; then
        printf '; no console output at all'
        return
    fi
    quiet=$(( $(date +%s) - $(stat -c %Y "$LINKDIR/console.txt") ))
    last=$(tail -n 1 "$LINKDIR/console.txt" | tr -d '\r' | cut -c1-200)
    printf '; no console output for %s s, since: %s' "$quiet" "$last"
}
[ -z "$TRACE_OUT" ] || echo "run: trace channel: $(wc -c <"$TRACE_OUT" 2>/dev/null || echo 0) bytes in $TRACE_OUT" >&2
# /dev/kvm exists but KVM cannot run this guest: typically a virtual machine
# whose nested virtualization is broken or limited (QEMU 7.2 then asserts:
# "failed to set MSR 0x10a", kvm_buf_set_msrs, exit 134).
kvm_broken() {
    why=$(grep -a -m1 -E 'failed to set MSR|kvm_buf_set_msrs|kvm_init_vcpu|KVM_CREATE_VM|Could not access KVM|failed to initialize kvm|KVM: entry failed|kvm run failed|KVM internal error' "$LINKDIR/qemu.err")
    [ -n "$why" ] || return 1
    echo "error: ACCEL=kvm: /dev/kvm is there, but KVM does not work on this machine (QEMU: $(printf '%s' "$why" | sed 's/^qemu-system-i386: //' | cut -c1-120))." >&2
    echo "error: this is what a virtual machine with broken or limited nested virtualization does; use ACCEL=tcg (or icount), or enable nested KVM on the host (kvm_intel nested=1 / kvm_amd nested=1)" >&2
}
if [ "$ACCEL" = kvm ] && [ $rc != 124 ] && [ $rc != 137 ] && kvm_broken; then
    exit 6
fi
cat "$LINKDIR/qemu.err" >&2
if [ -n "$HOSTMODEL" ]; then
    if [ -s "$LINKDIR/memstat" ]; then cat "$LINKDIR/memstat"; else echo "run: model=host: the plugin wrote no memstat lines" >&2; fi
fi
case $rc in
124|137) echo "run: timeout: the guest did not finish within $TIMEOUT s (TIMEOUT=)$(silence)" >&2; exit 124 ;;
0) echo "run: the guest stopped without an exit code (triple fault or reset)${ACCEL:+$([ "$ACCEL" = kvm ] && echo '; under KVM at once after the start this often means nested KVM does not work here: try ACCEL=tcg')}" >&2; exit 5 ;;
esac
if [ $rc -ge 33 ] && [ $(( (rc - 33) % 2 )) -eq 0 ]; then
    code=$(( (rc - 33) / 2 ))
    [ $code -ne 0 ] && echo "run: kernel exit code $code" >&2
    exit $code
fi
echo "run: QEMU failed (exit status $rc)" >&2
exit 6
