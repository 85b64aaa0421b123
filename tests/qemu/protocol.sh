# The serial protocol (kernel/protocol.h, docs/protocol.md): every line the
# kernel prints of a declared kind is what its declaration says, read by
# the tools' one parser (schedlab parse): a vsmp boot of the default suite
# with a cost model (result, chanstat, tbenchstat, stackstat, schedstat,
# vsmpstat, coststat, done:, boot:, tunables), a TCG boot with pvspin=1
# (pvspinstat), a traced boot (tracestat, trace:), bench=list (workload,
# key, tunable, preset) and a refused command line (error:) -- each kind
# seen, none with a problem; parse's TSV and JSON and field agree; a line
# that breaks its declaration is named with what is wrong; and no script of
# the tree reads the kernel's lines with sed or awk (they use parse/field).
. "$(dirname "$0")/../lib.sh"

KINDS="boot: tunables result chanstat tbenchstat stackstat schedstat vsmpstat coststat pvspinstat tracestat workload key tunable preset done: error: trace:"
set -- $KINDS
plan $((1 + $# + 1 + 6 + 4 + 1))

tools_built
S=$DEFAULT_SCHED
build "$S"
D="$TMP/protocol.$$"
mkdir -p "$D"
K="$ROOT/build/$S/kernel.elf"
qrun() {  # qrun NAME QEMU-RUN-ARGS...: one boot's console into $D/NAME.log
    _n=$1; shift
    "$ROOT/tools/qemu-run.sh" --kernel "$K" --timeout "$(boot_limit 90)" "$@" >"$D/$_n.log" 2>"$D/$_n.err"
}
qrun suite --smp 2 --accel vsmp --cmdline 'bench=all cost=era2003'
qrun pvspin --smp 2 --pvspin on --cmdline 'bench=pipe loops=200'
qrun trace --smp 1 --trace-out "$D/trace.bin" --cmdline 'bench=pipe loops=200 trace=1'
qrun list --smp 1 --cmdline 'sched.preset=none bench=list'
qrun refused --smp 1 --cmdline 'bench=pipe loops=0'
cat "$D"/suite.log "$D"/pvspin.log "$D"/trace.log "$D"/list.log "$D"/refused.log >"$D/all.log"

"$SCHEDLAB_BIN" parse "$D/all.log" --format tsv >"$D/all.tsv" 2>"$D/parse.err"
RC=$? OUT="$D/parse.err"
check protocol-parse-exit0 [ "$RC" = 0 ]
# kinds seen (column 3), and the declared lines with a problem (column 4)
for k in $KINDS; do
    OUT="$D/all.log" RC=0 check "protocol-kind-$k" sh -c 'awk -F"\t" -v k="$1" "NR > 1 && \$3 == k { n++ } END { exit !n }" "$2"' _ "$k" "$D/all.tsv"
done
awk -F'\t' 'NR > 1 && $4 != "" { print $2 ": " $3 " " $4 }' "$D/all.tsv" >"$D/problems"
OUT="$D/problems" RC=0 check protocol-no-problem [ ! -s "$D/problems" ]

# TSV, JSON and field say the same
"$SCHEDLAB_BIN" parse "$D/suite.log" --kind schedstat --format json >"$D/ss.json"
RC=$? OUT="$D/ss.json"
check protocol-json-exit0 [ "$RC" = 0 ]
if command -v python3 >/dev/null 2>&1; then
    check protocol-json-valid python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(not (len(d) == 2 and d[1]["keys"]["cpu"] == "1"))' "$D/ss.json"
else
    skip protocol-json-valid "no python3"
fi
OUT="$D/suite.log" RC=0
check protocol-field-where [ "$(proto_field context_switches --kind schedstat --where cpu=1 "$D/suite.log")" = \
    "$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $3 == "schedstat" && $c["cpu"] == 1 { print $c["context_switches"] }' "$D/all.tsv" | head -1)" ]
check protocol-field-stdin [ "$(grep '^result bench=pipe ' "$D/suite.log" | proto_field status)" = ok ]
proto_field nosuch_key "$D/suite.log" >/dev/null
check protocol-field-none-exit1 [ $? = 1 ]
check protocol-quoted-value [ "$(proto_field help --kind key --where workload=kernel --where name=runs "$D/list.log")" = \
    "repeat each workload this many times in this boot" ]

# lines that break their declaration: named, with what is wrong
printf '%s\n' 'schedstat cpu=0 sched=o1 schedule_calls=x' 'done: exit=0 extra=1' 'result bench=pipe sched=o1 run=0' \
    'stackstat stack_bytes=1 max_used_bytes=2 page_dirs_created=3 page_dirs_freed=4' >"$D/bad.log"
"$SCHEDLAB_BIN" parse "$D/bad.log" --format tsv | cut -f4 >"$D/bad.problems"
OUT="$D/bad.problems" RC=0
expect protocol-bad-number '^schedule_calls=x is not a number$'
expect protocol-bad-extra-key '^extra= after the last key done: declares$'
expect protocol-bad-order '^run where result cpus= belongs$'
expect protocol-bad-missing '^no page_dirs_live= \(stackstat declares it\)$'

# No sed or awk over the kernel's lines in the tree: scripts, tests and the
# tools read them through parse and field.  Caught: a sed or awk program
# anchored at a kind ('s/^boot: ', '/^result /') and the word splitting that
# picked a key out of a line (tr ' ' '\n' | sed -n 's/^KEY=//p'); not caught
# (not reading): sed -i making a test's own input.
KINDS_RE=$(printf '%s\n' $KINDS panic: watchdog: stall: ticks: memstat memline maxgroups: lat_ctx: | sed 's/:$//' | paste -sd'|')
( cd "$ROOT" && grep -rnE "(^|[^a-z_-])(sed|awk) [^|]*[\\^][\\\\(]*($KINDS_RE)[: ]|tr ' ' '\\\\n' *\\| *sed" \
    --include='*.sh' --include='*.awk' --include='schedlab' --include='Makefile' tools tests Makefile ) |
    grep -v -e '^tests/qemu/protocol.sh:' -e 'sed -i ' >"$D/sed-awk" || true
OUT="$D/sed-awk" RC=0 check protocol-no-sed-awk-over-kernel-lines [ ! -s "$D/sed-awk" ]
rm -rf "$D"
