# The HTML report as a reader sees it: rendered by headless Chromium (a
# screenshot that is not blank, the DOM with real tables and inline SVG
# plots), for one directory and for a before/after pair.  The data are the
# fixture tests/tools/run-a (no QEMU); three Chromium starts, 10-30 s.
# run-all: host job
. "$(dirname "$0")/../lib.sh"

SL="$ROOT/tools/schedlab"
TOOL="$ROOT/build/tools/schedlab-tool"
D="$TMP/report.$$"
mkdir -p "$D"
fail_with() { echo "FAIL $1: $2"; shift 2; [ $# -gt 0 ] && sed 's/^/    | /' "$@" | tail -15; }
ok_if() { name=$1 why=$2; shift 2; if "$@"; then echo "ok $name"; else fail_with "$name" "$why" "$D/last.log"; fi; }
count() { grep -o "$1" "$2" | wc -l; }   # count PATTERN FILE: occurrences

make -s -C "$ROOT" tools >"$D/last.log" 2>&1
A="$D/before" B="$D/after"
for d in "$A" "$B"; do
    cp -r "$ROOT/tests/tools/run-a" "$d"
    printf 'date: 2026-12-01T10:00:00Z\ngit_revision: abc\naccel: tcg\nbuild: HZ=1000 LOCK=tas CFLAGS_EXTRA=\n' >"$d/meta.txt"
    "$TOOL" collect "$d" >"$D/last.log" 2>&1
done
sed -i 's/time_s=0\.4/time_s=0.3/' "$B"/logs/o1-smp1-boot1.log   # the "after": o1 faster on one boot
"$TOOL" collect "$B" >"$D/last.log" 2>&1
printf 'seed,target,measured,verdict\n000,o1/goodness < 0.8,0.55,met\n' >"$A/scorecard.csv"

"$SL" report "$A" >"$D/last.log" 2>&1
rc=$?
H="$A/report.html"
ok_if report-exit0 "report exited $rc" [ $rc = 0 ]
ok_if report-no-pre-tables "tables are <pre> dumps" sh -c "! grep -q '^<pre>number of groups' '$H' && grep -q '<th class=\"line\">number of groups</th>' '$H'"
ok_if report-inline-svg "no inline SVG plots" sh -c "[ $(count '<svg' "$H") -ge 4 ] && ! grep -q 'data:image/png' '$H'"
ok_if report-meta-dl "metadata is not a definition list" grep -q '<dt>git_revision</dt><dd>abc</dd>' "$H"
ok_if report-scorecard "the scorecard is not shown" grep -q '<td>o1/goodness &lt; 0.8</td>' "$H"
ok_if report-compare-table "the comparison is not a table" grep -q '<table class="compare">' "$H"
ok_if report-self-contained "it links to other files" sh -c "! grep -Eq '(src|href)=\"(http|file:|[a-z0-9_./-]+\\.(png|svg|css|js)\")' '$H'"
"$SL" report "$A" "$B" >"$D/last.log" 2>&1
rc=$?
H2="$B/report-vs-before.html"
ok_if report-two-exit0 "report A B exited $rc" sh -c "[ $rc = 0 ] && [ -s '$H2' ]"
ok_if report-two-title "the before/after title" grep -q '<h1>schedlab report: before (before) and after (after)</h1>' "$H2"
ok_if report-two-series "the two directories are not the series" grep -q '<th class="line">before</th>' "$H2"

if command -v chromium >/dev/null 2>&1; then
    # No network here: every flag that would make Chromium reach for it is off.
    chrome() {
        timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update \
            --disable-sync --no-first-run --disable-default-apps --user-data-dir="$D/profile" "$@" 2>>"$D/chromium.log"
    }
    for h in "$H" "$H2"; do
        n=$(basename "$h" .html)
        chrome --window-size=1200,2000 --screenshot="$D/$n.png" --dump-dom "file://$h" >"$D/$n.dom"
    done
    printf '<!DOCTYPE html><html><body></body></html>' >"$D/blank.html"
    chrome --window-size=1200,2000 --screenshot="$D/blank.png" "file://$D/blank.html" >/dev/null
    cp "$D/chromium.log" "$D/last.log" 2>/dev/null
    magic=$(od -An -tx1 -N8 "$D/report.png" 2>/dev/null | tr -d ' \n')
    ok_if report-chromium-screenshot "no PNG screenshot (magic '$magic')" [ "$magic" = 89504e470d0a1a0a ]
    size=$(wc -c <"$D/report.png" 2>/dev/null || echo 0) blank=$(wc -c <"$D/blank.png" 2>/dev/null || echo 0)
    # A blank page of the same size compresses to a few KB; text, tables and plots do not.
    ok_if report-chromium-not-blank "the screenshot ($size bytes) is not 5x a blank page's ($blank bytes)" \
        sh -c "[ $blank -gt 0 ] && [ $size -gt $((blank * 5)) ]"
    ok_if report-chromium-tables "the rendered DOM has fewer than 6 tables" [ "$(count '<table' "$D/report.dom")" -ge 6 ]
    ok_if report-chromium-svg "the rendered DOM has no SVG" [ "$(count '<svg' "$D/report.dom")" -ge 4 ]
    ok_if report-chromium-two "the before/after report did not render" \
        sh -c "[ \$(wc -c <'$D/report-vs-before.png') -gt $((blank * 5)) ] && grep -q '<table class=\"compare\">' '$D/report-vs-before.dom'"
else
    echo "FAIL report-chromium: chromium is not installed (tools/deps.sh check)"
fi
rm -rf "$D"
