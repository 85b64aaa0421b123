# The test runner itself (tests/run-all.sh, tests/lib.sh): in a copy of the
# tree, every tests/qemu script with "exit 1" put right after its first
# check must be reported failed by name, with its last line; so must a
# script that dies (set -u), one that makes fewer checks than its plan and
# exits 0, and one without a plan; a script that keeps its plan is not, and
# the last line is still "N passed, N failed".  QEMU is a stand-in that
# fails at once (only the runner's judgement is tested: the scripts stop at
# their first check), and the copy uses this tree's build/ (nothing in it
# is built again).  `prove` (TAP) judges the planned scripts the same way.
# run-all: host job
. "$(dirname "$0")/../lib.sh"

set -- $(cd "$ROOT/tests/qemu" && ls *.sh | grep -vx runner.sh)
plan $((3 + $# + 5 + 3))

T="$TMP/runner.$$"
rm -rf "$T" && mkdir -p "$T"
# The sources with their times (so that make finds this tree's objects up to
# date through the build/ link), tests/ as files to change.
( cd "$ROOT" && tar cf - --exclude=./build Makefile linker.ld boot kernel sched workloads tools tests ) | ( cd "$T" && tar xf - )
ln -s "$ROOT/build" "$T/build"
rm -f "$T/tests/qemu/runner.sh"
mkdir -p "$T/fakebin"
printf '#!/bin/sh\necho "qemu-system-i386: a stand-in for tests/qemu/runner.sh" >&2\nexit 1\n' >"$T/fakebin/qemu-system-i386"
chmod +x "$T/fakebin/qemu-system-i386"

# "exit 1" after every line that is a check by itself (a helper of
# tests/lib.sh, or one of the script's own built on them; after the last
# line of one that goes on over several): the script stops right after the
# first check it makes, whichever branch that is in
CHECK='^[[:space:]]*([A-Z_]+=[^ ]+[[:space:]]+)*(check|expect|expect_not|ok_if|pass|fail|skip|judge|judge_ticks|unasserted|no_idle_check|every_hog_runs|bad|bad_key|rejected|usage|sane|judge_log|sl|enforced|pingpong_ok|check_all|exact|mutant|expect_in|ck)[[:space:]]'
missing=""
for s in "$@"; do
    f="$T/tests/qemu/$s"
    awk -v re="$CHECK" '
        !in_check && $0 ~ re { in_check = 1 }
        in_check && /\\$/ { print; next }
        in_check && /;;[[:space:]]*$/ { sub(/;;[[:space:]]*$/, "; exit 1 ;;"); print; in_check = 0; next }
        { print }
        in_check { print "exit 1 # tests/qemu/runner.sh"; in_check = 0 }' \
        "$ROOT/tests/qemu/$s" >"$f"
    grep -q '^exit 1 # tests/qemu/runner.sh$' "$f" && sh -n "$f" || missing="$missing $s"
done
RC=0 OUT=/dev/null check runner-first-check-found [ -z "$missing" ]
[ -z "$missing" ] || echo "# no check line found in, or a broken copy of:$missing"

# Scripts that break the runner's rules in the other ways, and one that keeps them.
cat >"$T/tests/qemu/zz_dies.sh" <<'EOS'
. "$(dirname "$0")/../lib.sh"
plan 2
pass zz-dies-first
echo "$an_unset_variable"
pass zz-dies-second
EOS
cat >"$T/tests/qemu/zz_short.sh" <<'EOS'
. "$(dirname "$0")/../lib.sh"
plan 3
pass zz-short-first
exit 0
EOS
cat >"$T/tests/qemu/zz_noplan.sh" <<'EOS'
. "$(dirname "$0")/../lib.sh"
pass zz-noplan-first
EOS
cat >"$T/tests/qemu/zz_good.sh" <<'EOS'
. "$(dirname "$0")/../lib.sh"
plan 2
pass zz-good-first
skip zz-good-second "not asserted here"
EOS

PATH="$T/fakebin:$PATH" TEST_JOBS=2 TEST_TIMES="$T/test-times.txt" "$T/tests/run-all.sh" qemu >"$T/run.log" 2>&1
rc=$?
OUT="$T/run.log" RC=$rc
check runner-exit1 [ "$rc" = 1 ]
expect runner-last-line '^[0-9]+ passed, [0-9]+ failed$'
for s in "$@"; do
    expect "runner-catches-exit1-$s" "^not ok $s: exited with status 1 after [0-9]+ checks? of [0-9]+ planned \\(last line: "
done
expect runner-catches-death '^not ok zz_dies\.sh: exited with status 2 after 1 check of 2 planned \(last line: .*an_unset_variable'
expect runner-catches-short-plan '^not ok zz_short\.sh: 3 checks planned, 1 check \(last line: ok zz-short-first\)$'
expect runner-catches-no-plan '^not ok zz_noplan\.sh: no plan \(a 1\.\.N line before its first check\); 1 check '
expect_not runner-keeps-a-good-script '^not ok zz_good\.sh'
expect runner-counts-skips '^# [0-9]+ checks not asserted on this host'

# prove (TAP::Harness) reads the same plans
if command -v prove >/dev/null 2>&1; then
    for z in good short noplan; do
        prove -e sh "$T/tests/qemu/zz_$z.sh" >"$T/prove-$z.log" 2>&1
        echo $? >"$T/prove-$z.rc"
    done
    OUT="$T/prove-good.log" RC=$(cat "$T/prove-good.rc")
    check runner-prove-passes-good [ "$RC" = 0 ]
    OUT="$T/prove-short.log" RC=$(cat "$T/prove-short.rc")
    check runner-prove-fails-short [ "$RC" != 0 ]
    OUT="$T/prove-noplan.log" RC=$(cat "$T/prove-noplan.rc")
    check runner-prove-fails-noplan [ "$RC" != 0 ]
else
    for z in passes-good fails-short fails-noplan; do skip "runner-prove-$z" "no prove(1) (perl's Test::Harness)"; done
fi
rm -rf "$T"
