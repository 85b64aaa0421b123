# The memory model (CACHES=1, machine=; docs/caches.md).  In make test: a
# kernel built without the model refuses machine= and machine_lat_pct=.
# In make test-long (a CACHES=1 build costs a minute and a half of CPU):
# the instrumented build with every latency 0 within 5% of the plain build
# on a pipe round trip (vsmp=1, deterministic); the model's memstat lines;
# a cross-CPU pipe moves lines between caches (cache-to-cache transfers),
# the tasks' and the pipe's by name (the pipe's copied data among them), and costs more with the model than with every latency 0; two boots give
# the same figures; the bad combinations are refused.  Counts and
# virtual-time ratios only: no timed assertion.
. "$(dirname "$0")/../lib.sh"
plan $((3 + 19 * $(long)))

S=rr

# ---- a plain kernel has no model
boot "$S" 1 'bench=pipe loops=100 machine=piii-xeon-1m' 256 60 vsmp
check "caches-plain-refuses-machine" [ "$RC" = 1 ]
expect "caches-plain-machine-error" '^error: machine=piii-xeon-1m: needs a kernel built with the memory model \(make CACHES=1\)'
boot "$S" 1 'bench=pipe loops=100 machine_lat_pct=0' 256 60 vsmp
expect "caches-plain-lat-pct-error" '^error: machine_lat_pct=0: needs a kernel built with the memory model'

long_only "the CACHES=1 build, exactness and the model's counts" || exit 0

tools_built
B="$S-caches"
( flock 9; make -s -C "$ROOT" SCHED="$S" CACHES=1 kernel >"$TMP/build-$B.log" 2>&1 ) 9>"$ROOT/build/.lock" ||
    { fail_with caches-build "make SCHED=$S CACHES=1 failed:" "$TMP/build-$B.log"; exit 1; }
check "caches-build-dir" [ -f "$ROOT/build/$B/kernel.elf" ]
usec() { field usec_per_op "$(results pipe | head -1)"; }

# ---- exactness: every latency 0 against the plain build (1 logical CPU)
boot "$S" 1 'bench=pipe loops=5000' 256 120 vsmp
plain=$(usec)
boot_once "$B" 1 'bench=pipe loops=5000 machine=piii-xeon-1m machine_lat_pct=0' 256 vsmp 600
check "caches-lat0-exit0" [ "$RC" = 0 ]
expect "caches-boot-line" '^boot: .* machine=piii-xeon-1m memhook_insns=[0-9]+/[0-9]+/0\.000 machine_lat_pct=0( |$)'
zero=$(usec)
check "caches-lat0-within-5pct" awk -v a="$plain" -v b="$zero" 'BEGIN { exit !(a > 0 && b > 0 && b / a < 1.05 && a / b < 1.05) }'
echo "# caches: pipe round trip plain $plain us, instrumented with every latency 0 $zero us"

# ---- the model on 2 CPUs: lines move, and cost
boot_once "$B" 2 'bench=pipe loops=2000 machine=piii-xeon-1m' 256 vsmp 600
check "caches-on-exit0" [ "$RC" = 0 ]
on=$(usec) out1=$(grep -E '^(result|memstat)' "$OUT")
expect "caches-memstat-machine" '^memstat machine=piii-xeon-1m lat_pct=100 line=32 l1_kib=16 l1_ways=4 l2_kib=1024 l2_ways=8 .* bus_ns=40 bus_inval_ns=20 '
c2c=$(stat_of memstat 1 c2c)
expect "caches-memline" '^memline rank=1 addr=0x[0-9a-f]{8} moves=[1-9][0-9]* invals=[0-9]+ site=0x[0-9a-f]{8} where=(cpu[0-9]+\+[0-9]+|image|heap)$'
check "caches-cross-cpu-c2c" [ "${c2c:-0}" -gt 0 ]
# by name (memhook-plugin.cc's site records): the tasks' and the pipe's lines moved
expect "caches-memline-object-task" '^memline object=task field=\* by=moves moves=[1-9][0-9]* invals=[0-9]+ misses=[0-9]+$'
expect "caches-memline-object-pipe" '^memline object=pipe field=\* by=moves moves=[1-9][0-9]* invals=[0-9]+ misses=[0-9]+$'
# the pipe's data, copied by inline asm (kernel/pipe.c copy, MACHINE_COPY_ASM): its lines move too
expect "caches-memline-pipe-copied" '^memline object=pipe field=copied by=moves moves=[1-9][0-9]* invals=[1-9][0-9]* misses=[0-9]+$'
# memstat and memline as kernel/protocol.h declares them
check "caches-protocol" sh -c '"$1" parse "$2" --format tsv | awk -F"\t" "NR > 1 && \$4 != \"\" { bad = 1; print } END { exit bad }"' _ "$SCHEDLAB_BIN" "$OUT"
boot_once "$B" 2 'bench=pipe loops=2000 machine=piii-xeon-1m' 256 vsmp 600
check "caches-deterministic" [ "$out1" = "$(grep -E '^(result|memstat)' "$OUT")" ]
boot_once "$B" 2 'bench=pipe loops=2000 machine=piii-xeon-1m machine_lat_pct=0' 256 vsmp 600
off=$(usec)
check "caches-cross-cpu-costs-more" awk -v a="$on" -v b="$off" 'BEGIN { exit !(a > b) }'
echo "# caches: 2-CPU pipe round trip $on us with the model, $off us with every latency 0; $c2c transfers into cpu 1"

# ---- many CPUs: the model's second cache_init once charged its own memsets
# to the struct it was rebuilding and wrote into the kernel's text from 7
# CPUs of piii-xeon-1m (6 of piii-xeon-2m): those boots crashed or hung
for mc in piii-xeon-1m:8 piii-xeon-2m:6; do
    boot_once "$B" "${mc#*:}" "bench=hackbench groups=2 loops=5 machine=${mc%:*}" 256 vsmp 600
    check "caches-boots-${mc%:*}-smp${mc#*:}" sh -c '[ "$1" = 0 ] && grep -q "^result bench=hackbench .* status=ok" "$2"' _ "$RC" "$OUT"
done

# ---- refused
boot_once "$B" 1 'bench=pipe loops=100 machine=piii-xeon-1m' 256 icount 120
expect "caches-needs-vsmp" '^error: machine=piii-xeon-1m: needs vsmp='
boot_once "$B" 1 'bench=pipe loops=100 machine_lat_pct=50' 256 vsmp 120
expect "caches-lat-pct-needs-machine" '^error: machine_lat_pct=50: needs machine='
boot_once "$B" 1 'bench=pipe loops=100 machine=pentium-9' 256 vsmp 120
check "caches-unknown-preset" [ "$RC" = 1 ]
