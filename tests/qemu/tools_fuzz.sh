# libFuzzer on the serial-log parser and the CSV reader behind schedlab
# (tests/host/fuzz_logparse.c): the inputs that once broke it must pass, and
# a bounded run (FUZZ_SECONDS; default 5, 25 in make test-long) from a seed corpus made of the
# fixture logs must find nothing.  No QEMU; it is here so that
# "tests/run-all.sh qemu tools" runs it with the other tools checks.
# A longer run by hand: see docs/tools.md ("Fuzzing").
# run-all: host job
. "$(dirname "$0")/../lib.sh"
plan 4
[ "${TEST_LONG:-0}" = 1 ] && FUZZ_DEFAULT=25 || FUZZ_DEFAULT=5   # the long run: tests/lib.sh long_only

FUZZ="$ROOT/build/host/fuzz_logparse"
W="$TMP/fuzz.$$"
mkdir -p "$W/seeds" "$W/artifacts"
CORPUS=${FUZZ_CORPUS:-$W/corpus}
mkdir -p "$CORPUS"
show() { sed 's/^/    | /' "$1" | grep -v '^    | #' | tail -${2:-15}; }

if make -s -C "$ROOT/tests/host" fuzz >"$W/build.log" 2>&1 && [ -x "$FUZZ" ]; then
    pass fuzz-build
else
    fail fuzz-build "make -C tests/host fuzz failed (needs clang and libclang-rt-14-dev: tools/deps.sh check)"
    show "$W/build.log"
    rm -rf "$W"
    exit 0
fi

# Seeds: each fixture log behind a first line "rc=<its exit status> <a command line>".
i=0
for log in "$ROOT"/tests/tools/*.log "$ROOT"/tests/tools/run-*/logs/*.log; do
    i=$((i + 1))
    rc=$(sed -n 's/^rc=\([0-9]*\).*/\1/p' "${log%.log}.rc" 2>/dev/null)
    cmd=$(sed -n 's/^cmdline //p' "$(dirname "$(dirname "$log")")/matrix.txt" 2>/dev/null)
    { echo "rc=${rc:-0} ${cmd:-bench=hackbench groups=50,100 loops=100 runs=2}"; cat "$log"; } >"$W/seeds/seed$i"
done

# The inputs that broke it before (tests/tools/fuzz/): each runs once.
"$FUZZ" -artifact_prefix="$W/artifacts/" "$ROOT"/tests/tools/fuzz/* >"$W/regress.log" 2>&1
rc=$?
if [ $rc = 0 ]; then pass fuzz-regressions; else
    fail fuzz-regressions "an input of tests/tools/fuzz/ fails again (exit $rc)"; show "$W/regress.log"; fi

"$FUZZ" -max_total_time="${FUZZ_SECONDS:-$FUZZ_DEFAULT}" -timeout=60 -rss_limit_mb=1024 -max_len=8192 \
    -artifact_prefix="$W/artifacts/" -print_final_stats=1 "$CORPUS" "$W/seeds" >"$W/fuzz.log" 2>&1
rc=$?
runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$W/fuzz.log" | tail -1)
found=$(ls "$W/artifacts" | head -1)
if [ $rc = 0 ] && [ -z "$found" ]; then pass fuzz-run; else
    fail fuzz-run "libFuzzer exited $rc${found:+ and wrote $found (copied to build/host/$found)}"
    [ -n "$found" ] && cp "$W/artifacts/$found" "$ROOT/build/host/$found"
    grep -E 'ERROR|SUMMARY|check failed|^    #[0-9] ' "$W/fuzz.log" | head -12 | sed 's/^/    | /'
fi
if [ -n "$runs" ] && [ "$runs" -gt 0 ]; then pass fuzz-inputs; else
    fail fuzz-inputs "no input was run"; show "$W/fuzz.log" 5; fi
echo "# fuzz: ${runs:-0} inputs in ${FUZZ_SECONDS:-$FUZZ_DEFAULT} s, corpus $(ls "$CORPUS" | wc -l) files"
rm -rf "$W"
