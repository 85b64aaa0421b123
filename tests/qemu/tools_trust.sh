# Results people can trust, without QEMU (a few seconds): the comparability
# check and --allow-diff, compare's statistics (median, Hmean, the 95%
# interval, mmtests' sign, boots as the unit) and its LKP lines, not-run
# boots, boots.csv's numbers, provenance columns, schedstat.csv, JSON, merge,
# plots (units, n, dodging, log scale, negative marks), every verb's --help,
# --out errors, a broken KVM explained, tools/linux-peer.sh's arguments.
# The fixture is tests/tools/run-a (known values; a timed-out boot).
. "$(dirname "$0")/../lib.sh"
plan 106

SL="$ROOT/tools/schedlab"
TOOL="$ROOT/build/tools/schedlab"
D="$TMP/trust.$$"
mkdir -p "$D"
csv_col() {  # csv_col FILE NAME: the values of column NAME (no quoted commas in these columns)
    awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i; next } c { print $c }' "$1"
}
META='date: 2026-12-01T10:00:00Z
git_revision: aaaa
qemu: QEMU emulator version 7.2.22
accel: tcg
build: HZ=1000 LOCK=tas CFLAGS_EXTRA=
host: labhost
mem_mib: 256
kernel_flags_goodness: KCFLAGS=-O2 -DHZ=1000 SCHED=goodness LOCK=tas HZ=1000 CFLAGS_EXTRA=
kernel_flags_o1: KCFLAGS=-O2 -DHZ=1000 SCHED=o1 LOCK=tas HZ=1000 CFLAGS_EXTRA='
fixture() {  # fixture DIR: run-a with a meta.txt, collected
    cp -r "$ROOT/tests/tools/run-a" "$1" && printf '%s\n' "$META" >"$1/meta.txt" && "$TOOL" collect "$1" >"$D/last.log" 2>&1
}

make -s -C "$ROOT" tools >"$D/last.log" 2>&1
ok_if trust-tools-build "make tools failed" [ -x "$TOOL" ]

# --- provenance in every row; numbers where numbers belong; one base for run and boot
R="$D/r1"
fixture "$R"
cp "$R/results.csv" "$D/last.log"
ok_if trust-prov-meta "results.csv lacks meta.txt's provenance" \
    sh -c "[ \"\$(csv_col() { awk -F, -v n=\"\$2\" 'NR == 1 { for (i = 1; i <= NF; i++) if (\$i == n) c = i; next } c { print \$c }' \"\$1\"; }; csv_col '$R/results.csv' git_revision | sort -u)\" = aaaa ]"
for col in git_revision accel build_hz build_lock build_cflags_extra kernel_flags qemu date host mem_mib boot_hz boot_accel boot_mem_mib; do
    n=$(csv_col "$R/results.csv" "$col" | grep -c .)
    ok_if "trust-prov-$col" "only $n of 48 rows have $col" [ "$n" = 48 ]
done
ok_if trust-prov-flags-hash "the kernel_flags hash differs between goodness and o1 (only SCHED= differs)" \
    [ "$(csv_col "$R/results.csv" kernel_flags | sort -u | wc -l)" = 1 ]
ok_if trust-prov-empty-setting "an empty CFLAGS_EXTRA is not recorded as none" [ "$(csv_col "$R/results.csv" build_cflags_extra | sort -u)" = none ]
ok_if trust-run-base "run does not count from 1 like boot" \
    sh -c "[ \"\$(awk -F, 'NR > 1 { print \$4 }' '$R/results.csv' | sort -n | head -1)\" = 1 ] && [ \"\$(awk -F, 'NR > 1 { print \$3 }' '$R/results.csv' | sort -n | head -1)\" = 1 ]"
ok_if trust-cpus-used-count "cpus_used 0x3 is not counted as 2" \
    sh -c "awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) { if (\$i == \"cpus_used\") u = i; if (\$i == \"cpus_used_count\") n = i }; next }
        \$u == \"0x3\" && \$n != 2 { bad++ } \$u == \"0x1\" && \$n != 1 { bad++ } \$u == \"0x3\" { seen++ } END { exit bad || !seen }' '$R/results.csv'"
cp "$R/boots.csv" "$D/last.log"
bad=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "rc" || $i == "wall_s" || $i == "ok_results" || $i == "expected") c[i] = 1; next }
    { for (i in c) if ($i != "" && $i !~ /^[0-9]+$/) n++ } END { print n + 0 }' "$R/boots.csv")
ok_if trust-boots-numeric "$bad numeric cells of boots.csv hold text" [ "$bad" = 0 ]

# --- the kernel's schedstat lines as a CSV, with rates to compare and plot
S="$R/schedstat.csv"
cp "$S" "$D/last.log" 2>/dev/null
ok_if trust-schedstat-rows "not one row per schedstat line (the fixture's 7 boots that ended print cpu=0 only)" \
    [ "$(($(wc -l <"$S") - 1))" = 7 ]
ok_if trust-schedstat-rate "switches_per_s is not context_switches / (busy_us + idle_us): 90 / 0.05 s = 1800" \
    grep -q '^goodness,1,1,schedstat,hackbench,0,100,90,0,80,1,1000,10,50,0,49000,1000,50,0.0,0.05,1800,0,1600,0.0200,10,ok' "$S"
"$TOOL" table "$S" --metric switches_per_s >"$D/last.log" 2>&1
ok_if trust-schedstat-table "table of schedstat.csv --metric switches_per_s" grep -qE '^   o1 +[0-9]' "$D/last.log"

# --- not comparable: refused with the list; --allow-diff names what differs
I="$D/int1"
cp -r "$ROOT/tests/tools/run-a" "$I"
sed -i 's/loops=100/loops=50/' "$I/matrix.txt" "$I"/logs/*.log
printf '%s\n' "$META" | sed 's/^git_revision: aaaa/git_revision: bbbb/' >"$I/meta.txt"
"$TOOL" collect "$I" >"$D/last.log" 2>&1
"$SL" compare "$R" "$I" >"$D/last.log" 2>&1
rc=$?
ok_if trust-refuse-compare "compare of loops=100 and loops=50 exited $rc, not 1 listing loops and git_revision" \
    sh -c "[ $rc = 1 ] && grep -q '^schedlab[ a-z-]*: error: hackbench time_s: the results directories are not comparable' '$D/last.log' &&
        grep -qx '  loops: r1 100; int1 50' '$D/last.log' && grep -qx '  git_revision: r1 aaaa; int1 bbbb' '$D/last.log' &&
        ! grep -q Amean '$D/last.log'"
"$SL" table "$R" "$I" >"$D/last.log" 2>&1
rc=$?
ok_if trust-refuse-table "table of the two exited $rc" sh -c "[ $rc = 1 ] && grep -qx '  loops: r1 100; int1 50' '$D/last.log'"
"$SL" compare "$R" "$I" --allow-diff loops >"$D/last.log" 2>&1
ok_if trust-allow-one "--allow-diff loops still compares across git_revision" \
    sh -c "! grep -q Amean '$D/last.log' && grep -qx '  git_revision: r1 aaaa; int1 bbbb' '$D/last.log' && ! grep -qx '  loops: r1 100; int1 50' '$D/last.log'"
"$SL" compare "$R" "$I" --allow-diff loops --allow-diff=git_revision >"$D/last.log" 2>&1
rc=$?
ok_if trust-allow-named "--allow-diff loops,git_revision: exit $rc or the output does not name them" \
    sh -c "[ $rc = 0 ] && grep -q '^compared across differences on purpose (--allow-diff): loops (r1 100; int1 50), git_revision (r1 aaaa; int1 bbbb)' '$D/last.log' && grep -q '^Amean ' '$D/last.log'"
"$SL" plot "$R" "$I" --out "$D/p-refused" >"$D/last.log" 2>&1
rc=$?
ok_if trust-refuse-plot "plot of the two exited $rc, not 1 (not comparable)" sh -c "[ $rc = 1 ] && grep -q 'not comparable' '$D/last.log'"
# --- a key the run chooses by CPU count (qemu-run's idle=poll from 2 vCPUs) is compared within each CPU count
idle_fixture() {  # idle_fixture DIR SMP1_IDLE SMP2_IDLE: run-a with idle= on the boot lines (no smp2 logs when SMP2_IDLE is -)
    cp -r "$ROOT/tests/tools/run-a" "$1" && printf '%s\n' "$META" >"$1/meta.txt" &&
        sed -i "s/^\(boot: cpus=1 .*\)$/\1 idle=$2/" "$1"/logs/*-smp1-*.log &&
        if [ "$3" = - ]; then rm "$1"/logs/*-smp2-*; else sed -i "s/^\(boot: cpus=2 .*\)$/\1 idle=$3/" "$1"/logs/*-smp2-*.log; fi &&
        "$TOOL" collect "$1" >"$D/last.log" 2>&1
}
idle_fixture "$D/halt-poll" halt poll
idle_fixture "$D/halt-only" halt -
idle_fixture "$D/halt-halt" halt halt
"$SL" compare "$D/halt-poll" "$D/halt-only" >"$D/last.log" 2>&1
rc=$?
ok_if trust-per-smp-same "1 and 2 CPUs (idle=halt, idle=poll) against 1 CPU (idle=halt): exit $rc, not 0" \
    sh -c "[ $rc = 0 ] && grep -q '^Amean ' '$D/last.log'"
"$SL" compare "$D/halt-poll" "$D/halt-halt" >"$D/last.log" 2>&1
rc=$?
ok_if trust-per-smp-differs "idle=poll against idle=halt on 2 CPUs: exit $rc, not 1 naming boot_idle (smp=2)" \
    sh -c "[ $rc = 1 ] && grep -qx '  boot_idle (smp=2): halt-poll poll; halt-halt halt' '$D/last.log'"

R2="$D/r2"
fixture "$R2"
"$SL" compare "$R" "$R2" >"$D/last.log" 2>&1
ok_if trust-same-compares "two copies of one matrix are refused" grep -q '^Amean ' "$D/last.log"

# --- compare: the statistics, against hand-computed values of the fixture
# (1 CPU, 100 groups; boots as the unit: goodness 1.6010 1.6557, o1 0.8730 0.9030)
"$SL" compare "$R" --base goodness >"$D/cmp.out" 2>&1
cp "$D/cmp.out" "$D/last.log"
ok_if trust-unit-boot "two boots per cell: the boot is not the unit" grep -q '^unit: the boot' "$D/cmp.out"
ok_if trust-median "no Median line with 1.6283 and 0.8880" grep -qE '^Median +groups-100 +1\.6283 \(   0\.00%\) +0\.8880 \(  45\.47%\)$' "$D/cmp.out"
ok_if trust-sign "an improvement of a lower-is-better metric is not positive" grep -qE '^Amean +groups-100 .* \*  45\.47%\*$' "$D/cmp.out"
ok_if trust-diff95 "no Diff95 -0.7403 +- 0.179 (t(0.975, 1.55) x se)" grep -qE '^Diff95 +groups-100 +base +-0\.7403 \+- 0\.179$' "$D/cmp.out"
ok_if trust-diff95-pct "no Diff95% -45.47% +- 10.99%" grep -qE '^Diff95% +groups-100 +base +-45\.47% \+- 10\.99%$' "$D/cmp.out"
ok_if trust-stddev-sign "a smaller stddev is not a positive gain" grep -qE '^Stddev +groups-100 +0\.0387 \(   0\.00%\) +0\.0212 \(  45\.12%\)$' "$D/cmp.out"
"$SL" compare "$R" --base goodness --unit run >"$D/last.log" 2>&1
ok_if trust-unit-run "--unit run: not said, or still the boot means" \
    sh -c "grep -q '^unit: the run (runs within one boot are not independent' '$D/last.log' && grep -qE '^Min +groups-100 +1\.5680 ' '$D/last.log'"
"$SL" compare "$R" --base goodness --format lkml >"$D/last.log" 2>&1
ok_if trust-lkml "no LKP line for 100 groups on 1 CPU" \
    grep -qE '^ +1\.6283 ± +2% +-45\.5%\* +0\.8880 ± +2% +hackbench\.time_s\.groups-100\.smp1$' "$D/last.log"
ok_if trust-lkml-header "no LKP header" grep -q '%stddev     %change         %stddev' "$D/last.log"
"$SL" compare "$R" --format xml >"$D/last.log" 2>&1
rc=$?
ok_if trust-format-bad "--format xml exited $rc" sh -c "[ $rc = 2 ] && grep -q '^schedlab[ a-z-]*: error: --format xml: expected text|html|lkml' '$D/last.log'"
H="$D/hmean"
mkdir -p "$H"
{ echo 'sched,smp,boot,run,bench,clients,mb_per_s,cpus,status,reason,oversubscribed,log'
  for v in 1 2 4; do echo "rr,1,1,$v,tbench,4,$v,1,ok,,no,r"; echo "o1,1,1,$v,tbench,4,$((v * 2)),1,ok,,no,o"; done; } >"$H/results.csv"
"$TOOL" compare "$H" --base rr >"$D/last.log" 2>&1
ok_if trust-hmean "no Hmean 3/(1+1/2+1/4) = 1.7143 for a rate, or its gain not +100%" \
    grep -qE '^Hmean +clients-4 +1\.7143 \(   0\.00%\) +3\.4286 \( 100\.00%\)$' "$D/last.log"
ok_if trust-hmean-higher "a higher rate is not a positive gain" grep -qE '^Amean +clients-4 +2\.3333 \(   0\.00%\) +4\.6667 \( 100\.00%\)$' "$D/last.log"
"$TOOL" compare "$R" --base goodness >"$D/last.log" 2>&1
ok_if trust-no-hmean-time "Hmean shown for a time" sh -c "! grep -q '^Hmean' '$D/last.log'"

# --- boots that never started are "not run", not failures
N="$D/notrun"
fixture "$N"
rm -f "$N"/logs/o1-smp1-boot2.*
"$TOOL" collect "$N" >"$D/last.log" 2>&1
ok_if trust-notrun-collect "collect does not count 1 boot not run" \
    grep -q 'collect: 8 boots (1 failed, 1 not run), 48 result rows (38 ok, 4 not ok, 6 not run)' "$D/last.log"
cp "$N/results.csv" "$D/last.log"
ok_if trust-notrun-rows "the never-started boot's 6 rows are not status=not_run" [ "$(grep -c ',not_run,not run: ' "$N/results.csv")" = 6 ]
ok_if trust-notrun-boot "boots.csv: its verdict is not not_run with an empty rc" grep -q '^o1-smp1-boot2,o1,1,2,,not_run,' "$N/boots.csv"
"$SL" table "$N" >"$D/last.log" 2>&1
ok_if trust-notrun-table "the table counts them as failures or does not say so" \
    sh -c "grep -q '^6 runs not run' '$D/last.log' && grep -A3 -x '1 CPU' '$D/last.log' | grep -qE '^   o1 +[0-9.]+ +[0-9.]+$'"

# --- JSON (hyperfine's shape)
"$SL" json "$R" >"$D/last.log" 2>&1
J="$R/results.json"
cp "$J" "$D/last.log" 2>/dev/null
ok_if trust-json-written "no DIR/results.json" [ -s "$J" ]
ok_if trust-json-cell "the goodness 1-CPU 50-group cell is not there with mean 0.512 and 6 values" \
    sh -c "grep -q '\"parameters\": {\"groups\": \"50\", \"loops\": \"100\"' '$J' && grep -q '\"mean\": 0.512, \"stddev\": 0.01414213562, \"median\": 0.512, \"min\": 0.492, \"max\": 0.532' '$J' &&
        grep -q '\"values\": \\[0.512, 0.522, 0.532, 0.492, 0.502, 0.512\\]' '$J'"
ok_if trust-json-exit-codes "the timed-out boot's exit code 124 is not in its cell" grep -q '"exit_codes": \[0, 124\]' "$J"
ok_if trust-json-cells "not 8 cells" [ "$(grep -c '"bench": "hackbench", "sched"' "$J")" = 8 ]
ok_if trust-json-balanced "braces or brackets do not balance" \
    [ "$(tr -cd '{' <"$J" | wc -c)" = "$(tr -cd '}' <"$J" | wc -c)" ] 
"$SL" json "$R" --out - | head -1 >"$D/last.log"
ok_if trust-json-stdout "--out - does not write to stdout" grep -qx '{' "$D/last.log"

# --- merge: parts of one matrix into one
P1="$D/part1" P2="$D/part2"
cp -r "$ROOT/tests/tools/run-a" "$P1" && cp -r "$ROOT/tests/tools/run-a" "$P2"
rm -f "$P1"/logs/*-boot2.* "$P2"/logs/*-boot1.*
"$SL" merge "$D/merged" "$P1" "$P2" >"$D/last.log" 2>&1
ok_if trust-merge "merging boot1s and boot2s does not give the whole matrix" \
    grep -q 'collect: 8 boots (1 failed), 48 result rows (44 ok, 4 not ok)' "$D/last.log"
cp -r "$P2" "$D/part3" && echo 'rr-smp1-boot9 rr 1 9' >>"$D/part3/jobs.txt"
"$SL" merge "$D/merged2" "$P1" "$D/part3" >"$D/last.log" 2>&1
rc=$?
ok_if trust-merge-other-matrix "parts of two matrices were merged (exit $rc)" \
    sh -c "[ $rc = 1 ] && grep -q 'jobs.txt differs from .*: not parts of one matrix' '$D/last.log' && [ ! -e '$D/merged2' ]"

# --- plots: units, n, the key outside, ratio and scaling plots, log scale, negative marks
"$SL" plot "$R" >"$D/last.log" 2>&1
P="$R/plots"
ok_if trust-plot-default-out "plot without --out did not write DIR/plots" [ -s "$P/hackbench-time_s-smp1.png" ]
G="$P/hackbench-time_s-smp1.gp"
cp "$G" "$D/last.log" 2>/dev/null
ok_if trust-plot-units "axis labels without units" sh -c "grep -qx \"set ylabel 'time (s)'\" '$G' && grep -qx \"set xlabel 'number of groups'\" '$G'"
ok_if trust-plot-n "no n in the legend" grep -q "title 'goodness (n=6)'" "$G"
ok_if trust-plot-key-outside "the key may cover data" grep -q '^set key outside' "$G"
ok_if trust-plot-points "runs are not drawn as points" grep -q '^\$p0 << EOD' "$G"
ok_if trust-plot-no-clip "the y range is clipped at 0" sh -c "! grep -q 'yrange \[0' '$G'"
m0=$(sed -n '/^\$m0 << EOD/{n;p}' "$G" | cut -d' ' -f1) m1=$(sed -n '/^\$m1 << EOD/{n;p}' "$G" | cut -d' ' -f1)
ok_if trust-plot-dodge "both series' bars at the same x ($m0, $m1)" sh -c "[ -n '$m0' ] && [ -n '$m1' ] && [ '$m0' != '$m1' ]"
ok_if trust-plot-ratio "no ratio plot" [ -s "$P/hackbench-time_s-smp1-ratio.png" ]
ok_if trust-plot-scaling "no plot against the CPU count" [ -s "$P/hackbench-time_s-scaling-groups=100.png" ]
ok_if trust-plot-svg-font "the SVG's text is not set as large as the PNG's" grep -q "set terminal svg size 1000,600 noenhanced font 'Sans,14'" "$G"
L="$D/logplot"
mkdir -p "$L"
{ echo 'sched,smp,boot,run,bench,procs,usec_per_switch,overhead_us,cpus,status,reason,oversubscribed,log'
  for r in 1 2 3; do echo "rr,1,1,$r,lat_ctx,2,1.$r,-0.$r,1,ok,,no,r"; echo "rr,1,1,$r,lat_ctx,8,2.$r,0.$r,1,ok,,no,r";
      echo "o1,1,1,$r,lat_ctx,2,30$r,1,1,ok,,no,o"; echo "o1,1,1,$r,lat_ctx,8,40$r,1,1,ok,,no,o"; done; } >"$L/results.csv"
"$SL" plot "$L" --out "$L/auto" >"$D/last.log" 2>&1
ok_if trust-plot-log-auto "means 100x apart without a log scale" grep -q '^set logscale y' "$L/auto/lat_ctx-usec_per_switch-smp1.gp"
"$SL" plot "$L" --out "$L/lin" --log no >"$D/last.log" 2>&1
ok_if trust-plot-log-no "--log no still logarithmic" sh -c "! grep -q '^set logscale y' '$L/lin/lat_ctx-usec_per_switch-smp1.gp'"
"$SL" plot "$L" --out "$L/neg" --metric overhead_us >"$D/last.log" 2>&1
ok_if trust-plot-negative "a negative value is not marked" grep -q 'NEGATIVE values (red x)' "$L/neg/lat_ctx-overhead_us-smp1.gp"

# --- every verb answers --help by itself; the usage line names them all
for verb in run resume boot collect merge table compare plot report json failures seed-table reproduce help; do
    "$SL" $verb --help >"$D/last.log" 2>&1
    rc=$?
    ok_if "trust-help-$verb" "$verb --help exited $rc or did not describe $verb" \
        sh -c "[ $rc = 0 ] && grep -q '^usage: schedlab $(echo "$verb" | sed 's/^help$//')' '$D/last.log'"
done
"$SL" >"$D/last.log" 2>&1
ok_if trust-usage-line "schedlab alone does not give its usage line and every verb (failures and json among them)" \
    sh -c "grep -q '^usage: schedlab VERB' '$D/last.log' && grep -q '^  failures ' '$D/last.log' && grep -q '^  json ' '$D/last.log'"
{ "$SL" help; "$SL" failures --help; "$SL" run --help; } >"$D/last.log" 2>&1
ok_if trust-help-flags "help does not list failures and json, or failures --help lacks --html, or run --help --force or --engine" \
    sh -c "grep -q 'failures' '$D/last.log' && grep -q 'json' '$D/last.log' && grep -q -- '--html' '$D/last.log' && grep -q -- '--force' '$D/last.log' && grep -q -- '--engine' '$D/last.log'"
for verb in collect parse table compare plot failures seed-table json html-table scorecard; do
    "$TOOL" $verb --help >"$D/last.log" 2>&1
    rc=$?
    ok_if "trust-tool-help-$verb" "schedlab $verb --help exited $rc" sh -c "[ $rc = 0 ] && grep -q '^usage: schedlab $verb' '$D/last.log'"
done

# --- --out errors: one clear line, no shell leaks
touch "$D/afile"
"$SL" plot "$R" --out "$D/afile" >"$D/last.log" 2>&1
ok_if trust-out-file-plot "plot --out FILE: not one error line" sh -c "[ \$(grep -c . '$D/last.log') = 1 ] && grep -q '^schedlab[ a-z-]*: error: .*afile exists and is not a directory' '$D/last.log'"
"$SL" report "$R" --out /nonexistent/x.html >"$D/last.log" 2>&1
rc=$?
ok_if trust-out-report "report --out /nonexistent/x.html exited $rc or leaked a shell message" \
    sh -c "[ $rc = 1 ] && grep -q '^schedlab[ a-z-]*: error: cannot write /nonexistent/x.html' '$D/last.log' && ! grep -q 'cannot create' '$D/last.log'"
"$SL" json "$R" --out "$D" >"$D/last.log" 2>&1
ok_if trust-out-json-dir "json --out DIR: no error" grep -q '^schedlab[ a-z-]*: error: .* is a directory' "$D/last.log"

# --- ACCEL=kvm where /dev/kvm is there but KVM cannot run guests (a fake QEMU as QEMU 7.2 does it)
mkdir -p "$D/fakebin"
printf '#!/bin/sh\necho "qemu-system-i386: error: failed to set MSR 0x10a to 0x69" >&2\necho "qemu-system-i386: ../../target/i386/kvm/kvm.c:3183: kvm_buf_set_msrs: Assertion failed." >&2\nkill -ABRT $$\n' \
    >"$D/fakebin/qemu-system-i386"
chmod +x "$D/fakebin/qemu-system-i386"
: >"$D/fake-kvm"
build rr
PATH="$D/fakebin:$PATH" SCHEDLAB_KVM_DEV="$D/fake-kvm" "$ROOT/tools/qemu-run.sh" --kernel "$ROOT/build/rr/kernel.elf" \
    --accel kvm --smp 1 --cmdline bench=boot --timeout 20 >"$D/last.log" 2>&1
rc=$?
ok_if trust-kvm-broken "a KVM that cannot run guests: exit $rc, not 6 with an explanation and no raw assertion" \
    sh -c "[ $rc = 6 ] && grep -q '^error: ACCEL=kvm: .* KVM does not work on this machine (QEMU: error: failed to set MSR 0x10a' '$D/last.log' &&
        grep -q 'nested virtualization' '$D/last.log' && ! grep -q 'Assertion' '$D/last.log' && ! grep -q 'Aborted' '$D/last.log'"

# --- tools/linux-peer.sh: its arguments (the Linux boot itself needs the Debian archive: docs/tools.md)
"$ROOT/tools/linux-peer.sh" --help >"$D/last.log" 2>&1
ok_if trust-peer-help "linux-peer.sh --help" sh -c "[ $? = 0 ] && grep -q '^usage: tools/linux-peer.sh' '$D/last.log'"
for bad in "--smp 0" "--groups 5,,6" "--ipc tcp" "--frob 1" "--loops x"; do
    "$ROOT/tools/linux-peer.sh" $bad --pipe-loops 10 >"$D/last.log" 2>&1
    rc=$?
    ok_if "trust-peer-bad-$(echo "$bad" | tr -c 'a-z0-9\n' '-' | sed 's/-*$//')" "linux-peer.sh $bad exited $rc" \
        sh -c "[ $rc = 2 ] && grep -q '^error: ' '$D/last.log'"
done
"$ROOT/tools/linux-peer.sh" >"$D/last.log" 2>&1
ok_if trust-peer-nothing "nothing to measure is not an error" sh -c "[ $? = 2 ] && grep -q 'nothing to measure' '$D/last.log'"

rm -rf "$D"
