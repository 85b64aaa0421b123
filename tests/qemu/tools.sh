# End to end: tools/schedlab runs a tiny matrix under TCG and turns it into
# a CSV, a seed-style table, comparisons, PNG/SVG plots and an HTML report;
# a boot killed by its timeout becomes failed rows; bad arguments and bad
# input give errors, never crashes.  About a minute on a 2-core host.
. "$(dirname "$0")/../lib.sh"
plan 112

SL="$ROOT/tools/schedlab"
D="$TMP/tools.$$"
mkdir -p "$D"
csv_col() {  # csv_col FILE NAME: the values of column NAME (no quoted commas in these files)
    awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i; next } c { print $c }' "$1"
}

make -s -C "$ROOT" tools >"$D/last.log" 2>&1
ok_if tools-build "make tools failed" [ -x "$ROOT/build/tools/schedlab" ]

# --- the synthetic fixture directory (no QEMU): known values, a timed-out boot
R="$D/fixture"
cp -r "$ROOT/tests/tools/run-a" "$R"
"$SL" collect "$R" >"$D/last.log" 2>&1
ok_if tools-fixture-collect "collect of tests/tools/run-a failed" grep -q 'collect: 8 boots (1 failed), 48 result rows (44 ok, 4 not ok)' "$D/last.log"
"$SL" compare "$R" --base goodness >"$D/last.log" 2>&1
ok_if tools-fixture-significant "o1's 45% lower mean at 100 groups is not marked significant" \
    grep -qE '^Amean +groups-100 +1\.6283 \(   0\.00%\) +0\.8880 \*  45\.47%\*$' "$D/last.log"
ok_if tools-fixture-welch-p "no p-value marked signif." grep -qE '^Welch-p +groups-100 +base +[0-9.e-]+ signif\.' "$D/last.log"
ok_if tools-fixture-failed-runs "the timed-out boot's runs are not counted as failed" \
    grep -qE '^Runs +groups-100 +6 ok in 2 boots +4 ok, 2 FAILED in 2 boots$' "$D/last.log"
"$SL" table "$R" >"$D/last.log" 2>&1
ok_if tools-fixture-table "the 2-CPU o1 cells are not marked" grep -qE '^   o1 +0\.227\* +0\.456\*$' "$D/last.log"
ok_if tools-fixture-ratio "no o1/goodness ratio line" grep -qE '^   o1/goodness +0\.88 +0\.55$' "$D/last.log"

# --- every verb answers --help; --flag=value is --flag value
TOOL="$ROOT/build/tools/schedlab"
for verb in collect parse table compare plot failures seed-table; do
    "$TOOL" $verb --help >"$D/last.log" 2>&1
    rc=$?
    ok_if "tools-help-$verb" "--help exited $rc or printed no usage" sh -c "[ $rc = 0 ] && grep -q '^usage: schedlab $verb' '$D/last.log'"
done
"$TOOL" table --metric=time_s --across=groups "$R" >"$D/eq.out" 2>&1
"$TOOL" table --metric time_s --across groups "$R" >"$D/last.log" 2>&1
ok_if tools-opt-equals "--metric=time_s and --metric time_s differ" cmp -s "$D/eq.out" "$D/last.log"

# --- bad input never gives a silent wrong number (each of these passed silently once)
HDR='sched,smp,boot,run,bench,groups,time_s,cpus,status,reason,oversubscribed,log'
rows() {  # rows DIR GOODNESS-PREFIX O1-PREFIX: a results.csv of 3 runs each, values PREFIX0..2
    mkdir -p "$1"
    { echo "$HDR"; for r in 0 1 2; do echo "goodness,1,1,$r,hackbench,10,$2$r,1,ok,,no,g"; echo "o1,1,1,$r,hackbench,10,$3$r,1,ok,,no,o"; done; } >"$1/results.csv"
}
rows "$D/huge" 1.5e7 2.5e8     # 1.5e70 .. 2.5e80: GSL aborted (SIGABRT) in Welch's test
"$TOOL" compare "$D/huge" --base goodness >"$D/last.log" 2>&1
rc=$?
ok_if tools-bad-huge-compare "compare of 1e80 values exited $rc, not 1 with an error naming the file and line" \
    sh -c "[ $rc = 1 ] && grep -q '^schedlab[ a-z-]*: error: .*huge/results.csv:2: time_s=1.5e70 is not a plausible value' '$D/last.log'"
rows "$D/huge100" 1.5e10 2.5e10   # 1.5e100: a 310-digit mean
"$TOOL" table "$D/huge100" >"$D/last.log" 2>&1
rc=$?
ok_if tools-bad-huge-table "table of 1e100 exited $rc or printed a line of 200+ characters" \
    sh -c "[ $rc = 1 ] && grep -q '^schedlab[ a-z-]*: error: .*results.csv:2: ' '$D/last.log' && ! grep -q '.\{200\}' '$D/last.log'"
rows "$D/neg" 1.5 -15.18        # a negative time was averaged into a "significant" -1105%
"$TOOL" compare "$D/neg" --base goodness >"$D/last.log" 2>&1
ok_if tools-bad-negative-compare "negative times are averaged in" \
    sh -c "grep -qE '^Runs +groups-10 +3 ok +0 ok, 3 FAILED' '$D/last.log' && ! grep -q 'signif' '$D/last.log' && grep -q 'non-positive time_s=-15.180' '$D/last.log'"
"$TOOL" failures "$D/neg" >"$D/last.log" 2>&1
ok_if tools-bad-negative-failures "failures does not list the negative times" \
    sh -c "grep -q '^3 of 6 runs did not end with status=ok' '$D/last.log' && grep -q 'status=failed: non-positive time_s=-15.181' '$D/last.log'"
mkdir -p "$D/quote"
printf '%s\n' "$HDR" 'rr,1,1,0,hackbench,10,0.5,1,ok,,no,r' 'rr,1,1,1,"hackbench,10,0.6,1,ok,,no,r' 'rr,1,1,2,hackbench,10,0.7,1,ok,,no,r' >"$D/quote/results.csv"
"$TOOL" table "$D/quote" >"$D/last.log" 2>&1
rc=$?
ok_if tools-bad-quote "an unterminated quote exited $rc, not 1 with the line" \
    sh -c "[ $rc = 1 ] && grep -q '^schedlab[ a-z-]*: error: .*results.csv: line 3: a quoted field' '$D/last.log'"
TR="$D/trunc"        # every boot timed out inside a result line, cut off before run=
cp -r "$ROOT/tests/tools/run-trunc" "$TR"
"$TOOL" collect "$TR" >"$D/last.log" 2>&1
ok_if tools-trunc-collect "the cut-off lines are counted as runs" \
    grep -q 'collect: 2 boots (2 failed), 12 result rows (2 ok, 10 not ok)' "$D/last.log"
cp "$TR/results.csv" "$D/last.log"
with_tasks=$(csv_col "$TR/results.csv" tasks_started | grep -c .) with_groups=$(csv_col "$TR/results.csv" groups | grep -c .)
ok_if tools-trunc-no-copies "$with_tasks rows have tasks_started (2 ran), $with_groups of 12 have groups" \
    sh -c "[ $with_tasks = 2 ] && [ $with_groups = 12 ]"
"$TOOL" table "$TR" >"$D/last.log" 2>&1
ok_if tools-trunc-table "the table does not say 6 runs per cell" grep -q 'of 6 runs per cell' "$D/last.log"
L="$D/longname"
mkdir -p "$L/logs"
printf 'cmdline bench=boot\nsweep\nsweep_boots\n' >"$L/matrix.txt"
printf 'rr-smp1-boot1 rr 1 1\nrr-smp1-%0260d-boot2 rr 1 2\n' 0 >"$L/jobs.txt"
"$TOOL" collect "$L" >"$D/last.log" 2>&1
rc=$?
ok_if tools-bad-long-job "a 270-character boot name exited $rc, not 1 naming jobs.txt:2" \
    sh -c "[ $rc = 1 ] && grep -q '^schedlab[ a-z-]*: error: .*jobs.txt:2: boot name of 274 characters' '$D/last.log'"
M="$D/hugematrix"
mkdir -p "$M/logs"
printf 'cmdline bench=hackbench runs=100000 groups=%s\nsweep groups\nsweep_boots\n' "$(seq -s, 1 300)" >"$M/matrix.txt"
printf 'rr-smp1-boot1 rr 1 1\n' >"$M/jobs.txt"
printf 'boot: cpus=1 sched=rr\n' >"$M/logs/rr-smp1-boot1.log"
( ulimit -v 1000000; timeout 60 "$TOOL" collect "$M" ) >"$D/last.log" 2>&1   # it once allocated 6.3 GB
rc=$?
ok_if tools-bad-huge-matrix "runs=100000 x 300 groups exited $rc, not 1 with the reason" \
    sh -c "[ $rc = 1 ] && grep -q '^schedlab[ a-z-]*: error: .*matrix.txt: runs=100000 is not a run count the kernel accepts' '$D/last.log'"

# --- the matrix: rr at 1 and 2 vCPUs, hackbench with two group counts, 2 runs per boot
A="$D/a"
"$SL" run --sched rr --smp 1,2 --bench hackbench --groups 2,4 --loops 10 --runs 2 --timeout "$(boot_limit 60)" --out "$A" \
    >"$D/run.out" 2>"$D/last.log"
rc=$?
ok_if tools-run-exit0 "run exited $rc" [ $rc = 0 ]
ok_if tools-run-progress "no progress lines on stderr (a done line per boot, the status line's last)" \
    sh -c "grep -q 'done.*2/2 done, 0 running' '$D/last.log' && grep -q '^schedlab run: 2/2 boots done in [0-9]*:[0-9][0-9]\$' '$D/last.log'"
ok_if tools-csv-exists "no results.csv" [ -s "$A/results.csv" ]
cp "$A/results.csv" "$D/last.log" 2>/dev/null
head -1 "$A/results.csv" | grep -q '^sched,smp,boot,run,bench,groups,.*time_s,.*status,reason,exit,oversubscribed,log,.*git_revision'
ok_if tools-csv-header "header lacks the fixed columns" [ $? = 0 ]
rows=$(($(wc -l <"$A/results.csv") - 1))
ok_if tools-csv-rows "expected 8 rows (2 smp x 2 runs x 2 groups), got $rows" [ "$rows" = 8 ]
ok_if tools-csv-all-ok "not every row is status=ok" [ "$(csv_col "$A/results.csv" status | sort -u)" = ok ]
ok_if tools-csv-smp "smp column is not {1,2}" [ "$(csv_col "$A/results.csv" smp | sort -u | tr '\n' ' ')" = "1 2 " ]
ok_if tools-csv-groups "groups column is not {2,4}" [ "$(csv_col "$A/results.csv" groups | sort -n | uniq -c | awk '{print $1 "x" $2}' | tr '\n' ' ')" = "4x2 4x4 " ]
bad_times=$(csv_col "$A/results.csv" time_s | grep -cvE '^[0-9]+\.[0-9]+$')
ok_if tools-csv-metric "time_s not a decimal in $bad_times rows" [ "$bad_times" = 0 ]
cp "$A/meta.txt" "$D/last.log" 2>/dev/null
for key in date git_revision qemu accel host_cpu_model host_cpus kernel_cmdline; do
    ok_if "tools-meta-$key" "meta.txt has no $key:" grep -q "^$key: ." "$A/meta.txt"
done
ok_if tools-meta-cmdline "the kernel command line is not recorded exactly" \
    grep -qx 'kernel_cmdline: bench=hackbench runs=2 groups=2,4 loops=10' "$A/meta.txt"
ok_if tools-logs "not one serial log per boot" [ "$(ls "$A"/logs/*.log | wc -l)" = 2 ]
# provenance from this very run: meta.txt, the .rc files and the kernel's boot line
for col in git_revision accel build_hz build_lock kernel_flags qemu host boot_hz boot_lock boot_accel boot_mem_mib exit; do
    ok_if "tools-prov-$col" "a row of the real run has no $col" [ "$(csv_col "$A/results.csv" "$col" | grep -c .)" = 8 ]
done
ok_if tools-prov-values "accel, hz and lock are not the run's" sh -c "[ \"\$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) h[\$i] = i; next }
    { print \$h[\"accel\"], \$h[\"build_hz\"], \$h[\"boot_hz\"], \$h[\"boot_lock\"], \$h[\"exit\"] }' '$A/results.csv' | sort -u)\" = 'tcg 1000 1000 tas 0' ]"
ok_if tools-schedstat-csv "schedstat.csv has not one row per CPU of each boot (1 + 2)" \
    sh -c "[ \$((\$(wc -l <'$A/schedstat.csv') - 1)) = 3 ] && grep -q '^sched,smp,boot,bench,workload,cpu,' '$A/schedstat.csv'"
rates=$(csv_col "$A/schedstat.csv" switches_per_s | grep -cE '^[0-9.e+]+$')
ok_if tools-schedstat-rates "$rates of 3 rows have a numeric switches_per_s" [ "$rates" = 3 ]

# --- kernel paths the kernel would misread: a space (an unquoted variable
# split it: exit 6) and a '=' (the kernel took its own path for a key)
for dir in "sp ace" "k=v"; do
    mkdir -p "$D/$dir" "$D/tmpdir"
    cp "$ROOT/build/rr/kernel.elf" "$D/$dir/kernel.elf"
    TMPDIR="$D/tmpdir" "$ROOT/tools/qemu-run.sh" --kernel "$D/$dir/kernel.elf" --smp 1 --cmdline bench=boot --timeout "$(boot_limit 60)" \
        >"$D/last.log" 2>&1
    rc=$?
    ok_if "tools-path-$(echo "$dir" | tr ' =' '_-')" "a kernel in '$dir/' exited $rc" \
        sh -c "[ $rc = 0 ] && grep -q '^result bench=boot .*status=ok' '$D/last.log'"
done
ok_if tools-path-cleanup "the temporary symlink was not removed: $(ls -A "$D/tmpdir" 2>/dev/null)" \
    sh -c "[ -z \"\$(ls -A '$D/tmpdir')\" ]"
"$SL" run --sched rr --smp 1 --bench boot --timeout "$(boot_limit 60)" --out "$D/sp dir/r1" >/dev/null 2>"$D/last.log"
rc=$?
ok_if tools-run-space-out "run --out 'sp dir/r1' exited $rc" \
    sh -c "[ $rc = 0 ] && grep -q ',ok,' '$D/sp dir/r1/results.csv'"

# --- table: the seed's layout
"$SL" table "$A" >"$D/table.out" 2>"$D/last.log"
rc=$?
cp "$D/table.out" "$D/last.log"
ok_if tools-table-exit0 "table exited $rc" [ $rc = 0 ]
ok_if tools-table-header "no 'number of groups  2  4' header" grep -qE '^number of groups +2 +4$' "$D/table.out"
ok_if tools-table-blocks "no '1 CPU' and '2 CPUs' blocks" sh -c "grep -qx '1 CPU' '$D/table.out' && grep -qx '2 CPUs' '$D/table.out'"
ok_if tools-table-means "no rr line with two numbers" grep -qE '^   rr +[0-9.]+ +[0-9.]+$' "$D/table.out"
ok_if tools-table-ratio "no ratio line" grep -qE '^   ratio to groups=2 +1\.00 +[0-9.]+$' "$D/table.out"
"$SL" table --stddev --cv "$A" >"$D/last.log" 2>&1
ok_if tools-table-stddev "no stddev / cv lines" sh -c "grep -q '^     stddev ' '$D/last.log' && grep -q '^     coeff. of variation .*%' '$D/last.log'"

# --- a second directory (one boot), then compare the two
B="$D/b"
"$SL" run --sched rr --smp 1 --bench hackbench --groups 2,4 --loops 10 --runs 3 --timeout "$(boot_limit 60)" --out "$B" \
    >/dev/null 2>"$D/last.log"
ok_if tools-run2-exit0 "second run failed" [ -s "$B/results.csv" ]
"$SL" compare "$A" "$B" --labels before,after >"$D/compare.out" 2>"$D/last.log"
rc=$?
cp "$D/compare.out" "$D/last.log"
ok_if tools-compare-exit0 "compare exited $rc" [ $rc = 0 ]
for stat in Min Amean Stddev CoeffVar Max Welch-p; do
    ok_if "tools-compare-$stat" "no $stat line" grep -qE "^$stat +groups-2 " "$D/compare.out"
done
ok_if tools-compare-labels "no before/after columns" grep -qE '^ +before +after$' "$D/compare.out"
ok_if tools-compare-base "baseline column is not 0.00%" grep -qE '^Amean +groups-2 +[0-9.]+ \(   0\.00%\)' "$D/compare.out"
ok_if tools-compare-test "the test is not named" grep -q "Welch's two-sided t-test" "$D/compare.out"
ok_if tools-compare-smp2-only-a "the 2-CPU block (only in before) is missing" grep -q '^hackbench time_s, rr, 2 CPUs' "$D/compare.out"
"$SL" compare "$A" >"$D/last.log" 2>&1
ok_if tools-compare-one-sched "one scheduler is not said" grep -q 'only one scheduler' "$D/last.log"

# --- plots: PNG and SVG, one per CPU count
"$SL" plot "$A" --out "$D/plots" >"$D/last.log" 2>&1
rc=$?
ok_if tools-plot-exit0 "plot exited $rc" [ $rc = 0 ]
for smp in 1 2; do
    png="$D/plots/hackbench-time_s-smp$smp.png"
    magic=$(od -An -tx1 -N8 "$png" 2>/dev/null | tr -d ' \n')
    ok_if "tools-plot-png-smp$smp" "$png is not a PNG (magic '$magic')" [ "$magic" = 89504e470d0a1a0a ]
    ok_if "tools-plot-svg-smp$smp" "no SVG beside it" grep -q '<svg' "$D/plots/hackbench-time_s-smp$smp.svg"
done

# --- report: one self-contained HTML file
"$SL" report "$A" >"$D/last.log" 2>&1
rc=$?
ok_if tools-report-exit0 "report exited $rc" [ $rc = 0 ]
ok_if tools-report-svg "no inline SVG" grep -q '<figure><svg' "$A/report.html"
ok_if tools-report-self-contained "it links to other files" sh -c "! grep -Eq '(src|href)=\"(http|file:|[a-z0-9_./-]+\\.(png|svg|css|js)\")' '$A/report.html'"
ok_if tools-report-sections "a section is missing" sh -c "grep -q 'git_revision' '$A/report.html' && grep -q 'number of groups' '$A/report.html' && grep -q 'id=\"failures\"' '$A/report.html'"

# --- a failed boot: killed by its timeout, recorded with its reason, never averaged in
F="$D/f"
"$SL" run --sched rr --smp 1 --bench hackbench --groups 2,200 --loops 5000 --timeout 3 --out "$F" \
    >/dev/null 2>"$D/last.log"
rc=$?
ok_if tools-failed-exit1 "a matrix with a failed boot exited $rc, not 1" [ $rc = 1 ]
cp "$F/results.csv" "$D/last.log" 2>/dev/null
ok_if tools-failed-row "no status=failed row with the timeout reason" grep -q ',failed,missing result: timeout' "$F/results.csv"
with_metric=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "status") s = i; if ($i == "time_s") t = i }; next }
    t && $s == "failed" && $t != "" { n++ } END { print n + 0 }' "$F/results.csv")
ok_if tools-failed-no-metric "$with_metric failed rows have a metric" [ "$with_metric" = 0 ]
"$SL" table "$F" >"$D/last.log" 2>&1
ok_if tools-failed-table "the table does not show FAILED and the reason" sh -c "grep -q FAILED '$D/last.log' && grep -q 'timeout' '$D/last.log'"
"$SL" failures "$F" >"$D/last.log" 2>&1
ok_if tools-failed-list "failures does not list the boot" grep -q 'rr-smp1-boot1: exit 124' "$D/last.log"

# --- bad arguments: usage errors (exit 2) or errors (exit 1), never a crash
usage() {  # usage NAME EXPECTED-EXIT ARGS...
    name=$1 want=$2; shift 2
    "$SL" "$@" >"$D/last.log" 2>&1
    got=$?
    if [ "$got" = "$want" ] && grep -q '^schedlab[ a-z-]*: error: ' "$D/last.log"; then pass "tools-args-$name"; else
        fail_with "tools-args-$name" "exit $got (wanted $want) or no error: line" "$D/last.log"; fi
}
usage no-verb 2
usage bad-verb 2 frobnicate
usage unknown-flag 2 run --sched rr --bench boot --out "$D/x" --frobnicate 3
usage no-sched 2 run --bench boot --out "$D/x"
usage bad-smp 2 run --sched rr --smp 0 --bench boot --out "$D/x"
usage bad-groups 2 run --sched rr --bench hackbench --groups 5,,6 --out "$D/x"
usage twice 2 run --sched rr --bench hackbench --groups 5 --groups 6 --out "$D/x"
usage unknown-sched 1 run --sched nosuch --bench boot --out "$D/x"
usage unknown-bench 1 run --sched rr --bench nosuch --out "$D/x"
usage out-not-empty 1 run --sched rr --bench boot --out "$A"
usage table-missing 1 table "$D/nonexistent"
usage table-bad-flag 2 table --frob "$A"
usage compare-bad-base 1 compare "$A" --base nosuch
usage plot-no-dir 2 plot --out "$D/p"
usage report-missing 1 report "$D/nonexistent"

# --- garbage input: every verb answers with an error or a table, never a signal
G="$D/g"
mkdir -p "$G/logs"
head -c 4096 /dev/urandom >"$G/results.csv"
head -c 512 /dev/urandom >"$G/boots.csv"
printf 'cmdline bench=hackbench groups=1,2\n' >"$G/matrix.txt"
printf 'x rr 1 1\ny rr 2 1\n' >"$G/jobs.txt"
head -c 3000 /dev/urandom >"$G/logs/x.log"
printf 'rc=2' >"$G/logs/x.rc"
crashed=""
for verb in "table" "compare" "failures" "seed-table" "collect" "table" "compare"; do
    "$ROOT/build/tools/schedlab" $verb "$G" >/dev/null 2>&1
    rc=$?
    [ $rc -ge 128 ] && crashed="$crashed $verb($rc)"
done
cut -c1-20 "$A/results.csv" >"$G/truncated.csv"
"$ROOT/build/tools/schedlab" table "$G/truncated.csv" >/dev/null 2>&1
[ $? -ge 128 ] && crashed="$crashed truncated-csv"
RC=0 OUT=/dev/null check tools-garbage-no-crash [ -z "$crashed" ]
ok_if tools-garbage-collect-rows "collect of garbage logs did not give failed rows" \
    sh -c "[ \$(grep -c ',failed,' '$G/results.csv') -ge 2 ]"

rm -rf "$D"
