# docs/new-scheduler.md, done by the suite: in a temporary copy of the tree,
# a scheduler made from the template (sched/simple.c copied to sched/mine.c,
# renamed, nothing else touched) builds, boots, and passes the conformance
# suite on the host and the generic QEMU scripts; a copy that lacks a
# mandatory hook is refused at boot with a clear error.
. "$(dirname "$0")/../lib.sh"

T="$TMP/newsched"
rm -rf "$T" && mkdir -p "$T"
( cd "$ROOT" && tar cf - --exclude=./build Makefile linker.ld boot kernel sched workloads tests tools ) | ( cd "$T" && tar xf - )
# The scheduler-independent objects as this tree has them (a developer adding
# a scheduler has them too): the copy's sources keep their times, so only
# sched/mine.c is compiled, not the whole kernel again (13 s of CPU).
[ -f "$ROOT/build/common/kernel.flags" ] && mkdir -p "$T/build" && cp -pR "$ROOT/build/common" "$T/build/"
cp "$T/sched/simple.c" "$T/sched/mine.c"
sed -i 's/\.name = "simple"/.name = "mine"/' "$T/sched/mine.c"
rm -f "$T/sched/mine.expect"
# 8 checks of its own; the generic scripts' for mine and one each that it ran as planned
inner=0
for script in workloads smp; do
    inner=$((inner + 1 + $(TEST_PLAN_ONLY=1 TEST_SCHEDS=mine sh "$T/tests/qemu/$script.sh" | tail -1)))
done
plan $((6 + inner))

check "newsched-listed" sh -c "make -s -C '$T' list-scheds | grep -qw mine"
check "newsched-builds" sh -c "make -s -C '$T' SCHED=mine kernel >'$TMP/newsched-build.log' 2>&1"

# The host conformance suite, built for the new file by the Makefile's wildcard.
if make -s -C "$T/tests/host" ../../build/host/test_conformance_mine >"$TMP/newsched-host.log" 2>&1; then
    CMOCKA_MESSAGE_OUTPUT=stdout "$T/build/host/test_conformance_mine" >"$TMP/newsched-host.out" 2>&1
    rc=$?
    check "newsched-host-conformance-passes" [ $rc = 0 ]
    check "newsched-host-conformance-ran" [ "$(grep -c '^\[       OK \]' "$TMP/newsched-host.out")" -ge 10 ]
else
    fail newsched-host-conformance-passes "it does not build:"; tail -20 "$TMP/newsched-host.log" | sed 's/^/    /'
    skip newsched-host-conformance-ran "it does not build"
fi

# The generic QEMU scripts, for mine only (they name no scheduler).
# (their plan lines out: this script's plan counts their checks; a script
# that breaks its plan or exits non-zero fails newsched-SCRIPT-as-planned)
for script in workloads smp; do
    TEST_SCHEDS=mine sh "$T/tests/qemu/$script.sh" >"$TMP/newsched-$script.out" 2>&1
    rc=$?
    sed -n '/^1\.\.[0-9]*$/!p' "$TMP/newsched-$script.out" | sed 's/^ok /ok newsched-/; s/^not ok /not ok newsched-/'
    want=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' "$TMP/newsched-$script.out")
    made=$(grep -cE '^(not )?ok ' "$TMP/newsched-$script.out")
    RC=$rc OUT="$TMP/newsched-$script.out" check "newsched-$script-as-planned" [ "$rc:$made" = "0:$want" ]
done

# The same file without pick_next: refused at boot, not an invalid-opcode panic.
sed -i '/\.pick_next = /d' "$T/sched/mine.c"
sed -i 's/static struct task \*simple_pick_next/__attribute__((unused)) static struct task *simple_pick_next/' "$T/sched/mine.c"
if make -s -C "$T" SCHED=mine kernel >"$TMP/newsched-build2.log" 2>&1; then
    OUT="$TMP/newsched-nohook.out"
    "$T/tools/qemu-run.sh" --kernel "$T/build/mine/kernel.elf" --smp 1 --cmdline 'bench=boot' --timeout "$(boot_limit 60)" >"$OUT" 2>"$OUT.err"
    RC=$?
    check "newsched-missing-hook-exit1" [ "$RC" = 1 ]
    expect "newsched-missing-hook-message" '^error: sched/mine\.c: hook pick_next is missing$'
else
    fail newsched-missing-hook-exit1 "the copy without pick_next does not build:"; tail -20 "$TMP/newsched-build2.log" | sed 's/^/    /'
    skip newsched-missing-hook-message "it does not build"
fi
rm -rf "$T"
