# The message-passing workloads (hackbench, pipe, lat_ctx, tbench) on every
# scheduler at 1, 2 and 4 vCPUs, small sizes, all four in one boot:
#   1 vCPU:  process mode, hackbench over socket pairs;
#   2 vCPUs: mode=thread ipc=pipe;
#   4 vCPUs: bind=1-3 and a smaller hackbench (4 vCPUs share the host's 2
#            cores, so every lock-holder preemption costs a host timeslice).
# Checks per boot:
#   - exit 0 and one result line per workload with status=ok;
#   - every hackbench message arrives intact (receivers check each byte, the
#     sender and the sequence): messages = groups x fds x fds x loops and
#     tasks_started = groups x 2 x fds;
#   - every task ran only on allowed CPUs: cpus_used within the online mask,
#     or within 0xe with bind=1-3;
#   - the metrics are there and numeric (time_s, usec_per_op,
#     usec_per_switch, mb_per_s) and tbench moved data (ops > 0);
#   - no leak line (every run frees its tasks, pipes and rings).
# Timing is never asserted (noisy shared host).
. "$(dirname "$0")/../lib.sh"
plan $((51 * $(nscheds)))

# tbench does fixed work (load_ops=200, the short suite's), so each boot takes
# a fraction of a second; its timed mode (seconds=1) runs on the default
# scheduler's 1-vCPU boot (it was every boot's second of guest time).
ALL='bench=hackbench,pipe,lat_ctx,tbench procs=3 clients=2'

within() {  # within MASK ALLOWED: every bit of MASK is in ALLOWED (both hex 0x..)
    [ -n "$1" ] && [ $(( $1 & ~$2 )) -eq 0 ] && [ $(( $1 )) -ne 0 ]
}
numeric() { printf '%s' "$1" | grep -Eq '^-?[0-9]+(\.[0-9]+)?$'; }

check_all() {  # check_all NAME ALLOWED_MASK MESSAGES TASKS
    tag=$1 allowed=$2 messages=$3 tasks=$4
    check "$tag-exit0" [ "$RC" = 0 ]
    for b in hackbench pipe lat_ctx tbench; do
        line=$(results $b | head -1)
        check "$tag-$b-ok" [ "$(field status "$line")" = ok ]
        check "$tag-$b-cpus" within "$(field cpus_used "$line")" "$allowed"
    done
    line=$(results hackbench | head -1)
    check "$tag-hackbench-messages" [ "$(field messages "$line")" = "$messages" ]
    check "$tag-hackbench-tasks" [ "$(field tasks_started "$line")" = "$tasks" ]
    check "$tag-hackbench-time" numeric "$(field time_s "$line")"
    check "$tag-pipe-metric" numeric "$(field usec_per_op "$(results pipe)")"
    check "$tag-lat_ctx-metric" numeric "$(field usec_per_switch "$(results lat_ctx)")"
    line=$(results tbench)
    check "$tag-tbench-metric" numeric "$(field mb_per_s "$line")"
    check "$tag-tbench-traffic" [ "$(field ops "$line")" -gt 0 ] 2>/dev/null
    expect_not "$tag-no-leak" 'leak after the run'
}

for sched in $(scheds); do
    tb=load_ops=200
    [ "$sched" = "$DEFAULT_SCHED" ] && tb=seconds=1
    boot "$sched" 1 "$ALL $tb groups=2 loops=10" 256 90
    check_all "wl-$sched-smp1" 0x1 8000 80
    boot "$sched" 2 "$ALL load_ops=200 groups=2 loops=10 mode=thread ipc=pipe" 256 90
    check_all "wl-$sched-smp2-thread-pipe" 0x3 8000 80
    boot "$sched" 4 "$ALL load_ops=200 groups=1 fds=5 loops=4 bind=1-3" 256 90
    check_all "wl-$sched-smp4-bind1-3" 0xe 100 10
done
