# One program: tools/schedlab is a wrapper of at most 30 lines that runs
# build/tools/schedlab; schedlab --help lists every verb and each answers
# --help with its own usage line; make install PREFIX=DIR installs the
# program (which then reads results from anywhere), a man page per verb
# that man -l renders without a warning, and a bash completion of verbs,
# flags, schedulers and the workloads' keys (bench=list).  No QEMU.
# run-all: host job
. "$(dirname "$0")/../lib.sh"
plan 11

D="$TMP/install.$$"
mkdir -p "$D"
SL="$ROOT/tools/schedlab"

cp "$SL" "$D/last.log"
ok_if install-wrapper "tools/schedlab is not a script of at most 30 lines that runs build/tools/schedlab" \
    sh -c '[ "$(wc -l <"$1")" -le 30 ] && head -1 "$1" | grep -q "^#!/bin/sh" && grep -q "exec \"\$ROOT/build/tools/schedlab\"" "$1"' _ "$SL"

"$SL" --help >"$D/help.txt" 2>&1
verbs=$("$SL" --list-verbs 2>/dev/null)
missing="" bad=""
for v in $verbs; do
    grep -q "^  $v " "$D/help.txt" || missing="$missing $v"
    "$SL" "$v" --help >"$D/v.txt" 2>&1 && grep -q "^usage: schedlab $v" "$D/v.txt" || bad="$bad $v"
done
cp "$D/help.txt" "$D/last.log"
ok_if install-help-lists-verbs "schedlab --help does not list:$missing" sh -c '[ -n "$1" ] && [ -z "$2" ]' _ "$verbs" "$missing"
ok_if install-verb-help "no 'usage: schedlab VERB' from --help of:$bad" [ -z "$bad" ]

P="$D/prefix"
make -s -C "$ROOT" install PREFIX="$P" >"$D/last.log" 2>&1
rc=$?
ok_if install-exit0 "make install PREFIX=$P exited $rc" [ $rc = 0 ]
ok_if install-program "no $P/bin/schedlab" [ -x "$P/bin/schedlab" ]
nopage=""
for v in $verbs; do [ -s "$P/share/man/man1/schedlab-$v.1" ] || nopage="$nopage $v"; done
ok_if install-man-pages "no man page for:$nopage (or no schedlab.1)" sh -c '[ -z "$1" ] && [ -s "$2/share/man/man1/schedlab.1" ]' _ "$nopage" "$P"
: >"$D/man.err"
for p in "$P"/share/man/man1/*.1; do
    MANWIDTH=100 man -l "$p" >"$D/man.out" 2>>"$D/man.err" && [ -s "$D/man.out" ] || echo "$p: not rendered" >>"$D/man.err"
done
cp "$D/man.err" "$D/last.log"
ok_if install-man-renders "man -l warned or failed" [ ! -s "$D/man.err" ]

cp -r "$ROOT/tests/tools/run-a" "$D/run-a"
( cd / && "$P/bin/schedlab" collect "$D/run-a" >/dev/null 2>&1 && "$P/bin/schedlab" table "$D/run-a" ) >"$D/last.log" 2>&1
ok_if install-reads-anywhere "the installed schedlab, run from /, did not print the fixture's table" \
    grep -qE '^   o1/goodness +0\.88 +0\.55$' "$D/last.log"

# completion: bash runs the installed program's complete verb
comp() {  # comp WORDS...: what bash completes for the last word
    PATH="$P/bin:$PATH" bash -c '. "$1/share/bash-completion/completions/schedlab"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _schedlab; echo "${COMPREPLY[*]}"' _ "$P" "$@"
}
{ comp schedlab rep; comp schedlab run --sch; comp schedlab run --sched g; comp schedlab run --bench hackbench --grou; } >"$D/last.log" 2>&1
ok_if install-complete-verbs "schedlab rep<TAB> is not report, repro-report, reproduce" grep -qx 'report reproduce repro-report\|report repro-report reproduce' "$D/last.log"
ok_if install-complete-flags-schedulers "run --sch<TAB> is not --sched, or --sched g<TAB> not goodness" \
    sh -c "grep -qx -- '--sched' '$D/last.log' && grep -qx 'goodness' '$D/last.log'"
build "$DEFAULT_SCHED" >/dev/null   # (a bench=list cached beside a built image: its keys)
"$SL" run --sched "$DEFAULT_SCHED" --bench boot --engine none --out "$D/cache" >/dev/null 2>&1
comp schedlab run --bench hackbench --grou >"$D/last.log" 2>&1
ok_if install-complete-workload-keys "run --bench hackbench --grou<TAB> is not --groups (from bench=list)" grep -qx -- '--groups' "$D/last.log"

rm -rf "$D"
