# tools/schedlab run learns workloads and keys from the kernel itself
# (bench=list, cached next to the image by its sha256) and checks every flag
# before anything boots:
#   - the answer is cached (build/<sched>/kernel.elf.list, first line the
#     image's sha256) and used: a key added to the cached list is known, a
#     stale checksum makes it ask the image again;
#   - a key the chosen workload does not read, a bad type or a value out of
#     range is "error: ..." with exit 2, and nothing boots (no --out dir);
#   - an image whose list cannot be read is an error (exit 1), never a skip;
#   - comma lists: a uint_list key (groups) is swept inside one boot, a uint
#     or choice key (loops, ipc) gives one boot per value, int_list and
#     cpu_list values (nice, bind) are passed as they are; --pipe-size is
#     pipe_size=; --set KEY=VALUE and kernel keys (--watchdog) are checked too.
. "$(dirname "$0")/../lib.sh"
plan 107

D="$TMP/keys.$$"
mkdir -p "$D"
# A copy of the tree with rr's build and the host tool, whose cache this
# script removes, edits and expects unwritten: other scripts running
# tools/schedlab on rr at the same time (tools.sh, tools_engines.sh, ...)
# rewrite build/rr/kernel.elf.list in the tree itself.  The objects keep
# their times, so nothing is built again in the copy.
build rr
T="$D/tree"
mkdir -p "$T/build"
( cd "$ROOT" && tar cf - Makefile linker.ld boot kernel sched workloads tools ) | ( cd "$T" && tar xf - )
cp -pR "$ROOT/build/common" "$ROOT/build/rr" "$T/build/"
[ -d "$ROOT/build/tools" ] && cp -pR "$ROOT/build/tools" "$T/build/"
rm -f "$T/build/rr/kernel.elf.list"
SL="$T/tools/schedlab"
CACHE="$T/build/rr/kernel.elf.list"

# sl NAME WANT_EXIT ARGS...: runs tools/schedlab run ARGS into $D/NAME; OUT is its combined output
sl() {
    name=$1 want=$2; shift 2
    OUT="$D/$name.log"
    "$SL" run "$@" >"$OUT" 2>&1
    RC=$?
    check "keys-$name-exit$want" [ "$RC" = "$want" ]
}
# rejected NAME REGEX ARGS...: exit 2, one error line matching REGEX, no boot
rejected() {
    name=$1 re=$2; shift 2
    sl "$name" 2 --sched rr --smp 1 -j 1 --out "$D/$name.out" "$@"
    expect "keys-$name-message" "^schedlab( [a-z-]+)?: error: $re"
    check "keys-$name-nothing-booted" [ ! -e "$D/$name.out" ]
}

# --- the list, and its cache
rm -f "$CACHE"
sl cold 2 --sched rr --bench hackbench --frobnicate 1 --out "$D/cold.out"
check "keys-cache-written" [ -s "$CACHE" ]
sum=$(sha256sum "$T/build/rr/kernel.elf" | cut -d' ' -f1)
check "keys-cache-keyed-by-sha256" [ "$(head -1 "$CACHE")" = "# sha256=$sum" ]
check "keys-cache-has-workloads" grep -q '^workload name=hackbench summary=' "$CACHE"
check "keys-cache-has-keys" grep -q '^key workload=hackbench name=groups type=uint_list ' "$CACHE"
# A key only the cache knows: accepted and range-checked, so the cache is what was read.
echo 'key workload=hackbench name=cachedkey type=uint default=1 min=1 max=5 help="test"' >>"$CACHE"
rejected cache-used '--cachedkey 9: 9 is out of range 1..5' --bench hackbench --cachedkey 9
# A stale checksum: the image is asked again and the invented key is gone.
sed -i '1s/.*/# sha256=0000/' "$CACHE"
rejected cache-stale '--cachedkey 3: cachedkey is not a key of bench=hackbench' --bench hackbench --cachedkey 3
check "keys-cache-rewritten" [ "$(head -1 "$CACHE")" = "# sha256=$sum" ]
check "keys-cache-no-invented-key" sh -c "! grep -q cachedkey '$CACHE'"

# --- no sed over C sources any more (the keys come from bench=list)
check "keys-no-source-scrape" sh -c "! grep -rnE 'workloads/\\*\\.c|kernel/\\*\\.c' '$T/tools/src'"

# --- a list that cannot be read is an error, not a skipped check
mkdir -p "$D/fakebin"
printf '#!/bin/sh\necho "boot: cpus=1 sched=rr"\nexit 33\n' >"$D/fakebin/qemu-system-i386"   # exit 0, no list
chmod +x "$D/fakebin/qemu-system-i386"
rm -f "$CACHE"
OUT="$D/nolist.log"
PATH="$D/fakebin:$PATH" "$SL" run --sched rr --bench hackbench --groups 1 --out "$D/nolist.out" >"$OUT" 2>&1
RC=$?
check "keys-unreadable-list-exit1" [ "$RC" = 1 ]
expect "keys-unreadable-list-message" '^schedlab( [a-z-]+)?: error: cannot read the workloads and keys of .*bench=list'
check "keys-unreadable-list-nothing-booted" [ ! -e "$D/nolist.out" ]
check "keys-unreadable-list-no-cache" [ ! -e "$CACHE" ]
printf '#!/bin/sh\nexit 1\n' >"$D/fakebin/qemu-system-i386"                                  # QEMU fails
OUT="$D/noqemu.log"
PATH="$D/fakebin:$PATH" "$SL" run --sched rr --bench hackbench --out "$D/noqemu.out" >"$OUT" 2>&1
RC=$?
check "keys-qemu-fails-exit1" [ "$RC" = 1 ]
expect "keys-qemu-fails-message" '^schedlab( [a-z-]+)?: error: cannot read the workloads and keys of .*exited 6'

# --- flags checked against the list, before anything boots
sl unknown-bench 1 --sched rr --bench hackbenh --out "$D/unknown-bench.out"
expect "keys-unknown-bench-message" '^schedlab( [a-z-]+)?: error: --bench hackbenh: no such workload in this kernel; did you mean hackbench\? \(have: .*hackbench'
rejected unknown-key '--frobnicate 3: frobnicate is not a key of bench=boot \(its keys: none; the kernel.s: watchdog [a-z0-9_ ]*bind[a-z0-9_ ]*\)' \
    --bench boot --frobnicate 3
rejected foreign-key '--nice 0: nice is not a key of bench=hackbench \(its keys: groups loops' --bench hackbench --nice 0
rejected near-key '--group 20: group is not a key of bench=hackbench; did you mean groups\? \(its keys: groups' --bench hackbench --group 20
rejected foreign-key-set '--set groups=2: groups is not a key of bench=pipe' --bench pipe --set groups=2
rejected groups-zero '--groups 0: 0 is out of range 1\.\.100000' --bench hackbench --groups 0
rejected groups-empty '--groups 5,,6: an empty value' --bench hackbench --groups 5,,6
rejected groups-text '--groups 5,x: expected a number' --bench hackbench --groups 5,x
rejected groups-huge '--groups 99999999999999999999: .*out of range' --bench hackbench --groups 99999999999999999999
rejected groups-too-many '--groups .*: 65 values, at most 64' --bench hackbench --groups "$(seq -s, 1 65)"
rejected loops-range '--loops 0,5: 0 is out of range 1\.\.1000000' --bench hackbench --loops 0,5
rejected pipe-size '--pipe-size 8: 8 is out of range 16\.\.1048576 \(pipe_size: uint key of hackbench\)' \
    --bench hackbench --pipe-size 8
rejected ipc '--ipc tcp: expected one of pipe\|socket' --bench hackbench --ipc tcp
rejected ipc-in-list '--ipc pipe,tcp: expected one of pipe\|socket' --bench hackbench --ipc pipe,tcp
rejected nice-range '--nice 0,20: expected integers in -20\.\.19' --bench cpuhog --nice 0,20
rejected nice-text '--nice 0,x: expected integers' --bench cpuhog --nice 0,x
rejected bind-offline '--bind 1: cpu 1 does not exist with --smp 1' --bench pingpong --bind 1
rejected bind-syntax '--bind 0-x: expected a CPU list' --bench pingpong --bind 0-x
rejected watchdog '--watchdog x: expected a number' --bench boot --watchdog x
rejected set-range '--set fds=0: 0 is out of range 1\.\.1000' --bench hackbench --set fds=0
rejected set-bench '--set bench=pipe: use --bench' --bench hackbench --set bench=pipe
rejected twice '--groups given twice' --bench hackbench --groups 1 --groups 2
rejected no-value '--loops needs a value' --bench hackbench --loops --groups 1

# --- what passes: sweeps by the key's type, dashes as underscores, kernel keys
M="$D/matrix"
sl matrix 0 --sched rr --smp 1 -j 1 --bench hackbench --groups 1,2 --loops 5,10 --ipc pipe,socket --fds 2 \
    --pipe-size 8192 --bind 0 --watchdog 20 --timeout "$(boot_limit 60)" --out "$M"
check "keys-matrix-cmdline" grep -qx 'kernel_cmdline: bench=hackbench groups=1,2 fds=2 pipe_size=8192 bind=0 watchdog=20' "$M/meta.txt"
check "keys-matrix-sweep-in-boot" grep -qx 'sweep groups' "$M/matrix.txt"
check "keys-matrix-sweep-boots" grep -qx 'sweep_boots loops=5,10 ipc=pipe,socket' "$M/matrix.txt"
check "keys-matrix-four-boots" [ "$(wc -l <"$M/jobs.txt")" = 4 ]
for v in 'loops=5 ipc=pipe' 'loops=5 ipc=socket' 'loops=10 ipc=pipe' 'loops=10 ipc=socket'; do
    check "keys-matrix-boot-$(echo "$v" | tr ' =' '--')" grep -q " $v\$" "$M/jobs.txt"
done
rows=$(grep -c ',ok,' "$M/results.csv")
check "keys-matrix-eight-ok-rows" [ "$rows" = 8 ]
check "keys-matrix-list-recorded" grep -q '^workload name=hackbench ' "$M/kernels/bench-list.txt"
for log in "$M"/logs/*.log; do
    OUT=$log
    expect "keys-matrix-$(basename "$log" .log)-as-asked" '^result bench=hackbench .* groups=2 loops=(5|10) datasize=100 fds=2 mode=process ipc=(pipe|socket) pipe_size=8192 .*cpus_used=0x1 .*status=ok'
done
C="$D/cpuhog"
sl cpuhog 0 --sched rr --smp 1 -j 1 --bench cpuhog --tasks 2 --nice 0,5 --seconds 1 --timeout "$(boot_limit 60)" --out "$C"
check "keys-int-list-passed-as-is" grep -qx 'kernel_cmdline: bench=cpuhog tasks=2 nice=0,5 seconds=1' "$C/meta.txt"
check "keys-int-list-one-boot" [ "$(wc -l <"$C/jobs.txt")" = 1 ]
OUT=$(ls "$C"/logs/*.log | head -1)
expect "keys-int-list-nice5" '^result bench=cpuhog .* task=1 nice=5 .*status=ok'
