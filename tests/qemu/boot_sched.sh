# The smoke boot of every scheduler (make check SCHED=<name> runs it for
# that one): on 1, 2 and 4 vCPUs it boots (exit 0), prints the boot line
# and a schedstat line for its last CPU, and runs a small hackbench to the
# end (every task started, every message delivered).  The boot line's own
# tests and the command-line errors are in boot.sh.
. "$(dirname "$0")/../lib.sh"
plan $((18 * $(nscheds)))

for sched in $(scheds); do
    for smp in 1 2 4; do
        boot "$sched" "$smp" 'bench=hackbench groups=1 loops=10'
        check "boot-$sched-smp$smp-exit0" [ "$RC" = 0 ]
        expect "boot-$sched-smp$smp-line" "^boot: cpus=$smp sched=$sched hz=[0-9]+ tsc_khz=[0-9]+ accel=(tcg|kvm|unknown) mem_mib=[0-9]+"
        expect "boot-$sched-smp$smp-schedstat" "^schedstat cpu=$((smp - 1)) "
        hb=$(results hackbench | head -1)
        check "boot-$sched-smp$smp-hackbench-ok" [ "$(field status "$hb")" = ok ]
        check "boot-$sched-smp$smp-hackbench-all-messages" [ "$(field messages "$hb")" = 4000 ]
        check "boot-$sched-smp$smp-hackbench-all-tasks" [ "$(field tasks_started "$hb")" = 40 ]
    done
done
