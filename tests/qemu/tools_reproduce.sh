# tools/schedlab reproduce and schedlab scorecard: the error paths
# (unknown seed, bad flags, a malformed INC:MAX, a scheduler or preset that
# is not in the tree), the scorecard of fixed fake runs (the fixture
# tests/tools/run-a: its cells, deviations and machine-readable line are
# known), the cost= key, and one tiny real reproduction (seed001 pipe, 2
# runs of 20,000 round trips: seconds, and no assertion on its speed);
# --machine PRESET (the memory model, docs/caches.md): its checks before
# anything is built, its estimate, and in make test-long one tiny
# reproduction with the model (a CACHES=1 build costs minutes of CPU);
# --model guest|host (where that model runs; host: the QEMU plugin on make
# CACHES=host images): its checks before anything is built (a QEMU that is
# not 7.2 or has no plugins, faked on PATH), its estimate, and in make
# test-long one tiny reproduction with model=host.
. "$(dirname "$0")/../lib.sh"
plan $((69 + 13 * $(long)))

SL="$ROOT/tools/schedlab"
TOOL="$ROOT/build/tools/schedlab"
D="$TMP/reproduce.$$"
mkdir -p "$D"

make -s -C "$ROOT" tools >"$D/last.log" 2>&1

# ---- usage errors: exit 2 and one clear line, before anything is built or booted
usage() {   # usage NAME PATTERN ARGS...
    n=$1 pat=$2; shift 2
    "$SL" reproduce "$@" >"$D/last.log" 2>&1
    rc=$?
    ok_if "reproduce-usage-$n" "exit $rc (want 2) or no '$pat'" sh -c '[ "$1" = 2 ] && grep -qF -- "$2" "$3"' _ "$rc" "$pat" "$D/last.log"
}
usage no-seed "reproduce needs a seed"
usage unknown-seed "no seed 'seed002'" seed002
usage two-seeds "takes one seed" seed000 seed001
usage bad-flag "unknown flag '--bogus'" seed000 --bogus 1
usage flag-no-value "needs a value" seed000 --out
usage bad-cost "expected none, linux61, era2003 and/or era2007" seed003 --cost fast
usage bad-only "seed001 has no table 'tbench'" seed001 --only tbench
# the era names pass the --cost check (the next check, --runs, is what fails)
usage era-costs-accepted "expected a number >= 1" seed003 --cost none,era2003,era2007 --runs 0
usage bad-runs "expected a number >= 1" seed001 --runs 0
usage groups-zero "INCREMENT:MAXIMUM" seed000 --groups 0:5
usage groups-order "INCREMENT:MAXIMUM" seed000 --groups 50:25
usage groups-junk "INCREMENT:MAXIMUM" seed000 --groups 25:x
usage groups-too-many "at most 64" seed000 --groups 1:100
usage groups-wrong-seed "goes with seed000" seed003 --groups 25:200
# --machine: a preset of make list-machines (kernel/machine/presets.c), under vsmp
usage machine-unknown "--machine core2-du: no such preset (did you mean core2-duo?" seed001 --machine core2-du
usage machine-needs-vsmp "--machine core2-duo needs --accel vsmp" seed001 --machine core2-duo --accel tcg
usage machine-twice "--machine none,none: none twice" seed001 --machine none,none
"$SL" run --sched rr --bench pipe --caches 2 --engine none --out "$D/caches2" >"$D/last.log" 2>&1
rc=$?
ok_if run-caches-bad "run --caches 2 exited $rc (want 2 with 'expected 0, 1 or host')" sh -c "[ $rc = 2 ] && grep -q -- '--caches 2: expected 0, 1 or host' '$D/last.log'"
"$SL" reproduce seed001 --only pipe --machine core2-duo --estimate >"$D/last.log" 2>&1
rc=$?
ok_if reproduce-machine-estimate "--machine core2-duo --estimate exited $rc or does not name the machine" \
    sh -c "[ $rc = 0 ] && grep -q '^reproduce seed001 (vsmp, quick sizes, machine=core2-duo): 6 boots' '$D/last.log'"
# --model guest|host: where --machine's model runs; with a preset only, one of the two
usage model-bad "--model hots: expected guest or host" seed001 --machine core2-duo --model hots
usage model-near "did you mean host?" seed001 --machine core2-duo --model hots
usage model-needs-machine "--model host goes with --machine PRESET" seed001 --model host
usage model-guest-needs-machine "--model guest goes with --machine PRESET" seed001 --model guest
usage model-machine-none "--model host goes with --machine PRESET" seed001 --machine none --model host
usage model-no-value "--model needs a value (got the flag --estimate)" seed001 --machine core2-duo --model --estimate
# the estimate names the model; the boot lines it looks up carry model=host, so a guest boot's record is never taken
# for a host boot's (and none,PRESET runs the none reproduction without --model)
"$SL" reproduce seed001 --only pipe --machine core2-duo --model host --estimate >"$D/last.log" 2>&1
rc=$?
ok_if reproduce-model-estimate "--model host --estimate exited $rc or does not name the model" \
    sh -c "[ $rc = 0 ] && grep -q '^reproduce seed001 (vsmp, quick sizes, machine=core2-duo model=host): 6 boots' '$D/last.log'"
"$SL" reproduce seed001 --only pipe --machine none,core2-duo --model host --estimate >"$D/last.log" 2>&1
rc=$?
ok_if reproduce-model-list-estimate "--machine none,core2-duo --model host --estimate exited $rc, or a machine's estimate is missing" \
    sh -c "[ $rc = 0 ] && grep -q '^reproduce seed001 (vsmp, quick sizes): 6 boots' '$D/last.log' &&
           grep -q '^reproduce seed001 (vsmp, quick sizes, machine=core2-duo model=host): 6 boots' '$D/last.log'"
# a QEMU the plugin cannot run in (faked on PATH): qemu-run.sh's reason, exit 1, nothing built or written
mkdir -p "$D/qemu8" "$D/qemu72"
printf '#!/bin/sh\necho "QEMU emulator version 8.2.2 (fake)"\n' >"$D/qemu8/qemu-system-i386"
printf '#!/bin/sh\ncase "$1" in --version) echo "QEMU emulator version 7.2.0 (fake)";; *) echo "qemu-system-i386: -plugin: invalid option" >&2;; esac\n' \
    >"$D/qemu72/qemu-system-i386"
chmod +x "$D/qemu8/qemu-system-i386" "$D/qemu72/qemu-system-i386"
PATH="$D/qemu8:$PATH" "$SL" reproduce seed001 --only pipe --machine core2-duo --model host --out "$D/q8" >"$D/last.log" 2>&1
rc=$?
ok_if reproduce-model-qemu-version "a QEMU 8.2 exited $rc (want 1 with qemu-run.sh's 'reads QEMU 7.2's clock internals'), or $D/q8 was made" \
    sh -c "[ $rc = 1 ] && grep -q \"model=host: the plugin reads QEMU 7.2's clock internals; this is QEMU emulator version 8.2.2\" '$D/last.log' && [ ! -e '$D/q8' ]"
PATH="$D/qemu72:$PATH" "$SL" reproduce seed001 --only pipe --machine core2-duo --model host --out "$D/q72" >"$D/last.log" 2>&1
rc=$?
ok_if reproduce-model-qemu-plugins "a QEMU 7.2 without plugins exited $rc (want 1 with 'no TCG plugin support'), or $D/q72 was made" \
    sh -c "[ $rc = 1 ] && grep -q 'model=host: this QEMU has no TCG plugin support' '$D/last.log' && [ ! -e '$D/q72' ]"
# --model guest is today's reproduction: nothing of model=host in its plan
"$SL" reproduce seed001 --only pipe --machine core2-duo --model guest --estimate >"$D/last.log" 2>&1
rc=$?
ok_if reproduce-model-guest-same "--model guest --estimate exited $rc or is not --machine core2-duo's estimate" \
    sh -c "[ $rc = 0 ] && grep -q '^reproduce seed001 (vsmp, quick sizes, machine=core2-duo): 6 boots' '$D/last.log'"

# ---- groups=INC:MAX in run (the STP form), checked before any boot
"$SL" run --sched o1 --bench hackbench --groups 25:200 --engine none --out "$D/inc" >"$D/last.log" 2>&1
ok_if run-groups-inc-max "run --groups 25:200 is not groups=25,50,...,200 in matrix.txt" \
    grep -q '^cmdline bench=hackbench groups=25,50,75,100,125,150,175,200$' "$D/inc/matrix.txt"
"$SL" run --sched o1 --bench hackbench --groups 30:20 --engine none --out "$D/inc2" >"$D/last.log" 2>&1
rc=$?
ok_if run-groups-inc-max-bad "run --groups 30:20 exited $rc (want 2)" sh -c "[ $rc = 2 ] && grep -q INCREMENT:MAXIMUM '$D/last.log'"

# ---- one program, one job pool: tools/schedlab is a wrapper of the program
# (at most 30 lines), and no shell job pool is left in the tree (the pool is
# tools/src/run/pool.c, tested by tests/host/test_pool.c)
cp "$SL" "$D/last.log"
ok_if one-program "tools/schedlab is not a wrapper of at most 30 lines that runs build/tools/schedlab, or a shell pool is left" \
    sh -c '[ "$(wc -l <"$1")" -le 30 ] && grep -q "exec \"\$ROOT/build/tools/schedlab\"" "$1" &&
           ! grep -rq "shared_slot_\|SCHEDLAB_SHARED_SLOTS" "$2/tools"' _ "$SL" "$ROOT"

# ---- the scorecard of fixed inputs: the fixture run-a (goodness, o1; 1 and 2 CPUs; groups 50, 100)
A="$D/run-a"
cp -r "$ROOT/tests/tools/run-a" "$A"
"$TOOL" collect "$A" >"$D/last.log" 2>&1
"$TOOL" scorecard seed000 hackbench "goodness=$A#goodness" "o1=$A#o1" --csv "$D/sc.csv" >"$D/sc.txt" 2>"$D/last.log"
rc=$?
cp "$D/sc.txt" "$D/last.log"
ok_if scorecard-exit0 "exit $rc" [ $rc = 0 ]
# o1/goodness at 1 CPU, 50 groups: 0.450 / 0.512 = 0.879 against the seed's 9.91 / 15.52 = 0.639: +37.6%
ok_if scorecard-cell "the 1 CPU col 1 ratio and its deviation" grep -Eq '1 CPU col 1: o1/goodness +0\.639 +0\.879 +\+37\.6' "$D/sc.txt"
ok_if scorecard-missing-cells "cells with no run are not listed as not measured" grep -q '4 CPU col 1: o1/goodness .*not measured' "$D/sc.txt"
ok_if scorecard-line "the machine-readable line" \
    grep -Eq '^scorecard seed=seed000 table=hackbench cost=none cells=8 median_dev_pct=[0-9.]+ worst_dev_pct=[0-9.]+ orderings_agree=[0-9]+/4 cells_missing=32$' "$D/sc.txt"
ok_if scorecard-csv "scorecard.csv has no header or rows" sh -c "head -1 '$D/sc.csv' | grep -q '^seed,table,cost,machine,kind,label' && [ \$(grep -c ',cell,' '$D/sc.csv') = 40 ]"
"$TOOL" scorecard seed000 hackbench "goodness=$A" "o1=$A#o1" >"$D/last.log" 2>&1
ok_if scorecard-mixed-dir "a directory with two schedulers is not refused for the row" grep -q 'holds runs of several schedulers' "$D/last.log"
"$TOOL" scorecard seed000 hackbench "goodness=$A#goodness" "o1=!sched/o1.c does not exist" >"$D/sc2.txt" 2>"$D/last.log"
cp "$D/sc2.txt" "$D/last.log"
ok_if scorecard-not-available "the row without a kernel has no 'not available' line or its cells are counted" \
    sh -c "grep -q 'o1 .*not available: sched/o1.c does not exist' '$D/sc2.txt' && grep -q 'cells=2 .*cells_missing=38\$' '$D/sc2.txt'"
"$TOOL" scorecard seed000 hackbench "goodness=$A#goodness" "o1=$A#o1" --cost linux61 >"$D/last.log" 2>&1
rc=$?
ok_if scorecard-cost-checked "--cost linux61 over runs without cost= exited $rc (want 1: the runs say none)" \
    sh -c "[ $rc = 1 ] && grep -q 'recorded cost=none' '$D/last.log'"
"$TOOL" scorecard seed000 hackbench "goodness=$A#goodness" "o1=$A#o1" --machine core2-duo >"$D/last.log" 2>&1
rc=$?
ok_if scorecard-machine-checked "--machine core2-duo over runs without machine= exited $rc (want 1: the runs booted none)" \
    sh -c "[ $rc = 1 ] && grep -q 'booted machine=none' '$D/last.log'"
"$TOOL" scorecard seed000 hackbench "goodness=$A#goodness" "o1=$A#o1" --model host >"$D/last.log" 2>&1
rc=$?
ok_if scorecard-model-needs-machine "--model host without --machine exited $rc (want 2)" \
    sh -c "[ $rc = 2 ] && grep -q -- '--model host goes with --machine PRESET' '$D/last.log'"
"$TOOL" scorecard seed000 hackbench "goodness=$A#goodness" "o1=$A#o1" --machine none --model hots >"$D/last.log" 2>&1
rc=$?
ok_if scorecard-model-bad "--model hots exited $rc (want 2)" sh -c "[ $rc = 2 ] && grep -q -- '--model hots: expected guest or host' '$D/last.log'"
# the fixture's boot lines with machine=core2-duo (a model in the guest: no model=): --model host is refused, guest named as before
M="$D/run-m"
cp -r "$ROOT/tests/tools/run-a" "$M"
sed -i 's/^boot: cpus=/boot: machine=core2-duo cpus=/' "$M"/logs/*.log
"$TOOL" collect "$M" >"$D/last.log" 2>&1
"$TOOL" scorecard seed000 hackbench "goodness=$M#goodness" "o1=$M#o1" --machine core2-duo --model host >"$D/last.log" 2>&1
rc=$?
ok_if scorecard-model-checked "--model host over runs without model=host exited $rc (want 1)" \
    sh -c "[ $rc = 1 ] && grep -q -- '--model host, but the runs' '$D/last.log'"
"$TOOL" scorecard seed000 hackbench "goodness=$M#goodness" "o1=$M#o1" --machine core2-duo >"$D/last.log" 2>&1
rc=$?
ok_if scorecard-model-guest-line "--machine core2-duo (guest) exited $rc or its line is not as before (machine=core2-duo at its end)" \
    sh -c "[ $rc = 0 ] && grep -Eq '^scorecard seed=seed000 table=hackbench .* machine=core2-duo$' '$D/last.log'"
sed -i 's/^boot: machine=core2-duo /boot: machine=core2-duo model=host /' "$M"/logs/*.log
"$TOOL" collect "$M" >"$D/last.log" 2>&1
"$TOOL" scorecard seed000 hackbench "goodness=$M#goodness" "o1=$M#o1" --machine core2-duo --model host --csv "$D/scm.csv" >"$D/last.log" 2>&1
rc=$?
ok_if scorecard-model-host-line "--model host over model=host runs exited $rc, or the title, line or CSV does not say model=host" \
    sh -c "[ $rc = 0 ] && grep -q '(cost=none, machine=core2-duo model=host)' '$D/last.log' &&
           grep -Eq '^scorecard seed=seed000 table=hackbench .* machine=core2-duo model=host$' '$D/last.log' &&
           grep -q '^seed000,hackbench,none,core2-duo model=host,cell,' '$D/scm.csv'"
"$TOOL" scorecard seed000 hackbench "goodness=$M#goodness" "o1=$M#o1" --machine core2-duo >"$D/last.log" 2>&1
rc=$?
ok_if scorecard-model-guest-checked "--model guest (the default) over model=host runs exited $rc (want 1)" \
    sh -c "[ $rc = 1 ] && grep -q -- '--model guest, but the runs' '$D/last.log'"
"$TOOL" scorecard seed009 hackbench "o1=$A" >"$D/last.log" 2>&1
rc=$?
ok_if scorecard-unknown-seed "exit $rc (want 2)" [ $rc = 2 ]
"$TOOL" scorecard seed001 pipe "nick=$A" >"$D/last.log" 2>&1
rc=$?
ok_if scorecard-unknown-row "exit $rc (want 2) for a row seed001 does not have" sh -c "[ $rc = 2 ] && grep -q \"no row 'nick'\" '$D/last.log'"

# ---- the cost= key: recorded on the result line, and a malformed value refused
build cfs >"$D/last.log" 2>&1
K=$(make -s -C "$ROOT" SCHED=cfs print-build)/kernel.elf
"$ROOT/tools/qemu-run.sh" --kernel "$ROOT/$K" --smp 1 --timeout 120 --cmdline 'bench=pipe loops=200 cost=linux61' >"$D/cost.log" 2>&1
cp "$D/cost.log" "$D/last.log"
ok_if cost-recorded "cost=linux61 is not on the result line" grep -q '^result bench=pipe .* cost=linux61 .*status=ok' "$D/cost.log"
"$ROOT/tools/qemu-run.sh" --kernel "$ROOT/$K" --smp 1 --timeout 120 --cmdline 'bench=pipe loops=200 cost=fast' >"$D/cost2.log" 2>&1
rc=$?
cp "$D/cost2.log" "$D/last.log"
ok_if cost-bad-value "cost=fast exited $rc (want 1 with an error line)" sh -c "[ $rc = 1 ] && grep -q '^error: cost=fast' '$D/cost2.log'"

# ---- one tiny real reproduction: seed001 pipe (rc1 and rc6 need sched/cfs23.c), in the
# default configuration (vsmp, quick sizes) but two runs per cell
"$SL" reproduce seed001 --only pipe --runs 2 --out "$D/r001" >"$D/r001.out" 2>"$D/r001.err"
rc=$?
cat "$D/r001.out" "$D/r001.err" >"$D/last.log"
ok_if reproduce-lines "not one scorecard line per table (pipe, pipe-bound)" \
    sh -c "[ \$(grep '^scorecard seed=seed001 table=pipe' '$D/r001.out' | sort -u | wc -l) = 2 ]"
ok_if reproduce-default-config-said "no 'configuration: accel=vsmp sizes=quick ... runs=2' line (the default accel, runs given)" \
    sh -c "grep -q '^reproduce: seed001 configuration: accel=vsmp sizes=quick cost=none machine=none runs=2 timeout=480 (the default: ' '$D/r001.err' &&
           head -1 '$D/r001/scorecard.txt' | grep -q '^# seed001 configuration: accel=vsmp '"
ok_if reproduce-files "no scorecard.txt, scorecard.csv, report.html or plots" \
    sh -c "[ -s '$D/r001/scorecard.txt' ] && [ -s '$D/r001/scorecard.csv' ] && grep -q '<svg' '$D/r001/report.html' &&
           [ -s '$D/r001/plots/seed001-none-pipe-kernels.png' ] && [ -s '$D/r001/plots/seed001-none-pipe-bound-bound-over-unbound.svg' ]"
# every table's header says what ran, here and in the post, and what the scorecard compares
ok_if reproduce-header-sizes "the pipe table's header does not name the sizes run and the post's" \
    sh -c "grep -q '^measured here: pipe, round trips 20000; 2 runs a cell; 2 CPUs; accel=vsmp; cost=none' '$D/r001/cost-none/pipe.txt' &&
           grep -q '^the post:      pipe, round trips 1000000 (pipe-test.s); 10 runs a cell; 2 CPUs' '$D/r001/cost-none/pipe.txt' &&
           grep -q '^compared: ' '$D/r001/cost-none/pipe.txt' &&
           grep -q '^measured here: pipe, round trips 20000, bound to CPU 0;' '$D/r001/cost-none/pipe-bound.txt'"
# progress: the status line, plain lines on a file (no terminal), and its last line
ok_if reproduce-progress "no 'reproduce seed001 (vsmp, quick sizes): 6/6 boots done in' line on stderr" \
    grep -q '^reproduce seed001 (vsmp, quick sizes): 6/6 boots done in [0-9]*:[0-9][0-9]$' "$D/r001.err"
"$SL" reproduce seed001 --only pipe --runs 2 --estimate >"$D/est.out" 2>&1
cp "$D/est.out" "$D/last.log"
ok_if reproduce-estimate "--estimate does not give the boots and a time from the records of the run before" \
    grep -Eq '^reproduce seed001 \(vsmp, quick sizes\): 6 boots; about [0-9]+:[0-9]{2}, as whole runs of these boots took here \(the latest 20[0-9-]{8}, load [0-9.]+-[0-9.]+; build/boot-times.txt\)( \(the boots alone: [0-9]+:[0-9]{2} on 2 host cores\))?$' "$D/est.out"
# the plan charges each boot the cores the pool does (pool_charge): under TCG one a vCPU, one
# fewer than the host's cores when its vCPUs outnumber them; one under vsmp (an ETA that
# charged seed000's 8-CPU maxgroups boots two cores said 8:50 for a 7:46 run)
_c=$(nproc); _want=
for _s in 1 2 4 8; do
    if [ "$_s" -le "$_c" ]; then _w=$_s; elif [ "$_c" -gt 1 ]; then _w=$((_c - 1)); else _w=1; fi
    _want="$_want${_want:+,}$_w"
done
"$TOOL" plan row "$D/planrow" --sched goodness --smp 1,2,4,8 --accel tcg >"$D/planrow.out" 2>&1
ok_if reproduce-plan-charges "the plan's cores for TCG boots of 1, 2, 4, 8 vCPUs on $_c cores are not $_want: $(cut -f3 "$D/planrow.out" | paste -sd, -)" \
    test "$(cut -f3 "$D/planrow.out" | paste -sd, -)" = "$_want"
# one pool for every row: on 2 or more cores, boots of different rows ran at
# the same time (each boot's span: its .rc's time less its wall_ms)
spans() { for _rcf in "$D"/r001/cost-none/*/*/logs/*.rc; do
    row=$(basename "$(dirname "$(dirname "$_rcf")")")/$(basename "$(dirname "$(dirname "$(dirname "$_rcf")")")")
    end=$(stat -c %.3Y "$_rcf") ms=$(sed -n 's/.*wall_ms=\([0-9]*\).*/\1/p' "$_rcf")
    echo "$row $(awk -v e="$end" -v m="${ms:-0}" 'BEGIN { printf "%.3f %.3f", e - m / 1000, e }')"; done; }
spans >"$D/spans"
cp "$D/spans" "$D/last.log"
if [ "$(nproc)" -gt 1 ]; then
    ok_if reproduce-rows-share-one-pool "no two boots of different rows overlapped" \
        awk '{ row[NR] = $1; s[NR] = $2; e[NR] = $3 } END { for (i = 1; i <= NR; i++) for (j = i + 1; j <= NR; j++)
             if (row[i] != row[j] && s[i] < e[j] && s[j] < e[i]) exit 0; exit 1 }' "$D/spans"
else
    skip reproduce-rows-share-one-pool "one core: one boot at a time"
fi
ok_if reproduce-notes "no notes under the pipe scorecard (tools/reproduce-notes.txt)" \
    sh -c "grep -q '^notes (tools/reproduce-notes.txt' '$D/r001/scorecard.txt' && grep -q 'wake_idle' '$D/r001/cost-none/pipe.txt'"
# a build setting (here an inert -D) changes every number: the
# configuration line names it, on stderr and in scorecard.txt
CFLAGS_EXTRA=-DREPRODUCE_SAYS_BUILD "$SL" reproduce seed003 --only volano --out "$D/rbuild" >"$D/rbuild.out" 2>"$D/rbuild.err"
cat "$D/rbuild.out" "$D/rbuild.err" >"$D/last.log"
ok_if reproduce-build-said "no build='HZ=1000 LOCK=tas CFLAGS_EXTRA=-DREPRODUCE_SAYS_BUILD' in the configuration line, or it calls that the default" \
    sh -c "grep -q \"^reproduce: seed003 configuration: .* timeout=480 build='HZ=1000 LOCK=tas CFLAGS_EXTRA=-DREPRODUCE_SAYS_BUILD' (the default accelerator and sizes with another build: \" '$D/rbuild.err' &&
           head -1 '$D/rbuild/scorecard.txt' | grep -q \"build='HZ=1000 LOCK=tas CFLAGS_EXTRA=-DREPRODUCE_SAYS_BUILD'\""
# seed003's -aa row is sched/dynsched.c (preset aa): measured, never "not available"
ok_if reproduce-aa-row-measured "seed003's dyn-sched row is not available or has no value" \
    sh -c "! grep -q 'not available' '$D/rbuild/cost-none/volano.txt' && grep -Eq '^   dyn-sched +rooms=[0-9]+: +[0-9]+' '$D/rbuild/cost-none/volano.txt'"
missing_notes=""
for t in "seed000 hackbench" "seed000 maxgroups" "seed000 nick" "seed001 lat_ctx" "seed001 lat_ctx-bound" \
         "seed001 hackbench" "seed001 hackbench-bound" "seed001 pipe" "seed001 pipe-bound" \
         "seed003 tbench" "seed003 aim7" "seed003 volano"; do
    grep -q "^$t: " "$ROOT/tools/reproduce-notes.txt" || missing_notes="$missing_notes, $t"
done
ok_if reproduce-notes-every-table "no note for${missing_notes#,}" [ -z "$missing_notes" ]
ok_if reproduce-cfs-row "the cfs row has no run values" grep -Eq '^  1 +([0-9.]+|-) +([0-9.]+|-) +[0-9]' "$D/r001/cost-none/pipe.txt"
# The post's unbound pipe-test ran on both cores of its dual core (slower
# than bound: each hand-off crossed over, 2.6.23's wake_idle); every
# unbound row here must use both CPUs (cpus_used=0x3) and every bound row one.
ok_if reproduce-unbound-rows-on-both-cpus "an unbound pipe row of seed001 did not use both CPUs (the table's cpus line)" \
    grep -Eq '^  cpus +0x3 +0x3 +0x3 ' "$D/r001/cost-none/pipe.txt"
ok_if reproduce-bound-rows-on-one-cpu "a bound pipe row of seed001 used more than CPU 0 (the table's cpus line)" \
    grep -Eq '^  cpus +0x1 +0x1 +0x1 ' "$D/r001/cost-none/pipe-bound.txt"
if [ -f "$ROOT/sched/cfs23.c" ]; then
    ok_if reproduce-rc-rows "rc1 and rc6 have no run values, or exit $rc (want 0)" \
        sh -c "[ $rc = 0 ] && grep -Eq '^  1 +[0-9.]+ +[0-9.]+ +[0-9.]+ ' '$D/r001/cost-none/pipe.txt' && ! grep -q 'not available' '$D/r001/cost-none/pipe.txt'"
else
    ok_if reproduce-not-available "no 'not available' line for rc1, or exit $rc (want 1)" \
        sh -c "[ $rc = 1 ] && grep -q 'rc1 .*not available: sched/cfs23.c does not exist' '$D/r001/cost-none/pipe.txt' && grep -q 'cells=0 .*cells_missing=2' '$D/r001/cost-none/pipe.txt'"
fi
# ---- a stop (SIGTERM; SIGINT takes the same path, but a test suite run in
# the background has SIGINT ignored) while the rows run side by side stops
# every row and its boots
# stop_run OUT READY ARGS...: `schedlab reproduce ARGS --out OUT` in a
# session of its own; once READY exists (however long the kernels take to
# build on this host), SIGTERM to reproduce itself alone, then wait for
# every process of OUT to end; $left is how many did not.  -o: the oldest,
# reproduce itself; its row subshells have the same command line, and once
# PIDs wrap (pid_max 32768) one can have the lowest number: stopping it
# alone let the run finish.
stop_run() {
    out=$1 ready=$2
    shift 2
    setsid sh -c "exec '$SL' reproduce $* --out '$out' >'$out.out' 2>'$out.err'" &
    waited=0 limit=$(boot_limit 120)
    while [ ! -e "$ready" ] && [ $waited -lt "$limit" ]; do sleep 1; waited=$((waited + 1)); done
    pg=$(pgrep -o -f "reproduce $* --out $out")
    [ -z "$pg" ] || kill -TERM "$pg" 2>/dev/null
    waited=0 limit=$(boot_limit 60)
    while [ "$(pgrep -f "$out" | wc -l)" -gt 0 ] && [ $waited -lt "$limit" ]; do sleep 1; waited=$((waited + 1)); done
    cp "$out.err" "$D/last.log"
    left=$(pgrep -f "$out" | wc -l)
}
if command -v setsid >/dev/null 2>&1; then
    # both rows started (the o1 row's messages file appears after the stop
    # is trapped)
    stop_run "$D/rint" "$D/rint/cost-none/hackbench/o1.err" seed000 --only hackbench
    ok_if reproduce-stop-stops-rows "after SIGTERM: $left processes left, or no 'interrupted; stopping the rows' line" \
        sh -c "[ $left = 0 ] && grep -q 'interrupted; stopping the rows that run' '$D/rint.err'"
    pkill -f "$D/rint" 2>/dev/null
else
    skip reproduce-stop-stops-rows "no setsid(1)"
fi
# ---- the memory model in a reproduction (make test-long): seed001's pipe
# tables without and with the Core 2 Duo's caches, side by side; every row
# of the second a CACHES=1 image, the machine on every boot line, result
# row, table header and scorecard line
if long_only "reproduce --machine none,core2-duo (CACHES=1 builds)"; then
    "$SL" reproduce seed001 --only pipe --machine none,core2-duo --out "$D/rm0" >"$D/rm.out" 2>"$D/rm.err"
    rc=$?
    cat "$D/rm.out" "$D/rm.err" >"$D/last.log"
    ok_if reproduce-machine-exit0 "exit $rc (want 0)" [ $rc = 0 ]
    # each table's line comes twice: under its table and in the summary at the end
    ok_if reproduce-machine-lines "not two distinct scorecard lines ending in machine=core2-duo" \
        sh -c "[ \$(grep '^scorecard seed=seed001 table=pipe.* machine=core2-duo\$' '$D/rm.out' | sort -u | wc -l) = 2 ]"
    ok_if reproduce-machine-side-by-side "no side-by-side line of pipe-bound with both machines' medians" \
        grep -Eq '^  pipe-bound \(none\) +[0-9.]+ / +[0-9.]+  [0-9]/3 +[0-9.]+ / +[0-9.]+  [0-9]/3$' "$D/rm0/side-by-side.txt"
    ln -s "$D/rm0/machine-core2-duo" "$D/rm"
    ok_if reproduce-machine-header "the table's header or the configuration does not name the machine" \
        sh -c "grep -q '^== seed001 pipe, cost=none, machine=core2-duo ' '$D/rm/scorecard.txt' &&
               head -1 '$D/rm/scorecard.txt' | grep -q 'machine=core2-duo (CACHES=1 images)'"
    ok_if reproduce-machine-rows "a result row or boot of the pipe table lacks machine=core2-duo, or a row ran a plain image" \
        sh -c "for r in '$D'/rm/cost-none/pipe/*/; do grep -q 'machine=core2-duo' \"\$r\"logs/*.log &&
               grep -q 'CACHES=1' \"\$r\"kernels/*.flags && head -1 \"\$r\"results.csv | grep -q boot_machine || exit 1; done"
    ok_if reproduce-machine-csv "scorecard.csv's cells do not carry machine core2-duo in its machine column" \
        sh -c "head -1 '$D/rm/scorecard.csv' | grep -q '^seed,table,cost,machine,' && grep -q '^seed001,pipe,none,core2-duo,cell,' '$D/rm/scorecard.csv' &&
               ! grep ',cell,' '$D/rm/scorecard.csv' | grep -vq '^seed001,[a-z-]*,none,core2-duo,cell,'"
    # a SIGTERM to the side-by-side parent alone (a job control system's stop) reaches the reproduction it runs
    if command -v setsid >/dev/null 2>&1; then
        stop_run "$D/rm1" "$D/rm1/machine-none/cost-none/pipe" seed001 --only pipe --machine none,core2-duo
        ok_if reproduce-machine-stop "after SIGTERM to the side-by-side parent: $left processes left, or a machine after the stop started" \
            sh -c "[ $left = 0 ] && grep -q 'interrupted; stopping the rows that run' '$D/rm1.err' && [ ! -e '$D/rm1/machine-core2-duo' ]"
        pkill -f "$D/rm1" 2>/dev/null
    else
        skip reproduce-machine-stop "no setsid(1)"
    fi
fi
# ---- the host model in a reproduction (make test-long): seed001's pipe tables with the Core 2 Duo's caches run by
# the QEMU plugin: every row a make CACHES=host image with its link map, model=host on every boot line, the memstat
# lines the plugin writes, model=host in the configuration, the headers, the scorecard lines and the CSV
if long_only "reproduce --machine core2-duo --model host (CACHES=host builds, QEMU 7.2 with plugins)"; then
    HM_NAMES="exit0 config header lines rows csv"
    ver=$(qemu-system-i386 --version 2>/dev/null | head -1)
    why=
    case "$ver" in "QEMU emulator version 7.2"*) ;; *) why="model=host needs QEMU 7.2; this QEMU: ${ver:-none}" ;; esac
    [ -n "$why" ] || ! qemu-system-i386 -plugin help </dev/null 2>&1 | grep -qi "invalid option\|unsupported\|not compiled" ||
        why="this QEMU has no TCG plugin support"
    if [ -n "$why" ]; then
        for n in $HM_NAMES; do skip "reproduce-model-host-$n" "$why"; done
    else
        "$SL" reproduce seed001 --only pipe --machine core2-duo --model host --out "$D/rh" >"$D/rh.out" 2>"$D/rh.err"
        rc=$?
        cat "$D/rh.out" "$D/rh.err" >"$D/last.log"
        ok_if reproduce-model-host-exit0 "exit $rc (want 0)" [ $rc = 0 ]
        ok_if reproduce-model-host-config "the configuration line does not say model=host and CACHES=host images" \
            sh -c "head -1 '$D/rh/scorecard.txt' | grep -q 'machine=core2-duo model=host (CACHES=host images'"
        ok_if reproduce-model-host-header "the table's header does not name the model" \
            grep -q '^== seed001 pipe, cost=none, machine=core2-duo model=host ' "$D/rh/scorecard.txt"
        ok_if reproduce-model-host-lines "not two distinct scorecard lines ending in machine=core2-duo model=host" \
            sh -c "[ \$(grep '^scorecard seed=seed001 table=pipe.* machine=core2-duo model=host\$' '$D/rh.out' | sort -u | wc -l) = 2 ]"
        ok_if reproduce-model-host-rows "a row did not boot a CACHES=host image with its link map and model=host, or has no memstat lines" \
            sh -c "for r in '$D'/rh/cost-none/pipe*/*/; do grep -q 'CACHES=host' \"\$r\"kernels/*.flags &&
                   [ -s \"\$r\"kernels/*/kernel.map ] && grep -q '^boot: .* machine=core2-duo model=host ' \"\$r\"logs/*.log &&
                   grep -q '^memstat model=host cpu=1 ' \"\$r\"logs/*.log && head -1 \"\$r\"results.csv | grep -q boot_model || exit 1; done"
        ok_if reproduce-model-host-csv "scorecard.csv's cells do not say core2-duo model=host in the machine column" \
            grep -q '^seed001,pipe,none,core2-duo model=host,cell,' "$D/rh/scorecard.csv"
    fi
fi
rm -rf "$D"
