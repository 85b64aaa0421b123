# The cost model's era machines (cost=era2003|era2007, kernel/chan_cost.h,
# docs/cost-model.md): the names parse and are on the boot line (with the
# figures charged) and on the result lines; every charge is exactly its
# figure (the coststat counters: instructions = events x figure, and one
# CR3 charge per CR3 load); era2003's TCP figure is paid by the sends on
# tbench's pairs (TCP over loopback), not hackbench's; under vsmp the era's
# IPI figure is the default delivery latency; a bad name is refused;
# tools/qemu-run.sh gives TCG cr3=elide unless --cmdline says cr3=.  Counts
# only: no timed assertion.
. "$(dirname "$0")/../lib.sh"
plan 35

S=$DEFAULT_SCHED
# exact TAG CPU EVENT FIGURE: EVENT_insns = EVENT x FIGURE on that CPU's coststat line
exact() {
    n=$(stat_of coststat "$2" "$3") i=$(stat_of coststat "$2" "$3_insns")
    check "$1-$3-cpu$2-exact" [ -n "$n" -a "$i" = "$((${n:-0} * $4))" ]
}

# ---- vsmp, 2 logical CPUs (one icount vCPU, deterministic): CR3, migrations, lock waits
boot "$S" 2 'bench=pingpong,pipe pairs=2 rounds=100 migrate=1 loops=500 cost=era2003' 256 60 vsmp
check "cost-era2003-exit0" [ "$RC" = 0 ]
expect "cost-era2003-boot-line" '^boot: cpus=2 .* cr3=elide idle=halt cost=era2003 charged=cr3:1006,migrate:19302,lock:159,tcp_skb:7380,tcp_kib:4286 real=atomic,timer vsmp_quantum_ns=[0-9]+ vsmp_ipi_ns=1660( |$)'
expect "cost-era2003-result-line" '^result bench=pipe .* cost=era2003 .*status=ok$'
for cpu in 0 1; do
    check "cost-era2003-cr3-cpu$cpu-one-per-load" [ "$(stat_of coststat $cpu cr3)" = "$(stat_of schedstat $cpu cr3_loads)" ]
    exact cost-era2003 $cpu cr3 1006
    exact cost-era2003 $cpu migrate 19302
    exact cost-era2003 $cpu lock 159
    check "cost-era2003-no-ipi-busy-time-cpu$cpu" [ "$(stat_of coststat $cpu ipi_idle)$(stat_of coststat $cpu ipi_busy)" = 00 ]
done
m=$(( $(stat_of coststat 0 migrate) + $(stat_of coststat 1 migrate) ))
check "cost-era2003-migrations-charged" [ "$m" -gt 0 ]
echo "# cost era2003 vsmp=2: cr3 $(stat_of coststat 0 cr3)+$(stat_of coststat 1 cr3), migrations $m charged"

# ---- era2003's TCP figure: every send on tbench's pairs is one charge of
# 7,380 a skb and 4,286 a KiB (an skb carries at most 16 KiB), none on
# hackbench's AF_UNIX pairs
boot "$S" 2 'bench=hackbench,tbench groups=1 loops=10 clients=2 load_ops=200 cost=era2003' 256 60 vsmp
check "cost-tcp-exit0" [ "$RC" = 0 ]
skbs_of() { field sock_skbs "$(grep -E "^chanstat bench=$1 " "$OUT" | head -1)"; }
tcp=$(( $(stat_of coststat 0 tcp) + $(stat_of coststat 1 tcp) ))
tcp_insns=$(( $(stat_of coststat 0 tcp_insns) + $(stat_of coststat 1 tcp_insns) ))
check "cost-tcp-hackbench-skbs-sent" [ "$(skbs_of hackbench)" -gt 0 ]
ops=$(field ops "$(results tbench | head -1)")
skbs=$(skbs_of tbench)
check "cost-tcp-one-charge-per-tbench-send" [ "$tcp" = "$((2 * ${ops:-0}))" ]
check "cost-tcp-figure-per-skb" [ "$tcp_insns" -gt "$((skbs * 7380))" -a "$tcp_insns" -le "$((skbs * (7380 + 16 * 4286)))" ]
echo "# cost era2003 tcp: $tcp sends of $skbs skbs charged $tcp_insns instructions (hackbench's $(skbs_of hackbench) skbs: none)"

# ---- TCG, 2 vCPUs: era2007's IPI charges (busy time there), and cr3=elide by default
boot "$S" 2 'bench=pingpong pairs=2 rounds=100 migrate=1 cost=era2007' 256 60
check "cost-era2007-exit0" [ "$RC" = 0 ]
expect "cost-era2007-boot-line" '^boot: cpus=2 .* cr3=elide idle=(halt|poll idle_poll_us=[0-9]+) cost=era2007 charged=cr3:119,migrate:2336,lock:37,ipi_idle:1000,ipi_busy:267 real=atomic,timer,hlt,ipi checks=1$'
check "cost-tcg-cr3-elide-said" grep -q '^run: cr3=elide (the tcg default' "$OUT.err"
for cpu in 0 1; do
    exact cost-era2007 $cpu cr3 119
    exact cost-era2007 $cpu migrate 2336
    exact cost-era2007 $cpu lock 37
    exact cost-era2007 $cpu ipi_idle 1000
    exact cost-era2007 $cpu ipi_busy 267
done

# ---- a bad name: one error line naming the choices, nothing run; cr3= on --cmdline wins
boot "$S" 1 'bench=pipe loops=1000 cost=era1999 cr3=load' 64 30
check "cost-bad-name-exit1" [ "$RC" = 1 ]
expect "cost-bad-name-message" '^error: cost=era1999: expected one of none\|linux61\|era2003\|era2007'
expect_not "cost-bad-name-no-result" '^result '
check "cost-cr3-cmdline-wins" grep -q '^run: cr3=load (from --cmdline)' "$OUT.err"
