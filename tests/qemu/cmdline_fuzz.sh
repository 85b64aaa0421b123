# libFuzzer on the kernel command-line parser (tests/host/fuzz_cmdline.c over
# kernel/cmdline*.c): every input parses or ends in exactly one error: line.
# No QEMU; the seeds and the inputs that broke it once (regress-*) are in
# tests/host/fuzz_cmdline/.  Checks: it builds; every file there passes; a
# bounded run (FUZZ_SECONDS; default 5, 20 in make test-long) from them finds nothing; and each
# regression input still catches the bug it found, in a copy of the parser
# with that fix taken out (so this script can fail).
# A longer run by hand: docs/testing.md.
# run-all: host job
. "$(dirname "$0")/../lib.sh"
plan 6
[ "${TEST_LONG:-0}" = 1 ] && FUZZ_DEFAULT=20 || FUZZ_DEFAULT=5   # the long run: tests/lib.sh long_only

FUZZ="$ROOT/build/host/fuzz_cmdline"
SEEDS="$ROOT/tests/host/fuzz_cmdline"
W="$TMP/cmdfuzz.$$"
mkdir -p "$W/artifacts" "$W/mutant"
CORPUS=${FUZZ_CORPUS:-$W/corpus}
mkdir -p "$CORPUS"
show() { sed 's/^/    | /' "$1" | grep -v '^    | #' | tail -"${2:-12}"; }

if make -s -C "$ROOT/tests/host" fuzz-cmdline >"$W/build.log" 2>&1 && [ -x "$FUZZ" ]; then
    pass cmdline-fuzz-build
else
    fail cmdline-fuzz-build "make -C tests/host fuzz-cmdline failed (needs clang and libclang-rt-14-dev: tools/deps.sh check)"
    show "$W/build.log"
    rm -rf "$W"
    exit 0
fi

"$FUZZ" -artifact_prefix="$W/artifacts/" "$SEEDS"/* >"$W/replay.log" 2>&1
rc=$?
if [ $rc = 0 ]; then pass cmdline-fuzz-seeds-and-regressions; else
    fail cmdline-fuzz-seeds-and-regressions "an input of tests/host/fuzz_cmdline/ fails (exit $rc)"
    grep -E 'check failed|ERROR|SUMMARY|console:' "$W/replay.log" | head -6 | cut -c1-200 | sed 's/^/    | /'; fi

"$FUZZ" -max_total_time="${FUZZ_SECONDS:-$FUZZ_DEFAULT}" -timeout=10 -rss_limit_mb=1024 -max_len=1400 \
    -dict="$ROOT/tests/host/fuzz_cmdline.dict" -artifact_prefix="$W/artifacts/" -print_final_stats=1 \
    "$CORPUS" "$SEEDS" >"$W/fuzz.log" 2>&1
rc=$?
runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$W/fuzz.log" | tail -1)
found=$(ls "$W/artifacts" | head -1)
if [ $rc = 0 ] && [ -z "$found" ]; then pass cmdline-fuzz-run; else
    fail cmdline-fuzz-run "libFuzzer exited $rc${found:+ and wrote $found (copied to build/host/$found)}"
    [ -n "$found" ] && cp "$W/artifacts/$found" "$ROOT/build/host/$found"
    grep -E 'check failed|ERROR|SUMMARY|console:|^    #[0-9] ' "$W/fuzz.log" | head -12 | cut -c1-200 | sed 's/^/    | /'
fi
if [ -n "$runs" ] && [ "$runs" -gt 0 ]; then pass cmdline-fuzz-inputs; else
    fail cmdline-fuzz-inputs "no input was run"; show "$W/fuzz.log" 5; fi
echo "# cmdline fuzz: ${runs:-0} inputs in ${FUZZ_SECONDS:-$FUZZ_DEFAULT} s, corpus $(ls "$CORPUS" | wc -l) files"

# mutant NAME SED-EXPRESSION INPUT: cmdline.c with one fix taken out must fail on INPUT.
mutant() {
    sed "$2" "$ROOT/kernel/cmdline.c" >"$W/mutant/cmdline.c"
    if cmp -s "$W/mutant/cmdline.c" "$ROOT/kernel/cmdline.c"; then
        fail "cmdline-fuzz-catches-$1" "the expression no longer changes kernel/cmdline.c (update this script)"; return; fi
    if ! make -s -C "$ROOT/tests/host" fuzz-cmdline CMDLINE_FUZZ="$W/mutant/fuzz-$1" \
        CMDLINE_SRC="$W/mutant/cmdline.c $ROOT/kernel/cmdline_value.c $ROOT/kernel/cmdline_registry.c" >"$W/mutant/$1.build" 2>&1; then
        fail "cmdline-fuzz-catches-$1" "the broken copy does not build"; show "$W/mutant/$1.build"; return; fi
    if "$W/mutant/fuzz-$1" -artifact_prefix="$W/mutant/" "$SEEDS/$3" >"$W/mutant/$1.log" 2>&1; then
        fail "cmdline-fuzz-catches-$1" "$3 passes on a parser without the fix"
    elif grep -q 'check failed' "$W/mutant/$1.log"; then pass "cmdline-fuzz-catches-$1"
    else fail "cmdline-fuzz-catches-$1" "the broken copy failed, but not on a check"; show "$W/mutant/$1.log" 5; fi
}
mutant newline-in-word "s/return c == ' ' || (c >= '\\\\t' \&\& c <= '\\\\r');/return c == ' ' || c == '\\\\t';/" regress-newline-in-word
mutant long-value 's/^#define CMDLINE_SHOWN 160$/#define CMDLINE_SHOWN 100000/; s/^#define ERROR_LINE_MAX 511 /#define ERROR_LINE_MAX 4096 /' regress-long-value
rm -rf "$W"
