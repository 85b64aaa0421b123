# Scheduler tunables at boot (sched.<name>=<value>, sched.preset=<name>;
# kernel/sched_tunables.c).  About 40 s on an idle host.  Checks:
#   - every scheduler with tunables lists each one in bench=list as a
#     "tunable sched=<s> name=<n> unit=<u> default=<d> min=<a> max=<b>" line,
#     and the "tunables sched=<s> ..." line right after the boot line names
#     exactly those tunables, each with a value (no "unset": init() computed
#     every AUTO one); the list's defaults are the values in force when
#     nothing is given (AUTO ones excepted);
#   - presets are listed as "preset sched=<s> name=<p> ..." lines and what
#     one sets shows in the tunables line (o1's rml-2.4), a value given as
#     well winning;
#   - sched.nosuch=1, a value out of range, a malformed value and an unknown
#     preset are each one error: line and exit 1, also for a scheduler
#     without tunables (rr);
#   - a tunable reaches the scheduler: o1's nice 0 vs nice 19 share on one
#     CPU (icount, 1 s) is 102:10 ms slices by default and 123:50 with
#     sched.min_timeslice=50 (10 + ... -> 50 + 150 x 19 / 39);
#   - tools/schedlab run --set sched.<name>=a,b is one boot per value, and
#     each result row carries its value.
. "$(dirname "$0")/../lib.sh"
plan 84

for sched in o1 cfs mq goodness cfs23 nick; do
    boot "$sched" 1 'bench=list'
    cp "$OUT" "$TMP/list-$sched"
    check "tunables-$sched-list-exit0" [ "$RC" = 0 ]
    listed=$(proto_field name --kind tunable --where "sched=$sched" "$OUT" | tr '\n' ' ')
    check "tunables-$sched-listed" [ -n "$listed" ]
    bad=$(grep '^tunable ' "$OUT" | grep -vE "^tunable sched=$sched name=[a-z0-9_]+ unit=[a-z_]+ default=([0-9]+|auto) min=[0-9]+ max=[0-9]+ help=\"[^\"]+\"\$" | head -2)
    RC=0 check "tunables-$sched-lines-parse" [ -z "$bad" ]
    line=$(grep -A1 '^boot: ' "$OUT" | sed -n '2p')      # bench=list boots print it too
    check "tunables-$sched-line-after-boot" sh -c "printf '%s\n' '$line' | grep -q '^tunables sched=$sched '"
    inforce=$(printf '%s\n' "$line" | tr ' ' '\n' | grep = | grep -vE '^(sched|preset)=' | cut -d= -f1 | tr '\n' ' ')
    check "tunables-$sched-line-names-every-tunable" [ "$inforce" = "$listed" ]
    check "tunables-$sched-none-unset" sh -c "! printf '%s\n' '$line' | grep -q '=unset'"
    # The listed defaults are what is in force (AUTO ones are computed).
    wrong=""
    for kv in $(printf '%s\n' "$line" | tr ' ' '\n' | grep = | grep -vE '^(sched|preset)='); do
        n=${kv%%=*} v=${kv#*=}
        d=$(proto_field default --kind tunable --where "sched=$sched" --where "name=$n" "$TMP/list-$sched" | head -1)
        [ "$d" = auto ] || [ "$d" = "$v" ] || wrong="$wrong $n=$v(listed $d)"
    done
    RC=0 check "tunables-$sched-defaults-in-force" [ -z "$wrong" ]
    [ -z "$wrong" ] || echo "    $wrong"
done

# Presets.
expect_in() { RC=0 OUT=$1 expect "$2" "$3"; }
expect_in "$TMP/list-o1" "tunables-o1-preset-none-listed" '^preset sched=o1 name=none$'
expect_in "$TMP/list-o1" "tunables-o1-preset-rml-listed" '^preset sched=o1 name=rml-2\.4 min_timeslice=10 max_timeslice=300 .*busy_rebalance_tick=250'
boot o1 1 'bench=boot sched.preset=rml-2.4 sched.busy_rebalance_tick=300'
check "tunables-o1-preset-exit0" [ "$RC" = 0 ]
expect "tunables-o1-preset-applied" '^tunables sched=o1 preset=rml-2\.4 min_timeslice=10 max_timeslice=300 .*max_sleep_avg=2000 starvation_limit=2000 .*timeslice_granularity=0 idle_rebalance_tick=10 busy_rebalance_tick=300 '
boot o1 1 'bench=boot sched.cachesize=1024'
expect "tunables-o1-cache-decay-from-size" '^tunables sched=o1 .* cachesize=1024 bandwidth=350 cache_decay_ticks=3$'

# Rejected, one line, exit 1.
rejected() {   # rejected NAME SCHED CMDLINE REGEX
    boot "$2" 1 "$3"
    check "tunables-$1-exit1" [ "$RC" = 1 ]
    expect "tunables-$1-message" "^error: $4"
    check "tunables-$1-one-error-line" [ "$(grep -c '^error: ' "$OUT")" = 1 ]
    expect_not "tunables-$1-no-result" '^result '
}
rejected nosuch o1 'bench=boot sched.nosuch=1' 'sched\.nosuch=1: no tunable of sched/o1\.c; it has: min_timeslice '
rejected range o1 'bench=boot sched.min_timeslice=0' 'sched\.min_timeslice=0: 0 is out of range 1\.\.1000$'
rejected malformed cfs 'bench=boot sched.sched_latency_ns=20ms' 'sched\.sched_latency_ns=20ms: not an unsigned integer$'
rejected cross o1 'bench=boot sched.min_timeslice=300' 'sched\.min_timeslice=300: min_timeslice is above max_timeslice$'
rejected sleep-avg o1 'bench=boot sched.max_sleep_avg=50' 'sched\.max_sleep_avg=50: max_sleep_avg is below AVG_TIMESLICE '
rejected preset o1 'bench=boot sched.preset=rml' 'sched\.preset=rml: expected one of none\|rml-2\.4$'
rejected rr-none rr 'bench=boot sched.x=1' 'sched\.x=1: sched/rr\.c has no tunables$'
boot rr 1 'bench=list'
expect_not "tunables-rr-lists-none" '^(tunable|preset|tunables) '

# A tunable reaches the scheduler: o1 nice 0 vs 19 on one CPU, icount.
share_ratio() {   # share_ratio CMDLINE-EXTRA: share(nice 0)/share(nice 19) x1000
    boot o1 1 "bench=cpuhog tasks=2 nice=0,19 seconds=1 bind=0 $1" 256 120 icount
    s0=$(milli "$(field share "$(results cpuhog | grep ' task=0 ')")")
    s1=$(milli "$(field share "$(results cpuhog | grep ' task=1 ')")")
    [ -n "$s0" ] && [ -n "$s1" ] && [ "$s1" -gt 0 ] && echo $((s0 * 1000 / s1))
}
r_default=$(share_ratio '')
r_min50=$(share_ratio 'sched.min_timeslice=50')
echo "# o1 nice 0 / nice 19 share x1000: default $r_default (slices 102:10; measured 8433: the partial last round), min_timeslice=50 $r_min50 (123:50 = 2460; measured 2558)"
RC=0 check "tunables-o1-default-slices" in_range "${r_default:-0}" 8000 12000
RC=0 check "tunables-o1-min-timeslice-50" in_range "${r_min50:-0}" 2100 2900

# schedlab: one boot per value, the value in every row.
D="$TMP/tunables-sl.$$"
"$ROOT/tools/schedlab" run --sched o1 --smp 1 --bench pipe --loops 500 --set sched.min_timeslice=5,20 -j 1 \
    --out "$D" >"$TMP/sl.log" 2>&1
RC=$? OUT="$TMP/sl.log"
check "tunables-schedlab-exit0" [ "$RC" = 0 ]
check "tunables-schedlab-two-boots" [ "$(ls "$D"/logs/*.log 2>/dev/null | wc -l)" = 2 ]
col=$(head -1 "$D/results.csv" 2>/dev/null | tr ',' '\n' | grep -n '^sched.min_timeslice$' | cut -d: -f1)
check "tunables-schedlab-column" [ -n "$col" ]
vals=$(tail -n +2 "$D/results.csv" 2>/dev/null | cut -d, -f"${col:-1}" | sort -n | tr '\n' ' ')
check "tunables-schedlab-values" [ "$vals" = "5 20 " ]
"$ROOT/tools/schedlab" run --sched o1,cfs --smp 1 --bench pipe --set sched.min_timeslice=5 --out "$D.x" >"$TMP/sl2.log" 2>&1
RC=$? OUT="$TMP/sl2.log"
check "tunables-schedlab-other-sched-exit2" [ "$RC" = 2 ]
expect "tunables-schedlab-other-sched-message" '^schedlab( [a-z-]+)?: error: --set sched\.min_timeslice=5: sched=cfs has no tunable min_timeslice'
