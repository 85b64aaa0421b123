# Booting, the boot line, the command line and exit codes, on every scheduler.
. "$(dirname "$0")/../lib.sh"

for sched in $(scheds); do
    for smp in 1 2 4; do
        boot "$sched" "$smp" 'bench=boot'
        check "boot-$sched-smp$smp-exit0" [ "$RC" = 0 ]
        expect "boot-$sched-smp$smp-line" "^boot: cpus=$smp sched=$sched hz=[0-9]+ tsc_khz=[0-9]+ accel=(tcg|kvm|unknown) mem_mib=[0-9]+"
        expect "boot-$sched-smp$smp-schedstat" "^schedstat cpu=$((smp - 1)) "
    done
done

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
