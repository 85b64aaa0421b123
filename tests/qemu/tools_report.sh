# The HTML reports as a reader sees them: rendered by headless Chromium (a
# screenshot that is not blank, the DOM with real tables and inline SVG
# plots, no horizontal overflow at 1280 px, no <pre> but the one command
# line), for one directory, a before/after pair and a reproduction (its
# scorecard coloured by deviation, the post's table beside ours).  The data
# are the fixture tests/tools/run-a (no QEMU); four Chromium starts, 15-45 s.
# run-all: host job
. "$(dirname "$0")/../lib.sh"
plan 28

SL="$ROOT/tools/schedlab"
TOOL="$ROOT/build/tools/schedlab"
D="$TMP/report.$$"
mkdir -p "$D"
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
ok_if report-meta-table "the provenance is not a table of meta.txt" grep -q '<tr><th>git_revision</th><td>abc</td></tr>' "$H"
ok_if report-no-pre "a <pre> in the report (tables are tables; notes a list)" sh -c "! grep -q '<pre' '$H'"
ok_if report-scorecard "the scorecard is not shown" grep -q '<td>o1/goodness &lt; 0.8</td>' "$H"
ok_if report-compare-table "the comparison is not a table" grep -q '<table class="compare">' "$H"
ok_if report-self-contained "it links to other files" sh -c "! grep -Eq '(src|href)=\"(http|file:|[a-z0-9_./-]+\\.(png|svg|css|js)\")' '$H'"
"$SL" report "$A" "$B" >"$D/last.log" 2>&1
rc=$?
H2="$B/report-vs-before.html"
ok_if report-two-exit0 "report A B exited $rc" sh -c "[ $rc = 0 ] && [ -s '$H2' ]"
ok_if report-two-title "the before/after title" grep -q '<h1>schedlab report: before (before) and after (after)</h1>' "$H2"
ok_if report-two-series "the two directories are not the series" grep -q '<th class="line">before</th>' "$H2"

# ---- a reproduction's report (schedlab scorecard --html, repro-report), from the fixture:
# seed000's hackbench table with run-a's goodness and o1 rows
R="$D/repro"
mkdir -p "$R/cost-none/hackbench" "$R/plots"
printf 'goodness=%s#goodness\no1=%s#o1\n' "$A" "$A" >"$R/cost-none/hackbench/rows"
echo "# seed000 configuration: accel=tcg sizes=quick cost=none runs=3 timeout=120 (a test fixture)" >"$R/scorecard.txt"
"$TOOL" scorecard seed000 hackbench "goodness=$A#goodness" "o1=$A#o1" --csv "$R/scorecard.csv" --html "$R/cost-none/hackbench.html" \
    --plots "$R/plots" --notes "$ROOT/tools/reproduce-notes.txt" >"$R/cost-none/hackbench.txt" 2>"$D/last.log"
{ echo "== seed000 hackbench, cost=none"; cat "$R/cost-none/hackbench.txt"; } >>"$R/scorecard.txt"
"$TOOL" repro-report "$R" --command "tools/schedlab reproduce seed000 --only hackbench" >>"$D/last.log" 2>&1
rc=$?
H3="$R/report.html"
ok_if repro-report-exit0 "repro-report exited $rc" sh -c "[ $rc = 0 ] && [ -s '$H3' ]"
ok_if repro-report-header "no question or verdict at the top" \
    sh -c "grep -q '<p class=\"question\"><b>The post.s question.</b>' '$H3' && grep -q '<p class=\"verdict\"><b>Verdict.</b>' '$H3'"
ok_if repro-report-scorecard-table "the scorecard is not a table with cells coloured by deviation" \
    sh -c "grep -q '<table class=\"scorecard\">' '$H3' && grep -Eq '<td class=\"num dev-(near|mid|far)\">[-+][0-9.]+%</td>' '$H3'"
ok_if repro-report-side-by-side "the post's table and ours are not both tables, side by side" \
    sh -c "grep -q '<div class=\"side\">' '$H3' && grep -q '<table class=\"post\"><caption>The post: hackbench, seconds' '$H3' &&
           grep -q '<table class=\"ours\"><caption>Here: hackbench, seconds' '$H3'"
ok_if repro-report-ran "no 'measured here' and 'the post' sizes" \
    sh -c "grep -q '<tr><th>measured here</th><td>hackbench, groups 50,100, loops 100;' '$H3' && grep -q '<tr><th>the post</th><td>hackbench, groups 50,100,150,200, loops 100;' '$H3'"
ok_if repro-report-one-pre "more than one <pre>, or it is not the command" \
    sh -c "[ \$(grep -c '<pre' '$H3') = 1 ] && grep -q '<pre>tools/schedlab reproduce seed000 --only hackbench</pre>' '$H3'"
ok_if repro-report-provenance-last "provenance is not the last section" \
    sh -c "[ \"\$(grep -o '<h2[^>]*>[^<]*' '$H3' | tail -1)\" = '<h2 id=\"provenance\">Provenance' ]"
ok_if repro-report-plots "the plots are not inline, one axis each (no y2), plain-text titles" \
    sh -c "[ \$(grep -c '<svg' '$H3') -ge 3 ] && ! grep -q y2 '$R'/plots/*.gp && grep -q 'set termoption noenhanced' '$R/plots/seed000-none-hackbench-ratio.gp'"

if command -v chromium >/dev/null 2>&1; then
    # No network here: every flag that would make Chromium reach for it is off.
    chrome() {
        timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update \
            --disable-sync --no-first-run --disable-default-apps --user-data-dir="$D/profile" "$@" 2>>"$D/chromium.log"
    }
    # The layout at 1280 px: a probe appended to a copy of each page writes what it measured into the
    # DOM: the page's scroll width against its client width, elements that reach past the right
    # edge, elements with a horizontal scrollbar of their own, <pre> and <table> elements.
    probe='<script>(function(){var d=document.documentElement,all=document.querySelectorAll("body *"),over=0,inner=0;
for(var i=0;i<all.length;i++){var e=all[i],r=e.getBoundingClientRect();if(r.width&&r.right>d.clientWidth+1)over++;
if(e.tagName!="TEXTAREA"&&e.scrollWidth>e.clientWidth+1&&getComputedStyle(e).overflowX!="visible")inner++;}
d.setAttribute("data-probe","sw="+d.scrollWidth+" cw="+d.clientWidth+" over="+over+" inner="+inner+" pre="+document.querySelectorAll("pre").length+" tables="+document.querySelectorAll("table").length);})();</script>'
    for h in "$H" "$H2" "$H3"; do
        n=$(basename "$(dirname "$h")")-$(basename "$h" .html)
        { cat "$h"; printf '%s\n' "$probe"; } >"$D/$n.probe.html"   # (the probe changes nothing that shows)
        chrome --window-size=1280,2000 --screenshot="$D/$n.png" --dump-dom "file://$D/$n.probe.html" >"$D/$n.dom"
        sed -n 's/.*data-probe="\([^"]*\)".*/\1/p' "$D/$n.dom" | head -1 >"$D/$n.probe"
    done
    for n in before-report after-report-vs-before repro-report; do
        p=$(cat "$D/$n.probe" 2>/dev/null)
        set -- $(echo "$p" | tr '= ' '  ')
        # sw N cw N over N inner N pre N tables N
        ok_if "report-layout-$n" "at 1280 px: '$p' (want sw = cw, over=0, inner=0)" \
            sh -c '[ -n "$1" ] && [ "$2" = "$4" ] && [ "$6" = 0 ] && [ "$8" = 0 ]' _ "$@"
    done
    printf '<!DOCTYPE html><html><body></body></html>' >"$D/blank.html"
    chrome --window-size=1200,2000 --screenshot="$D/blank.png" "file://$D/blank.html" >/dev/null
    cp "$D/chromium.log" "$D/last.log" 2>/dev/null
    magic=$(od -An -tx1 -N8 "$D/before-report.png" 2>/dev/null | tr -d ' \n')
    ok_if report-chromium-screenshot "no PNG screenshot (magic '$magic')" [ "$magic" = 89504e470d0a1a0a ]
    size=$(wc -c <"$D/before-report.png" 2>/dev/null || echo 0) blank=$(wc -c <"$D/blank.png" 2>/dev/null || echo 0)
    # A blank page of the same size compresses to a few KB; text, tables and plots do not.
    ok_if report-chromium-not-blank "the screenshot ($size bytes) is not 5x a blank page's ($blank bytes)" \
        sh -c "[ $blank -gt 0 ] && [ $size -gt $((blank * 5)) ]"
    ok_if report-chromium-tables "the rendered DOM has fewer than 6 tables" [ "$(count '<table' "$D/before-report.dom")" -ge 6 ]
    ok_if report-chromium-svg "the rendered DOM has no SVG" [ "$(count '<svg' "$D/before-report.dom")" -ge 4 ]
    ok_if report-chromium-two "the before/after report did not render" \
        sh -c "[ \$(wc -c <'$D/after-report-vs-before.png') -gt $((blank * 5)) ] && grep -q '<table class=\"compare\">' '$D/after-report-vs-before.dom'"
    ok_if report-chromium-repro "the reproduction's report did not render (blank, or fewer than 4 tables)" \
        sh -c "[ \$(wc -c <'$D/repro-report.png') -gt $((blank * 5)) ] && [ \$(grep -o '<table' '$D/repro-report.dom' | wc -l) -ge 4 ]"
else
    fail report-chromium-screenshot "chromium is not installed (tools/deps.sh check)"
    for n in layout-before-report layout-after-report-vs-before layout-repro-report chromium-not-blank chromium-tables \
        chromium-svg chromium-two chromium-repro; do skip "report-$n" "no chromium"; done
fi
rm -rf "$D"
