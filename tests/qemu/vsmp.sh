#!/bin/sh
# ACCEL=vsmp (kernel/machine/vsmp.c, docs/vsmp.md): N logical CPUs in virtual time on
# one icount vCPU.  Every figure compared here is virtual time, exact for the
# same input, so the bands are tight and no check depends on the host's speed:
#   - deterministic: two boots print identical result, schedstat and vsmpstat
#     lines (every figure);
#   - vsmp=1 is icount SMP=1 (same instructions, same clock), within 2% (a
#     pipe; hackbench too in make test-long); and
#     a pipe ping-pong bound to one CPU of vsmp=2 costs what vsmp=1's does
#     (the dispatcher's hooks are calibrated out at boot), within 2%;
#   - IPIs: every one sent is received, each received one is a schedstat
#     resched_ipi, and the latency key moves a cross-CPU ping-pong by about
#     one latency per hand-off;
#   - lock waits: none where nothing contends, some under goodness's one
#     run-queue lock, never more than the CPU's busy time;
#   - the timer: where CPUs take locks it is only the backstop (under a
#     twentieth of the dispatches fire it) and ticks and IPIs reach a
#     running CPU at its next hook, a few microseconds late on average at
#     most; a CPU-bound hog, which calls no hook, is caught and from then on
#     armed exactly (quantum ends by the thousand, events on time, and
#     bench=wakeup's latency with hogs as with the timer exact everywhere);
#   - parallelism: fixed work on 4 logical CPUs takes at most 0.35 of 1's;
#   - the dispatcher's own instructions are not charged: a build whose
#     every hook burns 300 more prints the same figures (make test-long);
#   - tools/vsmp-insn-profile.sh counts a boot's instructions without moving
#     its figures;
#   - every scheduler runs the default suite (status=ok) on 2, 3, 4, 8 and 16
#     logical CPUs: in make test-long only (40 boots; VSMP_ALL=1 runs them
#     too), make test boots vsmp on goodness and o1 above (the 8 boots of one
#     count per scheduler it ran before cost 46 s of host CPU);
#   - a deadlocked logical CPU is reported (spinlock cycle, watchdog), and
#     bad combinations of keys and flags are refused with a message.
. "$(dirname "$0")/../lib.sh"
all=$(long)
[ "${VSMP_ALL:-0}" != 1 ] || all=1
plan $((24 + 3 * $(long) + 15 * $(nscheds) * all + 26 * (1 - $(limited))))

vboot() {  # vboot SCHED N CMDLINE [TIMEOUT]: boot under --accel vsmp
    boot "$1" "$2" "$3" 64 "${4:-60}" vsmp
}
# sum KEY KIND: the sum of KEY= over the lines of KIND
sum() { kind_sum "$1" "$2"; }
# within A B PCT: |A - B| <= PCT% of B
within() { awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d <= b * p / 100) }'; }
rfield() { field "$1" "$(results "$2" | head -1)"; }

# ---- determinism ----
vboot goodness 4 'bench=hackbench groups=4 loops=25 runs=2'
check "vsmp-boots" [ "$RC" = 0 ]
expect "vsmp-boot-line" '^boot: cpus=4 sched=goodness .* accel=vsmp .* cr3=elide .*vsmp_quantum_ns=[0-9]+ vsmp_ipi_ns=1260 vsmp_slack_ns=0'
grep -E '^(result|schedstat|vsmpstat) ' "$OUT" >"$TMP/vsmp-a"
vboot goodness 4 'bench=hackbench groups=4 loops=25 runs=2'
grep -E '^(result|schedstat|vsmpstat) ' "$OUT" >"$TMP/vsmp-b"
check "vsmp-deterministic" cmp -s "$TMP/vsmp-a" "$TMP/vsmp-b"
check "vsmp-deterministic-has-lines" [ "$(grep -c '^result' "$TMP/vsmp-a")" = 2 ]

# ---- lock waits (same boot): goodness's one lock is contended ----
# (a check of several conditions goes through sh -c: "check N [ a ] && [ b ]"
# would check a alone and run [ b ] outside the check)
OUT="$TMP/vsmp-a"
lw=$(sum lock_wait_us schedstat) lws=$(sum lock_waits schedstat) busy=$(sum busy_ms schedstat)
check "vsmp-goodness-lock-wait" sh -c '[ "$1" -gt 0 ] && [ "$2" -gt 0 ]' _ "$lw" "$lws"
check "vsmp-lock-wait-within-busy" [ "$lw" -le $((busy * 1000)) ]
check "vsmp-ipis-received-are-resched-ipis" [ "$(sum ipis_received vsmpstat)" = "$(sum resched_ipis schedstat)" ]
sent=$(sum ipis_sent vsmpstat) recv=$(sum ipis_received vsmpstat)
check "vsmp-ipis-sent-received" sh -c '[ "$1" -ge "$2" ] && [ $(($1 - $2)) -le 4 ] && [ "$2" -gt 0 ]' _ "$sent" "$recv"

# ---- the timer as a backstop (same boot), and exact for a hog ----
# vstat KEY: KEY= of the machine's vsmpstat line (the first; its keys are its own)
vstat() { proto_field "$1" --kind vsmpstat "$OUT" | head -1; }
irqs=$(vstat timer_irqs) disp=$(sum dispatches vsmpstat) late=$(vstat event_late_ns_avg)
echo "# vsmp goodness hackbench on 4: timer_irqs=$irqs dispatches=$disp event_late_ns_avg=$late"
check "vsmp-timer-backstop" sh -c '[ -n "$1" ] && [ $(($1 * 20)) -le "$2" ]' _ "$irqs" "$disp"
check "vsmp-events-few-us-late" sh -c '[ -n "$1" ] && [ "$1" -le 5000 ] && [ "$2" -gt 0 ]' _ "$late" "$(vstat events)"
vboot o1 2 'bench=cpuhog tasks=2 seconds=1'
qy0=$(stat_of vsmpstat 0 quantum_yields)
qy1=$(stat_of vsmpstat 1 quantum_yields)
echo "# vsmp o1 cpuhog on 2: quantum_yields $qy0 / $qy1, event_late_ns_avg=$(vstat event_late_ns_avg)"
check "vsmp-hog-quantum-ends" sh -c '[ "$1" -ge 10000 ] && [ "$2" -ge 10000 ]' _ "${qy0:-0}" "${qy1:-0}"
check "vsmp-hog-events-on-time" sh -c '[ "$1" -le 1000 ] && [ "$2" -ge 1900 ]' _ "$(vstat event_late_ns_avg)" "$(vstat events)"
# hogs and workers share the CPUs: a CPU caught without hooks stays exact
# (p50 40.6 us; 120.5 us when each CPU-bound stretch could start up to the
# backstop ahead of the others; 41.7 us with the timer exact everywhere)
vboot o1 2 'bench=wakeup seconds=1 workers=4'
p50=$(rfield p50_us wakeup)
echo "# vsmp o1 wakeup on 2: p50 $p50 us, event_late_ns_avg=$(vstat event_late_ns_avg)"
check "vsmp-wakeup-hogs-exact" awk -v p="$p50" 'BEGIN { exit !(p > 0 && p <= 60) }'

# ---- vsmp=1 against icount SMP=1, and bound vsmp=2 against vsmp=1 ----
# (the pipe; hackbench's three boots too in make test-long)
equal_w='bench=pipe loops=5000:usec_per_op:pipe'
long_only "vsmp: vsmp1-equals-icount-hackbench (three boots; here the pipe's)" &&
    equal_w="$equal_w|bench=hackbench groups=4 loops=50:time_s:hackbench"
IFS_SAVED=$IFS; IFS='|'; set -- $equal_w; IFS=$IFS_SAVED
for w in "$@"; do
    cmd=${w%%:*} rest=${w#*:} key=${rest%%:*} b=${rest#*:}
    boot o1 1 "$cmd" 64 60 icount; ic=$(rfield "$key" "$b")
    vboot o1 1 "$cmd"; v1=$(rfield "$key" "$b")
    vboot o1 2 "$cmd bind=0"; v2=$(rfield "$key" "$b")
    echo "# vsmp $b: icount smp1 $key=$ic, vsmp=1 $v1, vsmp=2 bind=0 $v2"
    check "vsmp1-equals-icount-$b" within "$v1" "$ic" 2
    # hackbench's runner still wakes on the other CPU, so only the pipe is
    # all on one CPU: the same figure, no IPI, lock waits only where the
    # idle CPU's tick takes a lock (under 1% of the busy time)
    [ "$b" = pipe ] || continue
    check "vsmp2-bound-equals-vsmp1-$b" within "$v2" "$v1" 2
    check "vsmp-bound-no-ipis" [ "$(sum ipis_sent vsmpstat)" = 0 ]
    check "vsmp-bound-few-lock-waits" [ "$(sum lock_wait_us schedstat)" -le "$(sum busy_ms schedstat)" ]
done

# ---- IPI latency: a cross-CPU ping-pong has up to two IPIs a round trip;
# a woken CPU that has halted waits for its IPI, so with a 10 us latency the
# round trip grows by about 10 us per IPI (less where the woken CPU was still
# busy when the IPI arrived) ----
# rr: it queues a woken task on the CPU with fewer tasks, the other one,
# every time.  (o1 keeps the two on one CPU or not depending on the path's
# exact length: 0 to 1.6 IPIs a round trip as instructions came off it.)
vboot rr 2 'bench=pipe loops=2000 vsmp_ipi_ns=0'; p0=$(rfield usec_per_op pipe)
vboot rr 2 'bench=pipe loops=2000 vsmp_ipi_ns=10000'; p10=$(rfield usec_per_op pipe)
ipo=$(awk -v s="$(sum ipis_sent vsmpstat)" 'BEGIN { printf "%.3f", s / 2000 }')
echo "# vsmp pipe round trip on 2 logical CPUs: ipi 0 ns $p0 us, 10000 ns $p10 us ($ipo IPIs a round trip)"
check "vsmp-ipi-per-round-trip" awk -v x="$ipo" 'BEGIN { exit !(x >= 0.3 && x <= 2.05) }'
check "vsmp-ipi-latency-charged" awk -v a="$p0" -v b="$p10" -v n="$ipo" 'BEGIN { d = b - a; exit !(d >= 0.8 * 10 * n && d <= 1.05 * 10 * n) }'

# ---- parallel speed-up in virtual time ----
par='bench=hackbench groups=8 loops=50 mode=thread ipc=pipe'
vboot o1 1 "$par"; t1=$(rfield time_s hackbench)
vboot o1 4 "$par"; t4=$(rfield time_s hackbench)
echo "# vsmp o1 '$par': 1 cpu $t1 s, 4 cpus $t4 s"
check "vsmp-parallel-speedup" awk -v a="$t1" -v b="$t4" 'BEGIN { exit !(b > 0 && b <= 0.35 * a) }'
check "vsmp-parallel-every-cpu" [ "$(rfield cpus_used hackbench)" = 0xf ]

# ---- the dispatcher's own instructions are not the CPUs' time: a build
# whose every hook and dispatch burns 300 more (-DVSMP_TEST_BURN=300)
# prints the same figures, bit for bit (make test-long: one more build) ----
same_nonempty() { [ "$1" = 0 ] && [ -n "$2" ] && [ "$2" = "$3" ]; }
if long_only "vsmp: vsmp-burn-same-figures (a -DVSMP_TEST_BURN=300 build)"; then
    burn_dir=$(make -s -C "$ROOT" print-build SCHED=o1 CFLAGS_EXTRA=-DVSMP_TEST_BURN=300)
    ( flock 9; make -s -C "$ROOT" SCHED=o1 CFLAGS_EXTRA=-DVSMP_TEST_BURN=300 kernel >"$TMP/burn-build.log" 2>&1 ) \
        9>"$ROOT/build/.lock"
    built=$?
    [ "$built" = 0 ] || tail -20 "$TMP/burn-build.log" | sed 's/^/    /'
    for w in 'hackbench:bench=hackbench groups=10 loops=50' 'wakeup:bench=wakeup seconds=1'; do
        name=${w%%:*} cmd=${w#*:}
        vboot o1 4 "$cmd" 120; plain=$(grep -E '^(result|schedstat)' "$OUT")
        [ "$built" = 0 ] && boot_once "${burn_dir#build/}" 4 "$cmd" 64 vsmp "$(boot_limit 120)"
        burned=$(grep -E '^(result|schedstat)' "$OUT")
        check "vsmp-burn-same-figures-$name" same_nonempty "$built" "$plain" "$burned"
    done
fi

# ---- tools/vsmp-insn-profile.sh: a boot's instructions by function (a
# QEMU plugin), the boot's figures unmoved, the total the boot's physical
# instructions (printed a little before the boot ends: within 2%) ----
# (the same command line: a test boot adds checks=1 unless it has checks=)
vboot o1 2 'bench=pipe loops=2000 checks=1'; plain=$(grep -E '^(result|schedstat|vsmpstat)' "$OUT")
"$ROOT/tools/vsmp-insn-profile.sh" --kernel "$ROOT/build/o1/kernel.elf" --smp 2 --cmdline 'bench=pipe loops=2000 checks=1' \
    --mem 64 --top 40 >"$TMP/profile.out" 2>"$TMP/profile.err"
prc=$?
check "vsmp-insn-profile-same-figures" same_nonempty "$prc" "$plain" "$(grep -E '^(result|schedstat|vsmpstat)' "$TMP/profile.err")"
phys=$(grep -o 'physical_us=[0-9]*' "$TMP/profile.err" | cut -d= -f2)
total=$(awk 'NR == 1 && $1 == "total" { print $2 }' "$TMP/profile.out")
echo "# vsmp-insn-profile: $total instructions, physical_us=$phys; $(grep -c . "$TMP/profile.out") lines"
check "vsmp-insn-profile-total" awk -v t="${total:-0}" -v p="${phys:-0}" -v f="$(grep -c ' lock_order_body$' "$TMP/profile.out")" \
    'BEGIN { exit !(p > 0 && t >= p * 1000 && t <= p * 1000 * 1.02 && f == 1) }'
"$ROOT/tools/vsmp-insn-profile.sh" --kernel "$TMP/no-such-kernel.elf" >"$TMP/profile.out" 2>&1
prc=$?
check "vsmp-insn-profile-no-kernel-exit2" [ "$prc:$(grep -c '^vsmp-insn-profile: error: ' "$TMP/profile.out")" = 2:1 ]

# ---- every scheduler, the default suite (make test-long) ----
counts='2 3 4 8 16'
if [ "${VSMP_ALL:-0}" != 1 ] && ! long_only "vsmp: every scheduler's default suite on 2, 3, 4, 8 and 16 logical CPUs (vsmp-SCHED-vsmpN-*)"; then
    counts=
fi
for sched in $(scheds); do
    for n in $counts; do
        vboot "$sched" "$n" '' 120
        check "vsmp-$sched-vsmp$n-exit0" [ "$RC" = 0 ]
        check "vsmp-$sched-vsmp$n-suite-ok" sh -c '[ "$1" -ge 4 ] && [ "$2" = 0 ]' _ "$(grep -c '^result .* status=ok$' "$OUT")" "$(grep '^result' "$OUT" | grep -vc ' status=ok$')"
        check "vsmp-$sched-vsmp$n-busy-every-cpu" [ "$(grep -c '^schedstat cpu=.* busy_ms=' "$OUT")" = "$n" ]
    done
done
[ -z "${TEST_SCHEDS:-}" ] || exit 0

# ---- the clock never steps back: under vsmp an interrupt moves a CPU's
# clock base, and a read it split stepped back by the handler's length
# (5 steps in 2 x 20 ms before kernel/time.h looked at the base twice) ----
vboot rr 4 'bench=clock ms=50'
check "vsmp-clock-exit0" [ "$RC" = 0 ]
check "vsmp-clock-monotonic" sh -c '[ "$1" = 0 ] && [ "$2" = ok ]' _ "$(rfield backwards clock)" "$(rfield status clock)"
check "vsmp-clock-read-often" [ "$(rfield reads_k clock)" -ge 1000 ] 2>/dev/null
check "vsmp-clock-interrupted" [ "$(vstat timer_irqs)" -ge 1000 ] 2>/dev/null

# ---- a lock released between spin_lock's look and its wait (kernel/machine/vsmp.c
# lock_block): the wait ends at once.  Without that, CPU 0 waits for good and
# the watchdog ends the run (exit 3), as mq's tbench at 192 clients did.
vboot rr 2 'bench=lockrace watchdog=1'
check "vsmp-lockrace-exit0" [ "$RC" = 0 ]
check "vsmp-lockrace-ok" [ "$(rfield status lockrace)" = ok ]
check "vsmp-lockrace-counted" [ "$(sum block_races vsmpstat)" = 1 ]
check "vsmp-lockrace-no-wait" [ "$(sum lock_blocks vsmpstat)" = 0 ]
boot rr 2 'bench=lockrace' 64 30
check "vsmp-lockrace-needs-vsmp-exit1" [ "$RC" = 1 ]
expect "vsmp-lockrace-needs-vsmp-message" "^error: bench=lockrace: lockrace tests vsmp's lock wait: it needs --accel vsmp"

# ---- a deadlock is reported, never a hang ----
vboot o1 4 'bench=deadlock kind=spin watchdog=2'
check "vsmp-stall-exit3" [ "$RC" = 3 ]
expect "vsmp-stall-report" "^stall: cpu=[0-9]+ waited [0-9.]+ s for spinlock 'deadlock-cycle' held by cpu=[0-9]+"
check "vsmp-stall-every-cpu" [ "$(grep -c '^stall: cpu=[0-9]* task=' "$OUT")" = 4 ]
check "vsmp-stall-states" [ "$(grep -c '^stall: vsmp cpu=' "$OUT")" = 4 ]
vboot o1 2 'bench=deadlock kind=wait watchdog=1'
check "vsmp-watchdog-exit3" [ "$RC" = 3 ]
expect "vsmp-watchdog-report" '^watchdog: no progress for 1.0 s'
expect "vsmp-watchdog-states" '^watchdog: vsmp cpu=1 state=halted'

# ---- refused combinations ----
run_q() { OUT="$TMP/vsmp-q.out"; "$ROOT/tools/qemu-run.sh" --kernel "$ROOT/build/o1/kernel.elf" --timeout 30 "$@" >"$OUT" 2>&1; RC=$?; }
run_q --accel tcg --smp 2 --cmdline 'bench=boot vsmp=2'
check "vsmp-key-needs-accel-exit1" [ "$RC" = 1 ]
expect "vsmp-key-needs-accel-message" '^error: vsmp=2 on the command line: use --accel vsmp --smp 2'
run_q --accel vsmp --smp 2 --cmdline 'bench=boot vsmp=3'
expect "vsmp-key-disagrees-message" '^error: --accel vsmp --smp 2: the command line says vsmp=3'
run_q --accel vsmp --smp 2 --pvspin on --cmdline 'bench=boot'
expect "vsmp-pvspin-on-message" '^error: --accel vsmp: --pvspin on does not go with vsmp'
run_q --accel icount --smp 1 --cmdline 'bench=boot vsmp_quantum_ns=5000'
check "vsmp-quantum-needs-vsmp-exit1" [ "$RC" = 1 ]
expect "vsmp-quantum-needs-vsmp-message" '^error: vsmp_quantum_ns=.*needs vsmp='
run_q --accel vsmp --smp 2 --cmdline 'bench=boot cr3=load'
check "vsmp-cr3-load-exit1" [ "$RC" = 1 ]
expect "vsmp-cr3-load-message" "^error: cr3=.*cr3=load does not go with vsmp="
run_q --accel icount --smp 1 --cmdline 'bench=boot vsmp_slack_ns=100'
expect "vsmp-slack-needs-vsmp-message" '^error: vsmp_slack_ns=.*needs vsmp='
