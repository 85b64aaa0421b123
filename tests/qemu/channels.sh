# The channels' semantic rules, counted in the guest (chanstat lines: the
# tasks each kind of wake-up woke, per channel kind, and the sleeps), and the
# timing windows of the workloads.  1 vCPU, rr unless said: rr never
# preempts on wake-up, so the counts are exact.
#   pipes, pipe_wake=async (2.4.18/2.6.0): bench=pipe's wake-ups are all
#     plain, 2 per round trip (A's write wakes B, B's write wakes A);
#     pipe_wake=sync (2.6.23/24): all sync, as many;
#   sockets, hackbench groups=1 loops=20 (400 messages per receiver): the
#     reader wake-ups are plain in every sock_model; the senders block
#     (sock_writer_sleeps > 0) and a receiver's queue reaches exactly the
#     model's capacity (235 skbs under 2.6.0, 241 under 2.4.18, 372 under
#     2.6.24) and never more; the writer wake-ups are plain in 2.4.18/2.6.0
#     (no sync wake-up at all) and sync in 2.6.24 (sock_woken_sync > 0);
#   tbench on sockets: no sync wake-up under 2.6.0; under 2.6.24 the
#     client's wake-up when the server frees its request is sync;
#   o1 on 2 vCPUs: the same zero sync wake-ups for pipes and sockets
#     under the async rule and 2.6.0 sockets;
#   result lines carry pipe_wake= and sock_model= as given;
#   hackbench's time_s (until every task is reaped) is at least the last
#     read (last_read_s), strictly more under icount where time is
#     instructions;
#   lat_ctx's usec_per_switch is the median trip / procs minus the median
#     overhead of its reps repetitions (checked from its per-repetition line);
#   tbench does fixed work: ops = clients x load_ops, and mb_per_s is
#     10^-6 bytes / time_s (dbench 2.0's formula);
#   bad values of the new keys give one error: line and exit 1.
. "$(dirname "$0")/../lib.sh"
plan 94

chan() { grep -E "^chanstat bench=$1 " "$OUT" | head -1; }
cfield() { field "$2" "$(chan "$1")"; }
le() { [ -n "$1" ] && [ -n "$2" ] && [ "$1" -le "$2" ]; }
ge() { [ -n "$1" ] && [ -n "$2" ] && [ "$1" -ge "$2" ]; }
# micro X.YYYYYY: the value in millionths of a second
micro() { printf '%s\n' "$1" | awk -F. '/^[0-9]+\.[0-9]+$/ { d = substr($2 "000000", 1, 6); print $1 * 1000000 + d }'; }

# ---- pipes: the wake-up rule ----
for rule in async sync; do
    boot rr 1 "bench=pipe loops=500 pipe_wake=$rule" 256 60
    tag="chan-pipe-$rule"
    check "$tag-exit0" [ "$RC" = 0 ]
    check "$tag-result-says" [ "$(field pipe_wake "$(results pipe)")" = "$rule" ]
    s=$(cfield pipe pipe_woken_sync) p=$(cfield pipe pipe_woken_plain)
    echo "# $tag: pipe wake-ups: $s sync, $p plain for 500 round trips"
    if [ "$rule" = async ]; then
        check "$tag-no-sync" [ "$s" = 0 ]
        check "$tag-plain-2-per-trip" in_range "$p" 998 1000
    else
        check "$tag-no-plain" [ "$p" = 0 ]
        check "$tag-sync-2-per-trip" in_range "$s" 998 1000
    fi
    check "$tag-no-socket-wakeups" [ "$(cfield pipe sock_woken_plain)$(cfield pipe sock_woken_sync)" = 00 ]
done

# ---- sockets: capacity, who is woken how ----
for m in 2.4.18:241 2.6.0:235 2.6.24:372; do
    model=${m%%:*} fit=${m#*:}
    boot rr 1 "bench=hackbench groups=1 loops=20 sock_model=$model" 256 60
    tag="chan-sock-$model"
    line=$(results hackbench)
    check "$tag-exit0" [ "$RC" = 0 ]
    check "$tag-result-says" [ "$(field sock_model "$line")" = "$model" ]
    check "$tag-messages" [ "$(field messages "$line")" = 8000 ]
    s=$(cfield hackbench sock_woken_sync) p=$(cfield hackbench sock_woken_plain)
    ws=$(cfield hackbench sock_writer_sleeps) q=$(cfield hackbench sock_max_queued)
    echo "# $tag: socket wake-ups: $s sync, $p plain; $ws sender sleeps; deepest queue $q skbs (capacity $fit)"
    check "$tag-readers-woken" [ "${p:-0}" -gt 0 ]
    check "$tag-senders-blocked" [ "${ws:-0}" -gt 0 ]
    check "$tag-queue-reaches-capacity" [ "$q" = "$fit" ]
    check "$tag-skbs" [ "$(cfield hackbench sock_skbs)" = 8000 ]
    check "$tag-no-pipe-wakeups" [ "$(cfield hackbench pipe_woken_plain)$(cfield hackbench pipe_woken_sync)" = 00 ]
    if [ "$model" = 2.6.24 ]; then
        check "$tag-writer-wakeups-sync" [ "${s:-0}" -gt 0 ]
        check "$tag-sync-only-for-writers" le "$s" "$ws"
    else
        check "$tag-no-sync" [ "$s" = 0 ]
    fi
    t=$(micro "$(field time_s "$line")") lr=$(micro "$(cfield hackbench last_read_s)")
    check "$tag-time-includes-reaping" ge "$t" "$lr"
done

# tbench's request/reply exchanges.
for model in 2.6.0 2.6.24; do
    boot rr 1 "bench=tbench clients=2 load_ops=300 sock_model=$model" 256 60
    tag="chan-tbench-$model"
    line=$(results tbench)
    check "$tag-exit0" [ "$RC" = 0 ]
    check "$tag-fixed-work" [ "$(field ops "$line")" = 600 ]
    s=$(cfield tbench sock_woken_sync) p=$(cfield tbench sock_woken_plain)
    echo "# $tag: socket wake-ups: $s sync, $p plain for 600 operations"
    check "$tag-readers-woken" [ "${p:-0}" -gt 0 ]
    if [ "$model" = 2.6.24 ]; then
        check "$tag-write-space-sync" [ "${s:-0}" -gt 0 ]
    else
        check "$tag-no-sync" [ "$s" = 0 ]
    fi
    # dbench 2.0: 1.0e-6 * bytes / t; time_s is printed to the millisecond,
    # mb_per_s to 2 decimals: the printed rate must lie within what the
    # printed time allows.
    check "$tag-dbench-throughput" awk -v b="$(field bytes "$line")" -v t="$(field time_s "$line")" \
        -v r="$(field mb_per_s "$line")" 'BEGIN { lo = b / (t + 0.0005) / 1e6 - 0.006; hi = (t > 0.0005 ? b / (t - 0.0005) / 1e6 : 1e12) + 0.006
                                              exit !(b > 0 && r >= lo && r <= hi) }'
    # how evenly the clients were served: finish times in order, none after
    # the run's end, and the first finisher's 300 operations counted (no
    # bound on the gap to the end: under TCG it is host time)
    st=$(grep -E '^tbenchstat run=0 clients=2 ' "$OUT" | head -1)
    check "$tag-tbenchstat" awk -v f="$(field done_first_s "$st")" -v m="$(field done_mean_s "$st")" \
        -v l="$(field done_last_s "$st")" -v t="$(field time_s "$line")" -v s="$(field slowest_ops_at_first_done "$st")" \
        -v a="$(field ops_at_first_done "$st")" \
        'BEGIN { exit !(f != "" && f <= m && m <= l && l <= t && s <= 300 && a >= 300 && a <= 600) }'
done

# The same rules on 2 vCPUs with o1 (sync wake-ups migrate there; none are given).
boot o1 2 'bench=pipe,hackbench loops=20 groups=1' 256 90
check "chan-o1-smp2-exit0" [ "$RC" = 0 ]
check "chan-o1-smp2-pipe-no-sync" [ "$(cfield pipe pipe_woken_sync)" = 0 ]
check "chan-o1-smp2-sock-no-sync" [ "$(cfield hackbench sock_woken_sync)" = 0 ]
check "chan-o1-smp2-sock-capacity" le "$(cfield hackbench sock_max_queued)" 235

# ---- timing windows under icount (time = instructions: exact) ----
boot rr 1 'bench=hackbench,lat_ctx groups=1 loops=10 procs=2 reps=5' 256 120 icount
line=$(results hackbench)
check "chan-icount-exit0" [ "$RC" = 0 ]
t=$(micro "$(field time_s "$line")") lr=$(micro "$(cfield hackbench last_read_s)")
echo "# chan-icount: hackbench time_s $t us (reaped), last read $lr us"
gt() { [ -n "$1" ] && [ -n "$2" ] && [ "$1" -gt "$2" ]; }
check "chan-icount-hackbench-reaping-counts" gt "$t" "$lr"
# lat_ctx: the metric from the medians of the per-repetition values (its "lat_ctx:" line).
trips=$(proto_field trip_us --kind lat_ctx --where procs=2 "$OUT" | head -1)
ovs=$(proto_field overhead_us --kind lat_ctx --where procs=2 "$OUT" | head -1)
want=$(awk -v tr="$trips" -v ov="$ovs" '
    function med(s,   a, n, i, j, t) { n = split(s, a, ","); for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
    BEGIN { printf "%.3f", med(tr) / 2 - med(ov) }')
got=$(field usec_per_switch "$(results lat_ctx)")
echo "# chan-icount: lat_ctx usec_per_switch $got, from the medians $want"
check "chan-icount-lat_ctx-five-reps" [ "$(printf '%s\n' "$trips" | tr ',' '\n' | grep -c .)" = 5 ]
check "chan-icount-lat_ctx-median" awk -v a="$want" -v b="$got" 'BEGIN { d = a - b; exit !(b != "" && d < 0.003 && -d < 0.003) }'
check "chan-icount-lat_ctx-lmbench-line" grep -qE '^2 [0-9]+\.[0-9][0-9]$' "$OUT"

# ---- bad values ----
bad() {
    boot rr 1 "$2"
    check "chan-bad-$1-exit1" [ "$RC" = 1 ]
    expect "chan-bad-$1-message" "^error: $3"
    check "chan-bad-$1-one-error" [ "$(grep -c '^error: ' "$OUT")" = 1 ]
    expect_not "chan-bad-$1-no-result" '^result '
}
bad pipe-wake 'bench=pipe pipe_wake=maybe' 'pipe_wake=maybe: expected one of async\|sync'
bad sock-model 'bench=hackbench sock_model=2.6.11' 'sock_model=2.6.11: expected one of 2\.4\.18\|2\.6\.0\|2\.6\.24'
bad reps-zero 'bench=lat_ctx reps=0' 'reps=0: .*out of range'
bad reps-big 'bench=lat_ctx reps=102' 'reps=102: .*out of range'
bad load-ops 'bench=tbench load_ops=0' 'load_ops=0: .*out of range'
bad seconds 'bench=tbench seconds=86401' 'seconds=86401: .*out of range'
bad datasize-skb 'bench=hackbench datasize=20000' 'datasize=20000: larger than one skb'
bad pipe-size-tbench 'bench=tbench pipe_size=4096' 'pipe_size=4096: unknown key'
