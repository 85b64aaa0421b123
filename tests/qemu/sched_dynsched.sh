# SCHED=dynsched (-aa's dyn-sched) under vsmp on 1, 2, 4, 8 and 16 CPUs:
# every hackbench task finishes and every message arrives (1 group x 20
# senders x 20 receivers x 10 loops = 4000 messages, 40 tasks), the boot
# says which scheduler it models, both presets boot, and under the davide
# preset the tunables line shows Davide's rules.  vsmp is deterministic:
# nothing here depends on the host's speed.  Its policy (slices, dyn_prio,
# recalculation of the run queue only, the sleep bonus and its cap) is
# tested on the host (tests/host/test_sched_dynsched.c); its predictions
# are sched/dynsched.expect.
. "$(dirname "$0")/../lib.sh"
plan 23

for smp in 1 2 4 8 16; do
    tag="dynsched-smp$smp"
    boot dynsched "$smp" "bench=hackbench groups=1 loops=10 sock_model=2.4.18" 256 60 vsmp
    check "$tag-exit0" [ "$RC" = 0 ]
    expect "$tag-models" "^dynsched: -aa's dyn-sched \(Davide Libenzi's 2.5.2 scheduler for 2.4.18\), slices in 2.4 ticks at HZ=100"
    hb=$(results hackbench | head -1)
    check "$tag-hackbench-all-messages" [ "$(field messages "$hb")" = 4000 ]
    check "$tag-hackbench-all-tasks" [ "$(field tasks_started "$hb")" = 40 ]
done
boot dynsched 2 "sched.preset=davide bench=hackbench groups=1 loops=10 sock_model=2.4.18" 256 60 vsmp
check "dynsched-davide-exit0" [ "$RC" = 0 ]
expect "dynsched-davide-tunables" "^tunables sched=dynsched preset=davide .*max_dynprio=40 legacy_nice_tslice=0 recalc_rcl_last=1 yield_rollover=0"
boot dynsched 1 "sched.preset=aa bench=boot" 256 60 vsmp
expect "dynsched-aa-tunables" "^tunables sched=dynsched preset=aa .*max_dynprio=0 legacy_nice_tslice=1 recalc_rcl_last=0 yield_rollover=1"
