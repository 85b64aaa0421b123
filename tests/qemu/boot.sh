# Booting, the boot line, the command line and exit codes.  Every
# scheduler's boot on 1, 2 and 4 vCPUs is boot_sched.sh (make check's smoke boot).
. "$(dirname "$0")/../lib.sh"
plan 47

boot rr 1 'bench=boot'
check "boot-bench-boot-exit0" [ "$RC" = 0 ]
expect "boot-bench-boot-result" '^result bench=boot sched=rr cpus=1 run=0 status=ok$'

boot rr 8 'bench=boot'
expect "boot-rr-smp8" '^boot: cpus=8 '
boot rr 16 'bench=boot' 256 90
expect "boot-rr-smp16" '^boot: cpus=16 '

# Bad command lines: one "error:" line naming the word, exit status 1, no result.
bad() {
    boot rr 2 "$2"
    check "cmdline-$1-exit1" [ "$RC" = 1 ]
    expect "cmdline-$1-message" "^error: .*$3"
    expect_not "cmdline-$1-no-result" '^result '
}
bad unknown-key 'bench=boot frobnicate=1' 'frobnicate'
bad no-equals 'bench=boot runs' "'runs'"
bad empty-value 'bench=boot runs=' 'runs'
bad not-number 'bench=boot runs=abc' 'runs=abc'
bad out-of-range 'bench=boot runs=0' 'runs=0.*out of range'
bad unknown-bench 'bench=nosuch' 'nosuch'
bad duplicate 'bench=boot bench=boot' 'given twice'
bad bind-offline 'bench=boot bind=5' 'bind=5.*not online'
bad watchdog-range 'watchdog=x' 'watchdog=x'

# The wrapper's own argument checks.
out=$("$ROOT/tools/qemu-run.sh" --kernel "$ROOT/build/rr/kernel.elf" --smp 0 2>&1); rc=$?
RC=$rc OUT=/dev/null check "wrapper-rejects-smp0" [ $rc = 1 ]
out=$("$ROOT/tools/qemu-run.sh" --kernel "$ROOT/build/rr/kernel.elf" --accel warp 2>&1); rc=$?
RC=$rc OUT=/dev/null check "wrapper-rejects-bad-accel" [ $rc = 1 ]

# The unknown-workload message names the word exactly (printf's %.*s).
boot rr 1 'bench=hackbenh'
check "cmdline-unknown-workload-exit1" [ "$RC" = 1 ]
expect "cmdline-unknown-workload-text" "^error: bench=hackbenh: unknown workload 'hackbenh'; known: .*hackbench.* all list$"
expect_not "cmdline-unknown-workload-no-stray-conversion" '%'
boot rr 1 'bench=pipe,hackbenh'
expect "cmdline-unknown-workload-in-list" "^error: bench=pipe,hackbenh: unknown workload 'hackbenh'; known: "

# Layering: nothing under kernel/ includes a workloads/ header, and the
# kernel links without a single workloads/ object (no call into them).  It
# then finds no first task, and a second KERNEL_INIT_TASK is refused too:
# both are boot errors that say how many entries there were.
hits=$(grep -rlE '#include +"[^"]*workloads/' "$ROOT/kernel" 2>/dev/null)
RC=0 OUT=/dev/null check "layering-no-workloads-include" [ -z "$hits" ]
# The machine layer (kernel/machine/: machine.h, keys.h, vsmp.[ch], the
# memory model): only its files name the flags vsmp_on and vsmp_multi; the
# workloads ask the layer.  Its static keys are boot-patched sites: the
# image has some (an empty section would mean they became flag tests).
hits=$(grep -rlwE 'vsmp_on|vsmp_multi' "$ROOT/kernel" "$ROOT/sched" "$ROOT/workloads" 2>/dev/null |
       grep -vE '/kernel/machine/[^/]+$')
[ -z "$hits" ] || echo "# vsmp_on/vsmp_multi outside the machine layer: $hits"
RC=0 OUT=/dev/null check "layering-vsmp-flags-in-machine-layer" [ -z "$hits" ]
build rr
keys=0
for size in $(objdump -h "$ROOT/build/rr/kernel.elf" | awk '$2 == ".machine_vsmp_sites" || $2 == ".machine_vsmp_multi_sites" { print $3 }'); do
    keys=$((keys + 0x$size / 8))
done
echo "# machine layer: $keys static-key sites in build/rr/kernel.elf"
RC=0 OUT=/dev/null check "machine-layer-keys-are-patch-sites" [ "$keys" -gt 0 ]
objs() {  # objs SCHED [workloads]: the objects for the sources of the tree
    # (the Makefile: build/common/ has all but the scheduler's, build/SCHED/sched/;
    # kernel/machine/ is the machine layer, part of the kernel)
    for src in "$ROOT"/kernel/*.c "$ROOT"/kernel/*.S "$ROOT"/kernel/machine/*.c "$ROOT"/kernel/machine/*.S "$ROOT"/boot/*.S; do
        o=${src#"$ROOT"/}; echo "$ROOT/build/common/${o%.*}.o"
    done
    echo "$ROOT/build/$1/sched/$1.o"
    [ "${2:-}" = workloads ] && for src in "$ROOT"/workloads/*.c; do
        o=${src#"$ROOT"/}; echo "$ROOT/build/common/${o%.*}.o"
    done
}
link_image() {  # link_image OUT.elf OBJECTS...: as the Makefile links kernel.elf
    img=$1; shift
    ld -m elf_i386 -z noexecstack -T "$ROOT/linker.ld" -o "$img" "$@" "$(gcc -m32 -print-libgcc-file-name)" \
        >"$img.log" 2>&1
}
boot_image() {  # boot_image IMAGE CMDLINE: OUT and RC as boot() sets them
    OUT="$TMP/out.$$.$(date +%s%N)"
    "$ROOT/tools/qemu-run.sh" --kernel "$1" --smp 1 --cmdline "$2" --timeout "$(boot_limit 30)" >"$OUT" 2>"$OUT.err"
    RC=$?
}
build rr
if link_image "$TMP/no-workloads.elf" $(objs rr); then
    pass layering-kernel-links-without-workloads
    boot_image "$TMP/no-workloads.elf" 'bench=boot'
    check "init-task-missing-exit2" [ "$RC" = 2 ]
    expect "init-task-missing-message" '^panic: .*boot: 0 first tasks registered with KERNEL_INIT_TASK \(need exactly one\)'
else
    fail layering-kernel-links-without-workloads "kernel/ needs symbols of workloads/:"
    grep -m5 'undefined reference' "$TMP/no-workloads.elf.log" | sed 's/^/    /'
    skip init-task-missing-exit2 "no image without workloads"
    skip init-task-missing-message "no image without workloads"
fi
cat >"$TMP/second_init.c" <<'EOC'
#include "kernel/init.h"
#include "kernel/lib.h"
static void second_init(void *unused) { (void)unused; kprintf("second init task ran\n"); machine_exit(EXIT_OK); }
KERNEL_INIT_TASK(second_init, "second");
EOC
gcc -m32 -march=i686 -std=gnu11 -O2 -ffreestanding -fno-pic -fno-pie -fno-stack-protector -mno-sse -mno-mmx \
    -mno-80387 -I"$ROOT" -c "$TMP/second_init.c" -o "$TMP/second_init.o" &&
    link_image "$TMP/two-inits.elf" $(objs rr workloads) "$TMP/second_init.o"
rc=$?
RC=$rc OUT="$TMP/two-inits.elf.log" check "init-task-duplicate-links" [ "$rc" = 0 ]
boot_image "$TMP/two-inits.elf" 'bench=boot'
check "init-task-duplicate-exit2" [ "$RC" = 2 ]
expect "init-task-duplicate-message" '^panic: .*boot: 2 first tasks registered with KERNEL_INIT_TASK \(need exactly one\)'
expect_not "init-task-duplicate-none-ran" '^(second init task ran|result )'
