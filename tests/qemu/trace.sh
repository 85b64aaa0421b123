#!/bin/sh
# Scheduler tracing end to end (docs/tracing.md): the trace keys, the trace
# channel, tools/schedlab trace and run --trace-boot, trace.dat read back by
# trace-cmd report, the invariants and the kernel's own counters
# (schedlab trace-check), dropped events with a tiny buffer, 8 vCPUs,
# and the HTML timeline rendered by headless Chromium.
. "$(dirname "$0")/../lib.sh"
plan 90
TOOL="$ROOT/build/tools/schedlab"
make -s -C "$ROOT/tools" >"$TMP/tools-build.log" 2>&1 || { fail trace-tools-build "see $TMP/tools-build.log"; exit 0; }
S=$DEFAULT_SCHED
build "$S" || exit 1
build cfs || exit 1

# tboot SCHED SMP CMDLINE [TRACE_OUT] [TIMEOUT]: like lib.sh's boot, with the trace channel.
tboot() {
    OUT="$TMP/trace-out.$$.$(date +%s%N)"
    "$ROOT/tools/qemu-run.sh" --kernel "$ROOT/build/$1/kernel.elf" --smp "$2" --cmdline "$3" --timeout "${5:-60}" \
        ${4:+--trace-out "$4"} >"$OUT" 2>"$OUT.err"
    RC=$?
}

# ---- keys: malformed ones are the usual one error line and exit 1 ----
bad_key() {   # bad_key NAME CMDLINE KEY
    tboot "$S" 1 "$2" "$TMP/unused.bin"
    check "trace-key-$1-exit1" [ "$RC" = 1 ]
    expect "trace-key-$1-error" "^error: $3="
}
bad_key range 'bench=boot trace=2' trace
bad_key events 'bench=boot trace=1 trace_events=switch,bogus' trace_events
bad_key empty-event 'bench=boot trace=1 trace_events=switch,' trace_events
bad_key small-buf 'bench=boot trace=1 trace_buf_kib=2' trace_buf_kib
bad_key odd-buf 'bench=boot trace=1 trace_buf_kib=6' trace_buf_kib
bad_key needs-trace 'bench=boot trace_events=switch' trace_events
tboot "$S" 1 'bench=boot trace=1'
check "trace-no-channel-exit1" [ "$RC" = 1 ]
expect "trace-no-channel-error" '^error: trace=1: no trace channel'
tboot "$S" 1 'bench=list'
expect "trace-keys-listed" '^key workload=kernel name=trace_events type=choice_list .*choices=switch\|wakeup\|wakeup_new\|migrate\|fork\|exit\|sched\|memstall\|all'
# Off: the boot line as before, nothing on the channel.
tboot "$S" 1 'bench=boot' "$TMP/off.bin"
expect "trace-off-boot-line" '^boot: cpus=1 sched=[a-z0-9]+ hz=[0-9]+ tsc_khz=[0-9]+ accel=[a-z]+ mem_mib=[0-9]+ mm=[a-z_]+ pvspin=[01] lock=[a-z]+ cr3=(load|elide) idle=(halt|poll idle_poll_us=[0-9]+) cost=[a-z0-9]+ charged=[^ ]+ real=[a-z,0-9]+$'
check "trace-off-channel-empty" [ ! -s "$TMP/off.bin" ]

# ---- tools/schedlab trace: CFS (it emits its vruntime at every pick) on 2 CPUs ----
D="$TMP/trace-cfs"
"$ROOT/tools/schedlab" trace --sched cfs --smp 2 --bench hackbench --groups 2 --loops 10 --timeout 120 --out "$D" \
    >"$TMP/trace-cfs.out" 2>&1
RC=$? OUT="$TMP/trace-cfs.out"
check "trace-verb-exit0" [ "$RC" = 0 ]
for f in trace.txt trace.dat trace.json timeline.svg timeline.html latency.txt summary.txt summary.csv rq.csv report.html results.csv; do
    check "trace-verb-writes-$f" [ -s "$D/$f" ]
done
OUT="$D/check.txt"
expect "trace-check-clean" '^trace-check: [0-9]+ events on 2 CPUs, none dropped, 0 violations$'
expect "trace-check-round-trip" '^round trip: the text reads back as the same [0-9]+ events$'
expect "trace-check-console" '^against the console: switches, wake-ups and migrations per CPU compared, all equal$'
OUT="$D/results.csv"
expect "trace-verb-result-ok" '^cfs,2,1,1,hackbench,.*,ok,'   # boot 1, run 1 (the CSV counts both from 1)
# trace-cmd report reads trace.dat back with the same events per type as trace.txt.
counts() { awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^sched_[a-z_]*:$/) { sub(/:$/, "", $i); n[$i]++; break } }
                END { for (k in n) print k, n[k] }' | sort; }
grep -v '^#' "$D/trace.txt" | counts >"$TMP/counts-txt"
trace-cmd report "$D/trace.dat" 2>"$TMP/trace-cmd.err" | counts >"$TMP/counts-dat"
OUT="$TMP/counts-dat"
check "trace-cmd-reads-dat" [ -s "$TMP/counts-dat" ]
check "trace-cmd-same-counts" cmp -s "$TMP/counts-txt" "$TMP/counts-dat"
for ev in sched_switch sched_waking sched_wakeup sched_wakeup_new sched_process_fork sched_process_exit sched_event; do
    check "trace-has-$ev" grep -q "^$ev [1-9]" "$TMP/counts-txt"
done
OUT="$TMP/counts-txt"
check "trace-waking-before-every-wakeup" [ "$(awk '$1 == "sched_waking" { print $2 }' "$TMP/counts-txt")" = \
    "$(awk '$1 == "sched_wakeup" { print $2 }' "$TMP/counts-txt")" ]
# trace.json: Chrome's trace-event format, parsed here; its run slices per CPU
# are trace-check's, and what trace.txt's switches say independently.
json_slices() {   # DIR: "cpuN=COUNT ..." from trace.json, then the same from trace.txt, one line each
    python3 - "$1" <<'PY'
import json, re, sys, collections
d = sys.argv[1]
j = json.load(open(d + "/trace.json"))
assert isinstance(j["traceEvents"], list) and j["displayTimeUnit"] == "ns"
x = collections.Counter(e["tid"] for e in j["traceEvents"] if e["ph"] == "X" and e.get("cat") == "run")
assert all(e["dur"] > 0 and e["ts"] >= 0 and e["name"] for e in j["traceEvents"] if e["ph"] == "X")
names = {e["tid"]: e["args"]["name"] for e in j["traceEvents"] if e["ph"] == "M" and e["name"] == "thread_name"}
cpus = j["otherData"]["cpus"]
assert sorted(names) == list(range(cpus)) and all(names[c] == "cpu %d" % c for c in names)
print(" ".join("cpu%d=%d" % (c, x[c]) for c in range(cpus)))
# From the text: a slice per switch to a task, and one before a CPU's first switch when its prev is a task.
n, first = collections.Counter(), {}
for line in open(d + "/trace.txt"):
    m = re.search(r"\[(\d+)\].*: sched_switch: .*prev_pid=(\d+) .*next_pid=(\d+)", line)
    if not m:
        continue
    c, prev, nxt = int(m.group(1)), int(m.group(2)), int(m.group(3))
    if c not in first and j["otherData"]["dropped"][c] == 0:
        first[c] = 1
        n[c] += prev != 0
    first.setdefault(c, 1)
    n[c] += nxt != 0
print(" ".join("cpu%d=%d" % (c, n[c]) for c in range(cpus)))
PY
}
json_slices "$D" >"$TMP/json-slices" 2>&1
OUT="$TMP/json-slices"
check "trace-json-parses" [ "$(wc -l <"$TMP/json-slices")" = 2 ]
check "trace-json-slices-are-trace-checks" [ "$(head -1 "$TMP/json-slices")" = \
    "$(sed -n 's/^slices: [0-9]* (.*per CPU: \(.*\))$/\1/p' "$D/check.txt")" ]
check "trace-json-slices-are-the-texts" [ "$(head -1 "$TMP/json-slices")" = "$(sed -n 2p "$TMP/json-slices")" ]
check "trace-json-wakeup-flows" grep -q '"ph":"f","name":"wakeup"' "$D/trace.json"
OUT="$D/latency.txt"
expect "trace-latency-table" '^  Task                  \|   Runtime ms  \| Switches \| Average delay ms \| Maximum delay ms \| Maximum delay at       \|$'
expect "trace-latency-hackbench" '^  hb-receiver:[0-9]+ +\| +[0-9]+\.[0-9]{3} ms \| +[0-9]+ \| avg: +[0-9.]+ ms \| max: +[0-9.]+ ms \| max at: +[0-9.]+ s$'
expect "trace-map" '^\*[A-Z][0-9] .* secs [A-Z][0-9] => '
OUT="$D/summary.txt"
expect "trace-summary-cpus" '^   1 +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+ +[0-9]+ +[0-9]+$'
expect "trace-summary-groups" '^hackbench groups: 2 '
OUT="$D/report.html"
expect "trace-report-section" '<h2 id="traces">Scheduler traces</h2>'

# The timeline in headless Chromium: every CPU lane has slices in the screenshot.
if command -v chromium >/dev/null 2>&1 && command -v convert >/dev/null 2>&1; then
    mkdir -p "$TMP/chromium"
    timeout 90 chromium --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update \
        --disable-sync --no-first-run --user-data-dir="$TMP/chromium" --hide-scrollbars --force-device-scale-factor=1 \
        --window-size=1240,420 --screenshot="$TMP/timeline.png" "file://$D/timeline.html" >"$TMP/chromium.log" 2>&1
    OUT="$TMP/chromium.log"
    check "trace-chromium-screenshot" [ -s "$TMP/timeline.png" ]
    for c in 0 1; do
        y=$(grep -o "class=\"tl-lane\" data-cpu=\"$c\" x=\"100\" y=\"[0-9]*\"" "$D/timeline.svg" | sed 's/.*y="//; s/"//')
        ink=$(convert "$TMP/timeline.png" -crop "1100x26+100+$(( ${y:-0} + 2 ))" +repage -fuzz 2% -fill white \
            -opaque '#f0f0f0' -colorspace gray -threshold 99% -format '%[fx:int(1000*(1-mean))]' info: 2>/dev/null)
        check "trace-chromium-lane$c-not-blank (${ink:-?} per mille)" test "${y:-none}" != none -a "${ink:-0}" -ge 20
    done
    ink=$(convert "$TMP/timeline.png" -crop 1100x20+100+395 +repage -colorspace gray -threshold 99% \
        -format '%[fx:int(1000*(1-mean))]' info: 2>/dev/null)
    check "trace-chromium-below-is-blank (${ink:-?} per mille)" [ "${ink:-1000}" -le 5 ]
else
    fail trace-chromium-screenshot "chromium or imagemagick missing (tools/deps.sh)"
    for n in lane0-not-blank lane1-not-blank below-is-blank; do skip "trace-chromium-$n" "no chromium"; done
fi

# ---- a tiny buffer: the oldest dropped and counted, the result intact ----
tboot cfs 2 'bench=hackbench groups=2 loops=10 trace=1 trace_buf_kib=4' "$TMP/tiny.bin" 120
check "trace-tiny-exit0" [ "$RC" = 0 ]
expect "trace-tiny-result" '^result bench=hackbench .* status=ok'
expect "trace-tiny-dropped" '^tracestat cpu=0 events=[0-9]+ kept=64 dropped=[1-9][0-9]*$'
LOG=$OUT
"$TOOL" trace-check "$TMP/tiny.bin" --log "$LOG" >"$TMP/tiny.check" 2>&1
RC=$? OUT="$TMP/tiny.check"
check "trace-tiny-consistent" [ "$RC" = 0 ]
expect "trace-tiny-counted" 'dropped=[1-9][0-9]*$'

# ---- tools/schedlab trace with a 16 KiB buffer: the drops said in words on
# the console, in trace-check, the summary, the report and the timeline,
# which shows no data (class no-data) and no slice where a CPU lost records ----
D16="$TMP/trace-16"
"$ROOT/tools/schedlab" trace --sched "$S" --smp 2 --accel vsmp --bench hackbench --groups 4 --loops 20 --buf-kib 16 \
    --out "$D16" >"$TMP/trace-16.out" 2>&1
RC=$? OUT="$TMP/trace-16.out"
check "trace16-exit0" [ "$RC" = 0 ]
expect "trace16-console-words" '^schedlab: trace: cpu 0 dropped [1-9][0-9]* of [0-9]+ events; the timeline starts at [0-9]+\.[0-9] ms there$'
OUT="$D16/logs/$S-smp2-boot1.log"
expect "trace16-kernel-words" '^trace: cpu 0 dropped [1-9][0-9]* of [0-9]+ events; the timeline starts at [0-9]+\.[0-9] ms there '
words=$(proto_field text --kind trace: "$OUT" | grep '^cpu 0 dropped ' | head -1)
words="trace: ${words%% (the buffer*}"
OUT="$D16/check.txt"
check "trace16-check-says-the-same" grep -qxF "$words" "$D16/check.txt"
expect "trace16-check-total" '^trace-check: [0-9]+ events on 2 CPUs, [1-9][0-9]* dropped .*, 0 violations$'
OUT="$D16/report.html"
check "trace16-report-says-so" grep -qF "$words" "$D16/report.html"
OUT="$D16/timeline.svg"
check "trace16-timeline-header" grep -qF ">$words (hatched: no data)</text>" "$D16/timeline.svg"
expect "trace16-no-data" '<rect class="no-data" data-cpu="0" x="0" '
# No slice on cpu 0's lane starts before its no-data area ends.
nd=$(sed -n 's/.*<rect class="no-data" data-cpu="0" x="0" y="\([0-9]*\)" width="\([0-9.]*\)".*/\1 \2/p' "$D16/timeline.svg")
bad=$(awk -v y="${nd%% *}" -v w="${nd##* }" 'match($0, /^<rect x="[0-9.]+" y="[0-9]+"/) {
        split(substr($0, RSTART, RLENGTH), f, "\""); if (f[4] == y + 2 && f[2] + 0 < w - 0.001) n++ }
    END { print n + 0 }' "$D16/timeline.svg")
check "trace16-no-slice-over-missing-data ($bad)" test -n "$nd" -a "$bad" = 0
json_slices "$D16" >"$TMP/json16" 2>&1
OUT="$TMP/json16"
check "trace16-json-slices-are-trace-checks" [ "$(head -1 "$TMP/json16")" = \
    "$(sed -n 's/^slices: [0-9]* (.*per CPU: \(.*\))$/\1/p' "$D16/check.txt")" ]

# ---- 8 vCPUs and a small buffer: no stall, the result is there ----
tboot "$S" 8 'bench=hackbench groups=2 loops=5 trace=1 trace_buf_kib=8' "$TMP/smp8.bin" 120
check "trace-smp8-exit0" [ "$RC" = 0 ]
expect "trace-smp8-result" '^result bench=hackbench .* status=ok'
expect "trace-smp8-channel" '^trace: [0-9]+ records \([0-9]+ dropped\), [0-9]+ bytes on the trace channel'
LOG=$OUT
"$TOOL" trace-check "$TMP/smp8.bin" --log "$LOG" >"$TMP/smp8.check" 2>&1
RC=$? OUT="$TMP/smp8.check"
check "trace-smp8-consistent" [ "$RC" = 0 ]

# ---- run --trace-boot: one boot of a matrix, the others untouched ----
M="$TMP/trace-matrix"
"$ROOT/tools/schedlab" run --sched rr,"$S" --smp 1 --bench pipe --loops 300 --trace-boot "$S-smp1-boot1" \
    --trace-events switch,wakeup --out "$M" >"$TMP/matrix.out" 2>&1
RC=$? OUT="$TMP/matrix.out"
check "trace-run-exit0" [ "$RC" = 0 ]
check "trace-run-traced" [ -s "$M/traces/$S-smp1-boot1/trace.txt" ]
check "trace-run-only-one" [ ! -e "$M/traces/rr-smp1-boot1" ]
OUT="$M/logs/$S-smp1-boot1.log"
expect "trace-run-boot-line" '^boot: .* trace=1 trace_events=switch,wakeup trace_buf_kib=8192$'
OUT="$M/logs/rr-smp1-boot1.log"
expect_not "trace-run-untraced" 'trace='
OUT="$M/traces/$S-smp1-boot1/trace.txt"
expect_not "trace-run-filter" ': sched_(process_fork|wakeup_new|migrate_task|event):'
"$ROOT/tools/schedlab" run --sched rr --smp 1 --bench pipe --trace-boot rr-smp2-boot1 --out "$TMP/m2" >"$TMP/m2.out" 2>&1
RC=$? OUT="$TMP/m2.out"
check "trace-run-bad-boot-exit2" [ "$RC" = 2 ]
expect "trace-run-bad-boot-error" '^schedlab( [a-z-]+)?: error: --trace-boot rr-smp2-boot1: not a boot of this matrix'
"$ROOT/tools/schedlab" run --sched rr --smp 1 --bench pipe --trace-events switch --out "$TMP/m3" >"$TMP/m3.out" 2>&1
RC=$? OUT="$TMP/m3.out"
check "trace-run-events-need-boot" [ "$RC" = 2 ]

# ---- a directory trace refuses (not empty, no --force) keeps its files: no
# report remade over them, none announced ----
before=$(stat -c %y "$D/report.html")
"$ROOT/tools/schedlab" trace --sched cfs --smp 2 --bench hackbench --groups 2 --loops 10 --out "$D" >"$TMP/again.out" 2>&1
RC=$? OUT="$TMP/again.out"
check "trace-refused-dir-exit1" [ "$RC" = 1 ]
check "trace-refused-dir-untouched" sh -c "[ \"\$(stat -c %y '$D/report.html')\" = '$before' ] && ! grep -q 'report with the timeline' '$TMP/again.out'"

# ---- a stream cut off is an error, not a partial picture ----
head -c 5000 "$D/trace.bin" >"$TMP/cut.bin"
"$TOOL" trace-convert "$TMP/cut.bin" --out "$TMP/cut" >"$TMP/cut.out" 2>&1
RC=$? OUT="$TMP/cut.out"
check "trace-cut-exit1" [ "$RC" = 1 ]
expect "trace-cut-error" '^schedlab( [a-z-]+)?: error: .*cut.bin: cut off'
check "trace-cut-no-files" [ ! -e "$TMP/cut/trace.txt" ]
