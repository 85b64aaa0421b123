# What a person reads of a run (issue 37): provenance kept exact through
# results.csv and results.json under every accelerator (tcg, icount, vsmp:
# every word of the kernel's boot: line reaches its rows whole, lists and
# long lines included), the comparison of two schedulers of one vsmp run
# (which a cut vsmp_ipi_ns once refused), the wake-up percentile plot,
# the status line (plain, in place on a terminal, none with --quiet), and a
# trace's per-CPU utilisation heatmap.
. "$(dirname "$0")/../lib.sh"
plan 13

SL="$ROOT/tools/schedlab"
TOOL="$ROOT/build/tools/schedlab"
D="$TMP/readable.$$"
mkdir -p "$D"

make -s -C "$ROOT" tools >"$D/last.log" 2>&1
ok_if readable-tools-build "make tools failed" [ -x "$TOOL" ]

# ---- provenance: every boot: word against its rows, under each accelerator
# boot_words LOG: the key=value words of the boot line but cpus= and sched=, one a line
boot_words() { grep -a -m1 '^boot: ' "$1" | cut -c7- | tr ' ' '\n' | grep '=' | grep -v '^cpus=\|^sched='; }
for accel in tcg icount vsmp; do
    R="$D/prov-$accel"
    q=--quiet
    [ "$accel" != tcg ] || q=   # the tcg run shows its status line (checked below)
    "$SL" run $q --sched o1 --smp 2 --bench pipe --loops 200 --accel "$accel" --timeout "$(boot_limit 120)" --out "$R" \
        >"$D/last.log" 2>"$D/run-$accel.err"
    cat "$D/run-$accel.err" >>"$D/last.log"
    "$SL" json "$R" >>"$D/last.log" 2>&1
    log=$(ls "$R"/logs/*.log | head -1)
    words=$(boot_words "$log")
    # Each word in results.csv (through the tool's own CSV reader: html-table
    # prints the cell as the reader gives it back) and in results.json.
    bad=""
    for w in $words; do
        k=${w%%=*} v=${w#*=}
        "$TOOL" html-table "$R/results.csv" --columns "boot_$k" >"$D/cell.html" 2>/dev/null
        grep -qF "<td>$v</td>" "$D/cell.html" || bad="$bad csv:boot_$k"
        grep -qF "\"boot_$k\": \"$v\"" "$R/results.json" || bad="$bad json:boot_$k"
    done
    { grep -a -m1 '^boot: ' "$log"; echo "missing or changed:$bad"; } >"$D/last.log"
    ok_if "readable-provenance-$accel" "boot: words not kept exactly in results.csv / results.json:$bad" \
        sh -c '[ -n "$1" ] && [ -z "$2" ]' _ "$words" "$bad"
done
# the list value that was once stored as atomic?timer?hlt?ipi, quoted as RFC 4180 says
grep -a -m1 '^boot: ' "$D"/prov-tcg/logs/*.log >"$D/last.log"
ok_if readable-provenance-list "real=atomic,timer,hlt,ipi (tcg) is not a quoted CSV field and a JSON string" \
    sh -c 'grep -q "real=atomic,timer,hlt,ipi" "$1/logs/"*.log && grep -Eq ",\"atomic,timer,hlt,ipi\"(,|$)" "$1/results.csv" &&
           grep -qF "\"boot_real\": \"atomic,timer,hlt,ipi\"" "$1/results.json"' _ "$D/prov-tcg"

# A boot line far longer than any fixed buffer, and one the log ends inside:
# the long one is kept whole, the cut one loses only its last (cut) word.
P="$D/long"
cp -r "$D/prov-vsmp" "$P"
rm -f "$P/results.csv" "$P/results.json"
long=$(awk 'BEGIN { for (i = 0; i < 300; i++) printf " extra%d=v%d,w%d", i, i, i }')
log=$(ls "$P"/logs/*.log | head -1)
sed -i "s/^boot: .*/&$long/" "$log"
"$TOOL" collect "$P" >"$D/last.log" 2>&1
"$TOOL" html-table "$P/results.csv" --columns boot_extra299,boot_vsmp_slack_ns >"$D/cell.html" 2>>"$D/last.log"
ok_if readable-provenance-long-line "a 5 KB boot line lost its last words" \
    sh -c 'grep -qF "<td>v299,w299</td>" "$1" && grep -qF "<td>0</td>" "$1"' _ "$D/cell.html"
C="$D/cut"
cp -r "$D/prov-vsmp" "$C"
log=$(ls "$C"/logs/*.log | head -1)
grep -a -m1 '^boot: ' "$log" | sed 's/vsmp_slack_ns=0$//; s/vsmp_ipi_ns=1260 *$/vsmp_ipi_ns=12/' | tr -d '\n' >"$log.cut"
mv "$log.cut" "$log"
"$TOOL" collect "$C" >"$D/last.log" 2>&1
"$TOOL" html-table "$C/boots.csv" --columns boot_vsmp_quantum_ns,boot_vsmp_ipi_ns >"$D/cell.html" 2>>"$D/last.log"
cat "$D/cell.html" >>"$D/last.log"
ok_if readable-provenance-cut-line "a boot line cut by the end of the log kept its cut last word (vsmp_ipi_ns=12)" \
    sh -c 'grep -qF "<td>20000</td>" "$1" && ! grep -qF "<td>12</td>" "$1"' _ "$D/cell.html"

# ---- progress: a status line on stderr (its last line, plain without a terminal), none with --quiet
cp "$D/run-tcg.err" "$D/last.log"
ok_if readable-progress-line "no 'schedlab run: 1/1 boots done in M:SS' line on stderr" \
    grep -q '^schedlab run: 1/1 boots done in [0-9]*:[0-9][0-9]$' "$D/run-tcg.err"
cp "$D/run-icount.err" "$D/last.log"
ok_if readable-progress-quiet "--quiet still printed a status line" sh -c "! grep -q 'boots done' '$D/run-icount.err'"

# ---- two schedulers of one vsmp run are comparable (the issue's case), and
# wake-up latency is a percentile plot p50..max on a log axis; on a terminal
# (script(1) gives it one) the status line is redrawn in place
W="$D/wakeup"
if command -v script >/dev/null 2>&1; then
    script -qec "'$SL' run --sched o1,cfs --smp 2 --bench wakeup --seconds 1 --accel vsmp --timeout $(boot_limit 120) --out '$W'" \
        "$D/tty.txt" >/dev/null 2>&1 </dev/null
    tr '\r\033' 'RE' <"$D/tty.txt" >"$D/last.log"
    ok_if readable-progress-tty "on a terminal the status line is not drawn in place (CR, erase line)" \
        grep -q 'RE\[Kschedlab run: [0-9]/2 boots done' "$D/last.log"
else
    skip readable-progress-tty "no script(1) to give it a terminal"
    "$SL" run --quiet --sched o1,cfs --smp 2 --bench wakeup --seconds 1 --accel vsmp --timeout "$(boot_limit 120)" --out "$W" \
        >"$D/last.log" 2>&1
fi
"$SL" plot "$W" >"$D/plot.log" 2>&1
rc=$?
cat "$D/plot.log" >"$D/last.log"
ok_if readable-vsmp-compare "plot of o1 and cfs under vsmp exited $rc" sh -c "[ $rc = 0 ] && ! grep -q 'not comparable' '$D/plot.log'"
gp=$(ls "$W"/plots/*percentile*.gp 2>/dev/null | head -1)
cat "$gp" >"$D/last.log" 2>/dev/null
ok_if readable-wakeup-percentiles "no percentile plot (p50..max, log axis, one line per scheduler)" \
    sh -c '[ -n "$1" ] && grep -q "set logscale y" "$1" && grep -q "p50" "$1" && grep -q "max" "$1" &&
           grep -q "o1" "$1" && grep -q "cfs" "$1" && [ -s "${1%.gp}.png" ]' _ "$gp"

# ---- a trace's per-CPU utilisation heatmap: one row of cells per CPU, in the trace's report
T="$D/trace"
"$SL" trace --quiet --sched o1 --smp 2 --bench hackbench --groups 4 --loops 20 --accel vsmp --timeout "$(boot_limit 120)" \
    --out "$T" >"$D/last.log" 2>&1
ok_if readable-trace-heatmap "no heatmap.svg with 120 cells for each of the 2 CPUs, or not in report.html" \
    sh -c '[ "$(grep -c "<title>CPU 0, " "$1/heatmap.svg")" = 120 ] && [ "$(grep -c "<title>CPU 1, " "$1/heatmap.svg")" = 120 ] &&
           grep -q "CPU utilisation over time" "$1/report.html"' _ "$T"

rm -rf "$D"
