# Errors one way: every verb of schedlab says a usage error as
#     schedlab VERB: error: WHAT
#     usage: schedlab VERB ...            (the verb's own usage line)
# and exits 2; an unknown flag, a missing value and a missing directory
# read the same in every verb; near misses of flags, schedulers and seeds
# get "did you mean"; run refuses a bad flag before it builds or boots
# anything.  (Near misses of a workload's keys need the kernel's bench=list:
# tests/qemu/schedlab_keys.sh; the kernel's own unknown key:
# tests/qemu/workloads_list.sh.)  No QEMU.
# run-all: host job
. "$(dirname "$0")/../lib.sh"
plan 14

D="$TMP/errors.$$"
mkdir -p "$D"
: >"$D/last.log"
SL="$ROOT/tools/schedlab"
"$SL" --help >/dev/null 2>&1   # builds the program once
verbs=$("$SL" --list-verbs | grep -v '^complete$')

# form VERB EXIT REGEX ARGS...: the two lines and the exit status, or why not (on stdout)
form() {
    _v=$1 _want=$2 _re=$3; shift 3
    "$SL" "$_v" "$@" >"$D/out" 2>"$D/err"
    _rc=$?
    _l1=$(sed -n 1p "$D/err") _l2=$(sed -n 2p "$D/err")
    if [ "$_rc" != "$_want" ]; then echo "$_v $*: exit $_rc (want $_want): $_l1"; return; fi
    if ! printf '%s\n' "$_l1" | grep -Eq "^schedlab $_v: error: $_re"; then echo "$_v $*: '$_l1'"; return; fi
    if [ "$_want" = 2 ] && ! printf '%s\n' "$_l2" | grep -q "^usage: schedlab $_v "; then
        echo "$_v $*: no usage line of its own: '$_l2'"; return; fi
    [ -s "$D/out" ] && echo "$_v $*: wrote to stdout"
}

# --- an unknown flag, in every verb
bad=""
for v in $verbs; do
    bad="$bad$(form "$v" 2 "unknown flag '--frobnicate'" --frobnicate)"
done
ok_if errors-unknown-flag-every-verb "not the one form: $bad" [ -z "$bad" ]

# --- a flag's missing value
bad=""
for vf in table:--metric compare:--base plot:--out report:--out json:--out failures:--labels \
          seed-table:--runs reproduce:--out trace:--out trace-png:--out parse:--kind field:--kind \
          trace-convert:--out trace-check:--log scorecard:--csv repro-report:--out html-table:--columns \
          progress:--slots run:--out boot:--shard; do
    bad="$bad$(form "${vf%%:*}" 2 "${vf#*:} needs a value" "${vf#*:}")"
done
ok_if errors-missing-value-every-verb "not the one form: $bad" [ -z "$bad" ]

# --- a missing directory: one sentence, exit 1
bad=""
for v in table compare plot report json failures collect boot resume seed-table; do
    bad="$bad$(form "$v" 1 "$D/nowhere: no such results directory \(schedlab run \.\.\. --out DIR makes one\)" "$D/nowhere")"
done
bad="$bad$(form merge 1 "$D/nowhere: no such results directory" "$D/m" "$D/nowhere")"
bad="$bad$(form trace-png 1 "$D/nowhere: no such trace directory" "$D/nowhere")"
bad="$bad$(form repro-report 1 "$D/nowhere: no such directory of a reproduction" "$D/nowhere")"
ok_if errors-missing-directory-every-verb "not the one form: $bad" [ -z "$bad" ]

# --- the issue's cases, and did you mean
out=$(form reproduce 2 "unknown flag '--ful' \(did you mean --full\?\)" seed001 --ful)
ok_if errors-reproduce-ful "$out" [ -z "$out" ]
out=$(form reproduce 2 "unknown flag '--dry-run'$" seed001 --dry-run)
ok_if errors-reproduce-dry-run-unknown "$out" [ -z "$out" ]
out=$(form run 2 "unknown flag '--dry-run'$" --dry-run)
ok_if errors-run-dry-run-unknown "$out" [ -z "$out" ]
out=$(form table 2 "unknown flag '--metirc' \(did you mean --metric\?\)" --metirc time_s "$D")
ok_if errors-flag-near-miss "$out" [ -z "$out" ]
out=$(form run 2 "unknown flag '--shced' \(did you mean --sched\?\)" --shced rr --bench boot --out "$D/r")
ok_if errors-run-flag-near-miss "$out" [ -z "$out" ]
out=$(form reproduce 2 "no seed 'sed001' \(did you mean seed001\? reproduce knows seed000, seed001 and seed003\)" sed001)
ok_if errors-seed-near-miss "$out" [ -z "$out" ]
out=$(form run 1 "--sched o11: no such scheduler; did you mean o1\?" --sched o11 --bench boot --out "$D/r")
ok_if errors-sched-near-miss "$out" [ -z "$out" ]
out=$(form trace 2 "unknown flag '--evnts' \(did you mean --events\?\)" --sched rr --smp 1 --bench boot --out "$D/t" --evnts all)
ok_if errors-trace-flag-near-miss "$out" [ -z "$out" ]

# --- validation before anything is built or booted: a bad flag touches nothing
"$SL" run --sched rr --bench boot --out "$D/early" --timeout 0 >"$D/early.log" 2>&1
rc=$?
cp "$D/early.log" "$D/last.log"
ok_if errors-run-refuses-before-building "exit $rc, or it built, booted or made the directory" \
    sh -c "[ $rc = 2 ] && ! grep -q 'building' '$D/early.log' && [ ! -e '$D/early' ]"
"$SL" frobnicate >"$D/last.log" 2>&1
rc=$?
ok_if errors-unknown-verb "exit $rc, or not 'schedlab: error: unknown verb' with the verbs" \
    sh -c "[ $rc = 2 ] && grep -q \"^schedlab: error: unknown verb 'frobnicate'\" '$D/last.log'"
"$SL" reprodcue seed001 >"$D/last.log" 2>&1
ok_if errors-verb-near-miss "no did you mean reproduce for reprodcue" grep -q "did you mean reproduce" "$D/last.log"

rm -rf "$D"
