# SCHED=cfs23 (Linux 2.6.23 CFS, sched/cfs23.c) under QEMU on 1, 2 and 4
# vCPUs, with the rc6 code (default) and the rc1 code (sched.preset=rc1).
# No check depends on the host's speed: shares are measured under --accel
# icount with both hogs bound to one CPU (guest time = instructions).
#
# Per vCPU count:
#  1. bench=hackbench groups=2 loops=20 (TCG), default preset (rc6):
#     - the boot line, and cfs23's own line with sched_init_granularity's
#       values: latency 20 ms x (1 + ilog2(cpus)) = 20/40/60 ms, runtime
#       limit = latency, wakeup granularity = min_granularity / 2 =
#       1/2/3 ms, features 21;
#     - every hackbench task finishes and every message arrives (16000
#       messages, 80 tasks).
#  2. the same with sched.preset=rc1: "rc1 code", granularity 2/4/6 ms,
#     runtime limit 5 x granularity, features 31, the tunables line names
#     the preset; hackbench completes.
#  3. bench=cpuhog tasks=2 nice=0,5 bind=<last cpu>, icount, rc6 and rc1:
#     the shares follow the weights, 1024/335 = 3.06 (measured on the host
#     model: 3.056 for both): ratio within +-8%, shares sum to one CPU.
. "$(dirname "$0")/../lib.sh"
plan $((50 + 12 * $(long)))

for smp in 1 2 4; do
    tag="cfs23-smp$smp"
    case $smp in 1) f=1 ;; 2) f=2 ;; 4) f=3 ;; esac
    boot cfs23 "$smp" "bench=hackbench groups=2 loops=20" 256 80
    check "$tag-exit0" [ "$RC" = 0 ]
    expect "$tag-boot-line" "^boot: cpus=$smp sched=cfs23 hz=1000 "
    expect "$tag-granularities-rc6" \
        "^cfs23: Linux 2\.6\.23 CFS, rc6 code, $smp cpus: latency=$((20000000 * f)) min_gran=$((2000000 * f)) .* wakeup_gran=$((1000000 * f)) runtime_limit=$((20000000 * f)) features=21$"
    hb=$(results hackbench | head -1)
    check "$tag-hackbench-ok" [ "$(field status "$hb")" = ok ]
    check "$tag-hackbench-all-messages" [ "$(field messages "$hb")" = 16000 ]
    check "$tag-hackbench-all-tasks" [ "$(field tasks_started "$hb")" = 80 ]

    boot cfs23 "$smp" "sched.preset=rc1 bench=hackbench groups=2 loops=20" 256 80
    check "$tag-rc1-exit0" [ "$RC" = 0 ]
    expect "$tag-rc1-granularities" \
        "^cfs23: Linux 2\.6\.23 CFS, rc1 code, $smp cpus: .* gran=$((2000000 * f)) wakeup_gran=1000000 runtime_limit=$((10000000 * f)) features=31$"
    expect "$tag-rc1-tunables-line" "^tunables sched=cfs23 preset=rc1 rc1_code=1 "
    hb=$(results hackbench | head -1)
    check "$tag-rc1-hackbench-ok" [ "$(field status "$hb")" = ok ]
    check "$tag-rc1-hackbench-all-messages" [ "$(field messages "$hb")" = 16000 ]

    # make test: the bound icount boots on 1 vCPU; on 2 and 4 (the same
    # ratios, on the last CPU) in make test-long
    [ "$smp" != 1 ] && ! long_only "$tag: the bound icount boots on $smp vCPUs (rc6 and rc1 nice ratios and shares; here on 1)" && continue
    last=$((smp - 1))
    for preset in rc6 rc1; do
        boot cfs23 "$smp" "sched.preset=$preset bench=cpuhog tasks=2 nice=0,5 seconds=1 bind=$last" 256 120 icount
        check "$tag-$preset-nice-exit0" [ "$RC" = 0 ]
        l0=$(results cpuhog | grep ' task=0 ') l1=$(results cpuhog | grep ' task=1 ')
        s0=$(milli "$(field share "$l0")") s1=$(milli "$(field share "$l1")")
        if [ -n "$s0" ] && [ -n "$s1" ] && [ "$s1" -gt 0 ]; then
            ratio=$((s0 * 1000 / s1))
            echo "# $tag $preset: icount, nice 0 share $s0/1000, nice 5 share $s1/1000, ratio $ratio/1000 (predicted 3057)"
            check "$tag-$preset-nice-ratio-1024-to-335" in_range "$ratio" 2810 3300
            check "$tag-$preset-nice-shares-one-cpu" in_range "$((s0 + s1))" 950 1050
        else
            fail "$tag-$preset-nice-ratio-1024-to-335" "no shares parsed (exit $RC)"
            show_tail
            fail "$tag-$preset-nice-shares-one-cpu" "no shares parsed"
        fi
    done
done

# Seed001's unbound pairs (lmbench lat_ctx -s 0 2, pipe-test) on a dual
# core: the sync wake-up of a partner whose CPU is busy with the waker
# alone goes to the idle core (wake_idle, SD_WAKE_IDLE of 2.6.23's
# domains), so both CPUs run, every hand-off crossing over; bound to CPU 0
# they stay there.  vsmp: deterministic.  The same for cfs in sched_cfs.sh.
for preset in rc1 rc6; do
    tag="cfs23-$preset-seed001-pairs"
    boot cfs23 2 "sched.preset=$preset bench=lat_ctx,pipe procs=2 size=0 loops=2000 reps=1 pipe_wake=sync sock_model=2.6.24" 256 60 vsmp
    check "$tag-exit0" [ "$RC" = 0 ]
    check "$tag-lat_ctx-both-cpus" [ "$(field cpus_used "$(results lat_ctx | head -1)")" = 0x3 ]
    check "$tag-pipe-both-cpus" [ "$(field cpus_used "$(results pipe | head -1)")" = 0x3 ]
    ipis=$(( $(stat_field 0 resched_ipis) + $(stat_field 1 resched_ipis) ))
    check "$tag-handoffs-cross-over" in_range "$ipis" 3000 1000000
    boot cfs23 2 "sched.preset=$preset bench=pipe loops=2000 bind=0 pipe_wake=sync sock_model=2.6.24" 256 60 vsmp
    check "$tag-pipe-bound-one-cpu" [ "$(field cpus_used "$(results pipe | head -1)")" = 0x1 ]
done
# Without wake_idle (CONFIG_SCHED_SMT=n) the pair stays together: the
# balancer may move both (2.6.23 has no task_hot), but no hand-off crosses.
boot cfs23 2 "sched.wake_idle=0 bench=pipe loops=2000 pipe_wake=sync sock_model=2.6.24" 256 60 vsmp
ipis=$(( $(stat_field 0 resched_ipis) + $(stat_field 1 resched_ipis) ))
check "cfs23-no-wake-idle-handoffs-stay" in_range "$ipis" 0 100
