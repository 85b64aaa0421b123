#!/bin/sh
# Lost ticks said aloud (docs/usage.md "Lost ticks"): every CPU's schedstat
# line carries ticks_expected= from its own clock; under vsmp and icount a
# CPU takes every tick it expects (one fewer at most: the last period may
# not have ended) and the console has no "ticks:" line; a boot that lost
# more than a tenth gets ticks_lost_pct on its result rows, and table and
# compare warn beside the numbers.  How many ticks TCG loses depends on the
# host, so no TCG loss is asserted: the lost boot is a real log with its
# ticks= changed.
. "$(dirname "$0")/../lib.sh"
plan 17
S=$(make -s -C "$ROOT" print-default-sched)
build "$S" || exit 1

# every CPU took what its clock expected: the check holds on a log
all_ticks_taken() {
    tools_built && "$SCHEDLAB_BIN" parse "$1" --kind schedstat --format tsv |
        awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
             { t = $c["ticks"]; e = $c["ticks_expected"]; n++; if (t == "" || e < 10 || t < e - 1 || t > e + 1) bad++ }
             END { exit !(n > 0 && !bad) }'
}
# lose_ticks LOG PERCENT: cpu 0's schedstat line keeps PERCENT of the ticks its clock expected
lose_ticks() {
    _e=$(proto_field ticks_expected --kind schedstat --where cpu=0 "$1" | head -1)
    _t=$(proto_field ticks --kind schedstat --where cpu=0 "$1" | head -1)
    sed -i "/^schedstat cpu=0 /s/ ticks=$_t / ticks=$((_e * $2 / 100)) /" "$1"
}

for accel in vsmp icount; do
    smp=2
    [ "$accel" = icount ] && smp=1
    boot "$S" "$smp" 'bench=hackbench groups=10 loops=20' 256 60 "$accel"
    check "ticks-$accel-ok" [ "$RC" = 0 ]
    expect "ticks-$accel-schedstat-fields" '^schedstat cpu=0 .* busy_us=[0-9]+ idle_us=[0-9]+ ticks_expected=[0-9]+$'
    check "ticks-$accel-none-lost" all_ticks_taken "$OUT"
    expect_not "ticks-$accel-no-warning" '^ticks: '
done

# A matrix, and the same boot's log with half its ticks taken away.
D="$TMP/lost-ticks"
"$ROOT/tools/schedlab" run --sched "$S" --smp 2 --accel vsmp --bench hackbench --groups 10 --loops 20 --boots 2 --out "$D" \
    >"$TMP/lost-run.out" 2>&1
RC=$? OUT="$TMP/lost-run.out"
check "ticks-matrix-ok" [ "$RC" = 0 ]
OUT="$D/results.csv"
expect_not "ticks-vsmp-rows-unmarked" 'ticks_lost_pct'
log="$D/logs/$S-smp2-boot2.log"
lose_ticks "$log" 50
"$ROOT/tools/schedlab" collect "$D" >/dev/null 2>&1
OUT="$D/results.csv"
check "ticks-lost-row-marked" awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "ticks_lost_pct") c = i }
    NR > 1 && c && $c ~ /^5[0-9]\.[0-9]$/ { n++ } NR > 1 && c && $c != "" && $c !~ /^5[0-9]\.[0-9]$/ { bad++ }
    END { exit !(n == 1 && !bad) }' "$D/results.csv"
OUT="$D/schedstat.csv"
expect "ticks-schedstat-column" 'ticks_lost_pct'
for verb in table compare; do
    "$ROOT/tools/schedlab" "$verb" "$D" >"$TMP/lost-$verb.out" 2>&1
    OUT="$TMP/lost-$verb.out"
    expect "ticks-$verb-warns" "^warning: boot $S-smp2-boot2 lost 5[0-9]\\.[0-9]% of its timer ticks \\(ACCEL=vsmp on a loaded host\\): its timings are unreliable; ACCEL=vsmp is not affected$"
    expect_not "ticks-$verb-warns-only-that-boot" "^warning: boot $S-smp2-boot1 "
done
# A loss of a twentieth is no warning.
lose_ticks "$log" 95
"$ROOT/tools/schedlab" collect "$D" >/dev/null 2>&1
"$ROOT/tools/schedlab" table "$D" >"$TMP/lost-table2.out" 2>&1
OUT="$TMP/lost-table2.out"
expect_not "ticks-small-loss-no-warning" '^warning: boot '
