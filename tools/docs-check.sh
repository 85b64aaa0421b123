#!/bin/bash
# docs-check: re-run the command behind every deterministic figure of
# README.md and docs/*.md and compare each figure with what the text says,
# literally (vsmp and icount runs repeat exactly).  docs/testing.md,
# "make docs-check", describes the markup; in short, HTML comments that a
# rendered page does not show:
#
#   <!-- docs-check: run [long] [name=N] -->   before a ```sh block: its commands
#                                  are run (bash -e -o pipefail, repository root);
#                                  `long`: only without --quick (make test-long)
#   <!-- docs-check: output -->    before a fenced block, or a table (the lines up
#                                  to the next blank line): exactly the stdout of
#                                  the last run block above it in the file
#   FIGURE<!--=KEY-->              an inline figure: the value of the first KEY=VALUE
#                                  word in the last run block's stdout (KEY#2: the
#                                  second, N:KEY: of the run named N), or with KEY
#                                  row(REGEX,M,W) word W of the M-th line matching
#                                  the extended REGEX (no commas in it)
#   <!-- docs-check: host-sample date=YYYY-MM-DD machine="..." -->
#                                  before a ```sh block whose figures depend on the
#                                  host (TCG, KVM, wall time): listed, not checked
#
# Commands that write under /tmp/ write under a scratch directory of this run
# instead (their output says /tmp/ again), so two checks never share files.
# A command run twice (the same text) runs once.  Every checked figure gets a
# line "ok|DIFF FILE:LINE FIGURE ... (COMMAND)"; the last line is
# "N figures checked, N differ"; exit 1 when one differs or a command failed.
#
#   tools/docs-check.sh [--quick] [--update] [--list] [--cache DIR] [FILE...]
#     --quick    skip the run blocks marked long (make test runs this)
#     --cache DIR  keep each command's output (and the files it wrote under
#                /tmp/) in DIR and reuse it there: for a second check of the
#                same tree (the test suite's changed copy of a page)
#     --update   write what the commands print into the files instead of
#                comparing (make docs-check UPDATE=1); review with git diff
#     --list     parse and list the checks without running anything
#     FILE...    default: README.md and docs/*.md (not the lab notebook: it
#                keeps what was measured then)
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
QUICK=0 UPDATE=0 LIST=0 CACHE=
FILES=()
usage() { sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
    case $1 in
    --quick) QUICK=1 ;;
    --update) UPDATE=1 ;;
    --list) LIST=1 ;;
    --cache) [ $# -ge 2 ] || { echo "error: --cache needs a directory" >&2; exit 2; }; CACHE=$2; shift ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "error: $1: unknown option (tools/docs-check.sh --help)" >&2; exit 2 ;;
    *) [ -f "$1" ] || { echo "error: $1: no such file" >&2; exit 2; }; FILES+=("$1") ;;
    esac
    shift
done
cd "$ROOT" || exit 2
[ ${#FILES[@]} -gt 0 ] || FILES=(README.md docs/*.md)

W=$(mktemp -d "${TMPDIR:-/tmp}/docs-check.XXXXXX") || exit 2
trap 'rm -rf "$W"' EXIT
C=${CACHE:-$W/cache}
mkdir -p "$C/scratch" || exit 2
C=$(cd "$C" && pwd)

# ---- 1. parse: a plan line per item, the blocks' texts in files ----
# R|file|line|run|long|name          run block (its commands in $W/cmd.<run>)
# O|file|line|endline|run|n          expected output (in $W/exp.<n>); line..endline are its lines
# F|file|line|run|key|figure         inline figure
# H|file|line|date|machine|command   host sample
# E|file|line|why                    a marker that does not fit
parse() {
    awk -v W="$W" -v fileno="$2" -v file="$1" '
    function fail(why) { printf "E|%s|%d|%s\n", file, NR, why }
    function attr(s, k,   m) {
        if (match(s, k "=\"[^\"]*\"")) { m = substr(s, RSTART + length(k) + 2, RLENGTH - length(k) - 3); return m }
        if (match(s, k "=[^ ]*")) return substr(s, RSTART + length(k) + 1, RLENGTH - length(k) - 1)
        return ""
    }
    # the figure written just before an inline marker that starts at column c
    function figure_before(s, c,   t) {
        t = substr(s, 1, c - 1)
        sub(/[*`_)]+$/, "", t)
        if (!match(t, /[^ (*`|]+$/)) return ""
        t = substr(t, RSTART)
        return t ~ /[0-9]/ ? t : ""     # a word without a digit is no figure
    }
    BEGIN { run = ""; state = ""; nout = 0; nrun = 0 }
    # A block fenced with four backticks shows markup (docs/testing.md): not read.
    state == "" && /^````/ { state = "verbatim"; next }
    state == "verbatim" { if (/^````/) state = ""; next }
    # inside a block the marker asked for
    state == "want-fence" {
        if ($0 ~ /^```/) { state = want; blockstart = NR + 1; text = ""; nl = 0; next }
        if ($0 ~ /^[ \t]*$/) next
        if (want == "output") {           # a table or paragraph: up to the next blank line
            state = "para"; blockstart = NR; text = $0 "\n"; nl = 1; next
        }
        printf "E|%s|%d|%s\n", file, mline, "expected a ``` block after the marker"; state = ""; next
    }
    state == "para" {
        if ($0 ~ /^[ \t]*$/) { emit_out(NR - 1); state = ""; next }
        text = text $0 "\n"; nl++; next
    }
    state == "run" || state == "host" || state == "output" {
        if ($0 ~ /^```[ \t]*$/) {
            if (state == "run") {
                nrun++; run = fileno "." nrun
                printf "%s", text > (W "/cmd." run); close(W "/cmd." run)
                printf "R|%s|%d|%s|%d|%s\n", file, mline, run, runlong, runname
                if (runname != "") named[runname] = run
            } else if (state == "host") {
                first = text; sub(/\n.*/, "", first)
                printf "H|%s|%d|%s|%s|%s\n", file, mline, hdate, hmachine, first
            } else emit_out(NR - 1)
            state = ""; next
        }
        text = text $0 "\n"; nl++; next
    }
    function emit_out(endline) {
        if (run == "") { printf "E|%s|%d|%s\n", file, mline, "an output block with no run block above it"; return }
        nout++
        printf "%s", text > (W "/exp." fileno "." nout); close(W "/exp." fileno "." nout)
        printf "O|%s|%d|%d|%s|%s\n", file, blockstart, endline, run, fileno "." nout
    }
    /<!-- docs-check:/ {
        m = $0; sub(/.*<!-- docs-check:[ ]*/, "", m); sub(/[ ]*-->.*/, "", m); mline = NR
        split(m, w, " ")
        if (w[1] == "run") {
            want = "run"; state = "want-fence"; runlong = (m ~ /(^| )long( |$)/); runname = attr(m, "name")
        } else if (w[1] == "output") {
            want = "output"; state = "want-fence"
        } else if (w[1] == "host-sample") {
            hdate = attr(m, "date"); hmachine = attr(m, "machine")
            if (hdate !~ /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]$/ || hmachine == "")
                fail("a host sample needs date=YYYY-MM-DD and machine=\"...\"")
            want = "host"; state = "want-fence"
        } else fail("unknown docs-check marker \"" w[1] "\"")
        next
    }
    /<!--=[^>]*-->/ {
        s = $0; off = 0
        gsub(/`[^`]*`/, "", s)          # in inline code a marker is shown, not meant
        while (match(s, /<!--=[^>]*-->/)) {
            ms = RSTART; ml = RLENGTH        # figure_before() matches too
            key = substr(s, ms + 5, ml - 8); raw = key; sub(/^ +/, "", key); sub(/ +$/, "", key)
            fig = figure_before(s, ms)
            r = run
            if (key ~ /^[a-z0-9_]+:/) { nm = key; sub(/:.*/, "", nm); sub(/^[^:]*:/, "", key); r = (nm in named) ? named[nm] : "" }
            if (r == "") fail("inline figure " key ": no run block above it" (nm != "" ? " named " nm : ""))
            else if (fig == "") fail("inline figure " key ": no figure written before the marker")
            else printf "F|%s|%d|%s|%s|%s|%s\n", file, NR, r, key, fig, raw
            s = substr(s, ms + ml); nm = ""
        }
    }
    END { if (state == "para") emit_out(NR); else if (state != "") fail("the file ends inside a docs-check block") }
    ' "$1"
}

: >"$W/plan"
n=0
for f in "${FILES[@]}"; do
    n=$((n + 1))
    parse "$f" "$n" >>"$W/plan"
done
if grep -q '^E|' "$W/plan"; then
    awk -F'|' '$1 == "E" { printf "error: %s:%d: %s\n", $2, $3, $4 }' "$W/plan" >&2
    exit 2
fi

cmdline_of() { awk 'NF { if (n++) { printf " ..."; exit } printf "%s", $0 }' "$1"; }

if [ "$LIST" = 1 ]; then
    while IFS='|' read -r kind file line a b c d; do
        case $kind in
        R) printf 'run    %s:%s%s: %s\n' "$file" "$line" "$([ "$b" = 1 ] && echo ' (long)')" "$(cmdline_of "$W/cmd.$a")" ;;
        O) printf 'output %s:%s-%s (%s figures)\n' "$file" "$line" "$a" "$(awk -F'[ |]+' '{ for (i = 1; i <= NF; i++) { w = $i; sub(/.*=/, "", w); if (w ~ /^[-+(~x]*[0-9]/) n++ } } END { print n + 0 }' "$W/exp.$c")" ;;
        F) printf 'figure %s:%s %s = %s\n' "$file" "$line" "$c" "$b" ;;
        H) printf 'host   %s:%s %s on %s: %s\n' "$file" "$line" "$a" "$b" "$c${d:+|$d}" ;;
        esac
    done <"$W/plan"
    exit 0
fi

# ---- 2. run: the kernels and tools first, then every run block once ----
if grep -q '^R|' "$W/plan"; then
    for s in $(make -s list-scheds); do
        make -s SCHED="$s" kernel >"$W/build.log" 2>&1 || { cat "$W/build.log" >&2; echo "error: make SCHED=$s failed" >&2; exit 2; }
    done
    make -s tools >"$W/build.log" 2>&1 || { cat "$W/build.log" >&2; echo "error: make tools failed" >&2; exit 2; }
fi
while IFS='|' read -r kind file line run long name; do
    [ "$kind" = R ] || continue
    if [ "$QUICK" = 1 ] && [ "$long" = 1 ]; then
        echo skipped >"$W/status.$run"; : >"$W/out.$run"; continue
    fi
    key=$(cksum <"$W/cmd.$run" | cut -d' ' -f1)
    if [ ! -f "$C/$key.rc" ]; then
        sed "s|/tmp/|$C/scratch/|g" "$W/cmd.$run" >"$C/$key.sh"
        t0=$(date +%s)
        (cd "$ROOT" && DOCS_CHECK=1 bash -e -o pipefail "$C/$key.sh" \
            >"$C/$key.out" 2>"$C/$key.err" </dev/null)
        echo $? >"$C/$key.rc"
        echo "docs-check: $file:$line: $(( $(date +%s) - t0 )) s" >&2
        sed -i "s|$C/scratch/|/tmp/|g" "$C/$key.out"
    fi
    cp "$C/$key.out" "$W/out.$run"
    rc=$(cat "$C/$key.rc")
    if [ "$rc" = 0 ]; then echo ok >"$W/status.$run"; else
        e=$(tail -1 "$C/$key.err"); echo "failed (exit $rc)${e:+: $e}" >"$W/status.$run"
    fi
done <"$W/plan"

# ---- 3. compare (or update) ----
status_of() { cat "$W/status.$1" 2>/dev/null || echo "not run"; }
: >"$W/report" ; : >"$W/edits"
while IFS='|' read -r kind file line a b c d; do
    case $kind in
    O)  endline=$a run=$b n=$c
        st=$(status_of "$run"); cmd=$(cmdline_of "$W/cmd.$run")
        awk -v file="$file" -v start="$line" -v st="$st" -v cmd="$cmd" -v upd="$UPDATE" -v edits="$W/edits" '
        FILENAME == ARGV[1] { ex[++ne] = $0; next }
        { act[++na] = $0 }
        function isfig(w) { sub(/.*=/, "", w); return w ~ /^[-+(~x]*[0-9]/ }
        function figs(s,   t, i, k, m) { m = split(s, t, /[ |]+/); k = 0; for (i = 1; i <= m; i++) if (isfig(t[i])) fig[++k] = t[i]; return k }
        function say(v, l, f, why) { printf "%s %s:%d %s%s (%s)\n", v, file, l, f, why, cmd }
        END {
            if (st == "skipped") {
                for (i = 1; i <= ne; i++) { k = figs(ex[i]); for (j = 1; j <= k; j++) say("skip", start + i - 1, fig[j], ": long, make test-long") }
                exit
            }
            if (st != "ok") {
                for (i = 1; i <= ne; i++) { k = figs(ex[i]); for (j = 1; j <= k; j++) say("DIFF", start + i - 1, fig[j], ": the command " st) }
                if (ne == 0) say("DIFF", start, "(block)", ": the command " st)
                exit
            }
            if (upd) {
                diff = (ne != na); for (i = 1; i <= ne && !diff; i++) if (ex[i] != act[i]) diff = 1
                if (diff) { printf "B|%s|%d|%d|%s\n", file, start, start + ne - 1, FILENAME >> edits; printf "updated %s:%d-%d (%s)\n", file, start, start + ne - 1, cmd }
                exit
            }
            for (i = 1; i <= ne || i <= na; i++) {
                l = start + (i <= ne ? i : ne) - 1
                if (i > ne) { printf "DIFF %s:%d (a line more: \"%s\") (%s)\n", file, l, act[i], cmd; continue }
                k = figs(ex[i])
                if (i > na) { for (j = 1; j <= k; j++) say("DIFF", l, fig[j], ", now missing"); if (!k) say("DIFF", l, "(line)", ", now missing"); continue }
                if (ex[i] == act[i]) { for (j = 1; j <= k; j++) say("ok", l, fig[j], ""); continue }
                # the line differs: figure by figure where the words line up, else all of them
                m = split(act[i], aw, /[ |]+/); ne2 = split(ex[i], ew, /[ |]+/)
                if (m == ne2) {
                    any = 0
                    for (j = 1; j <= ne2; j++) if (isfig(ew[j])) say(ew[j] == aw[j] ? "ok" : "DIFF", l, ew[j], ew[j] == aw[j] ? "" : ", now " aw[j])
                    for (j = 1; j <= ne2; j++) if (ew[j] != aw[j] && !isfig(ew[j])) any = 1
                    if (any) say("DIFF", l, "(text)", ", now \"" act[i] "\"")
                } else {
                    for (j = 1; j <= k; j++) say("DIFF", l, fig[j], "")
                    say("DIFF", l, "(line)", ", now \"" act[i] "\"")
                }
            }
        }' "$W/exp.$n" "$W/out.$run" >>"$W/report"
        ;;
    F)  run=$a key=$b fig=$c raw=$d
        st=$(status_of "$run"); cmd=$(cmdline_of "$W/cmd.$run")
        if [ "$st" = skipped ]; then printf 'skip %s:%s %s: long, make test-long (%s)\n' "$file" "$line" "$fig" "$cmd" >>"$W/report"; continue; fi
        if [ "$st" != ok ]; then printf 'DIFF %s:%s %s: the command %s (%s)\n' "$file" "$line" "$fig" "$st" "$cmd" >>"$W/report"; continue; fi
        case $key in
        'row('*')')
            spec=${key#row(}; spec=${spec%)}
            re=${spec%%,*}; rest=${spec#*,}; m=${rest%%,*}; wd=${rest#*,}
            val=$(awk -v re="$re" -v m="$m" -v w="$wd" '$0 ~ re && ++c == m { print $w; exit }' "$W/out.$run") ;;
        *)
            nth=1; k=$key
            case $key in *'#'*) nth=${key#*#}; k=${key%%#*} ;; esac
            val=$(tr ' \t' '\n\n' <"$W/out.$run" | awk -v k="$k" -v n="$nth" 'index($0, k "=") == 1 && ++c == n { print substr($0, length(k) + 2); exit }') ;;
        esac
        if [ -z "$val" ]; then
            printf 'DIFF %s:%s %s: no %s= in the output (%s)\n' "$file" "$line" "$fig" "$key" "$cmd" >>"$W/report"
        elif [ "$UPDATE" = 1 ]; then
            [ "$val" = "$fig" ] || { printf 'F|%s|%s|%s|%s|%s\n' "$file" "$line" "$raw" "$fig" "$val" >>"$W/edits"; printf 'updated %s:%s %s -> %s (%s)\n' "$file" "$line" "$fig" "$val" "$cmd" >>"$W/report"; }
        elif [ "$val" = "$fig" ]; then
            printf 'ok %s:%s %s (%s)\n' "$file" "$line" "$fig" "$cmd" >>"$W/report"
        else
            printf 'DIFF %s:%s %s, now %s (%s)\n' "$file" "$line" "$fig" "$val" "$cmd" >>"$W/report"
        fi
        ;;
    H)  printf 'not checked %s:%s host sample, %s on %s: %s\n' "$file" "$line" "$a" "$b" "$c${d:+|$d}" >>"$W/report" ;;
    esac
done <"$W/plan"

if [ "$UPDATE" = 1 ]; then
    # Rewrite each file once: blocks replaced by what the command printed, inline figures in place.
    for f in "${FILES[@]}"; do
        grep -q "^[BF]|$f|" "$W/edits" || continue
        awk -v f="$f" -v E="$W/edits" '
        FILENAME == E {
            if ($2 != f) next
            if ($1 == "B") { bstart[$3] = $4; bfile[$3] = $5 }
            else { figline[$3] = figline[$3] SUBSEP $4 SUBSEP $5 SUBSEP $6 }
            next
        }
        FNR in bstart {
            while ((getline l < bfile[FNR]) > 0) print l
            close(bfile[FNR]); skip_to = bstart[FNR]
            if (skip_to < FNR) print        # an empty block: keep this line
            next
        }
        skip_to && FNR <= skip_to { next }
        FNR in figline {
            n = split(substr(figline[FNR], 2), e, SUBSEP)
            for (i = 1; i + 2 <= n; i += 3) {
                marker = "<!--=" e[i] "-->"
                p = index($0, marker)
                if (!p) continue
                before = substr($0, 1, p - 1); after = substr($0, p)
                q = 0; t = before
                while ((r = index(t, e[i + 1])) > 0) { q += r; t = substr(t, r + 1) }   # the last occurrence
                if (q) $0 = substr(before, 1, q - 1) e[i + 2] substr(before, q + length(e[i + 1])) after
            }
        }
        { print }
        ' FS='|' "$W/edits" FS='\n' "$f" >"$W/new" && cat "$W/new" >"$f"
    done
fi

cat "$W/report"
awk '
$1 == "ok" { ok++ } $1 == "DIFF" { bad++ } $1 == "skip" { skip++ } $1 == "not" { host++ } $1 == "updated" { upd++ }
END {
    if (skip) printf "%d figures skipped (long: make docs-check or make test-long)\n", skip
    if (host) printf "%d host samples not checked\n", host
    if (upd) printf "%d blocks or figures updated: review them with git diff\n", upd
    printf "%d figures checked, %d differ\n", ok + bad, bad + 0
    exit bad > 0
}' "$W/report"
