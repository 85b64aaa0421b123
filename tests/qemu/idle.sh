# The idle loop's two modes (kernel keys idle=halt|poll, idle_poll_us=;
# kernel/task.c, docs/cost-model.md#tcg-and-icount): a polling idle CPU is
# woken without an IPI and the wake-up is counted as poll_wakes (charged as
# an idle IPI under an era cost model); idle=halt sends the IPIs;
# tools/qemu-run.sh gives idle=poll to TCG runs whose vCPUs each have a host
# core, and not to icount or vsmp; bad combinations are refused with an
# error line.  Counts only: no timed assertion.
. "$(dirname "$0")/../lib.sh"
plan 19

S=$DEFAULT_SCHED

# ---- TCG, 2 vCPUs, a token passed between tasks that move to the next CPU every round:
# wake-ups cross CPUs whatever the balancer does (bench=pipe's two tasks may share one CPU)
if oversubscribed 2; then
    echo "# idle: this host has fewer than 2 cores: qemu-run gives no idle=poll; the poll checks use idle=poll from the command line"
    boot "$S" 2 'bench=pingpong pairs=1 rounds=2000 migrate=1' 128 60
    check "idle-oversubscribed-halts" grep -q '^boot: .* idle=halt ' "$OUT"
    boot "$S" 2 'bench=pingpong pairs=1 rounds=2000 migrate=1 idle=poll' 128 60
else
    boot "$S" 2 'bench=pingpong pairs=1 rounds=2000 migrate=1' 128 60
    check "idle-tcg-default-said" grep -q '^run: idle=poll (the tcg default' "$OUT.err"
fi
check "idle-poll-exit0" [ "$RC" = 0 ]
expect "idle-poll-boot-line" '^boot: cpus=2 .* idle=poll idle_poll_us=200 cost=none '
polls=$(stat_sum poll_wakes 2) ipis=$(stat_sum resched_ipis 2)
check "idle-poll-wakes-counted" [ "${polls:-0}" -gt 0 ]
echo "# idle=poll, bench=pingpong pairs=1 rounds=2000 migrate=1 on 2 vCPUs: poll_wakes=$polls resched_ipis=$ipis"

boot "$S" 2 'bench=pingpong pairs=1 rounds=2000 migrate=1 idle=halt' 128 60
check "idle-halt-exit0" [ "$RC" = 0 ]
check "idle-halt-cmdline-wins" grep -q '^run: idle=halt (from --cmdline)' "$OUT.err"
check "idle-halt-no-poll-wakes" [ "$(stat_sum poll_wakes 2)" = 0 ]
check "idle-halt-sends-ipis" [ "$(stat_sum resched_ipis 2)" -gt 0 ]

# charged_per_poll_wake EVENTS INSNS POLL_WAKES FIGURE: every poll wake-up charged, each at FIGURE
charged_per_poll_wake() { [ -n "$1" ] && [ -n "$3" ] && [ "$1" -ge "$3" ] && [ "$2" = "$(($1 * $4))" ]; }

# ---- an era model charges a kicked poller as the IPI a halted CPU would have taken
boot "$S" 2 'bench=pingpong pairs=1 rounds=2000 migrate=1 idle=poll cost=era2007' 128 60
check "idle-poll-era2007-exit0" [ "$RC" = 0 ]
for cpu in 0 1; do
    e=$(stat_of coststat $cpu ipi_idle) i=$(stat_of coststat $cpu ipi_idle_insns) p=$(stat_of schedstat $cpu poll_wakes)
    check "idle-poll-era2007-cpu$cpu-charged" charged_per_poll_wake "$e" "$i" "$p" 1000
done

# ---- icount and vsmp halt (a polling CPU's instructions would be time there)
boot "$S" 2 'bench=pipe loops=200' 128 60 icount
check "idle-icount-halts" grep -q '^boot: .* idle=halt ' "$OUT"
boot "$S" 2 'bench=pipe loops=200 idle=poll' 128 60 vsmp
check "idle-poll-vsmp-refused-exit1" [ "$RC" = 1 ]
expect "idle-poll-vsmp-refused-message" "^error: idle=poll: vsmp's logical CPUs halt in virtual time"

# ---- bad input: an unknown mode, a window without poll
boot "$S" 1 'bench=pipe loops=200 idle=spin' 64 30
check "idle-bad-mode-exit1" [ "$RC" = 1 ]
expect "idle-bad-mode-message" '^error: idle=spin: expected one of halt\|poll'
boot "$S" 1 'bench=pipe loops=200 idle=halt idle_poll_us=50' 64 30
check "idle-window-needs-poll-exit1" [ "$RC" = 1 ]
expect "idle-window-needs-poll-message" '^error: idle_poll_us=50: needs idle=poll'
expect_not "idle-bad-no-result" '^result '
