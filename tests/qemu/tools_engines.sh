# Matrices that can be stopped, resumed, split and spread: --engine none,
# tools/schedlab boot --shard, run --resume, merge, SIGTERM (exit 143, the
# boots that never started "not run"), GNU parallel (local slots, and two
# "hosts" that are this machine behind a fake ssh), and Slurm: a real
# single-node cluster (munged, slurmctld, slurmd) started here when this
# runs as root with Slurm installed, otherwise sbatch emulated (each array
# task's command run with SLURM_ARRAY_TASK_ID set, as Slurm would).
# Small boots (bench=boot) on rr at 1 vCPU, 15 of them: about 30 s.
. "$(dirname "$0")/../lib.sh"
plan 17

SL="$ROOT/tools/schedlab"
D="$TMP/engines.$$"
mkdir -p "$D"
verdicts() { awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "verdict") v = i; next } { print $v }' "$1/boots.csv" | sort | uniq -c | awk '{ printf "%s=%s ", $2, $1 }'; }
col_values() {  # col_values FILE NAME: the distinct values of a column
    awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i; next } c { print $c }' "$1" | sort -u | tr '\n' ' '
}
MATRIX="--sched rr --smp 1 --bench boot --timeout 60"

# --- prepare only, boot half by shard, finish with --resume
N="$D/none"
"$SL" run $MATRIX --boots 4 --engine none --out "$N" >"$D/last.log" 2>&1
rc=$?
ok_if engines-none "--engine none exited $rc or booted something" sh -c "[ $rc = 0 ] && [ \"\$(ls '$N/logs' | grep -c '\\.log\$')\" = 0 ]"
cp "$N/boots.csv" "$D/last.log" 2>/dev/null
ok_if engines-none-notrun "the prepared boots are not all not_run: $(verdicts "$N")" [ "$(verdicts "$N")" = "not_run=4 " ]
cp -r "$N" "$D/half1" && cp -r "$N" "$D/half2"
"$SL" boot "$D/half1" --shard 1/2 >"$D/last.log" 2>&1
"$SL" boot "$D/half2" --shard 2/2 >>"$D/last.log" 2>&1
ok_if engines-shards "the shards did not boot 2 each" \
    sh -c "[ \"\$(ls '$D/half1/logs' | grep -c '\\.rc\$')\" = 2 ] && [ \"\$(ls '$D/half2/logs' | grep -c '\\.rc\$')\" = 2 ] &&
        [ ! -e '$D/half1/logs/rr-smp1-boot2.rc' ] && [ -e '$D/half2/logs/rr-smp1-boot2.rc' ]"
"$SL" merge "$D/merged" "$D/half1" "$D/half2" >"$D/last.log" 2>&1
ok_if engines-merge "the two shards did not merge into 4 ok boots: $(verdicts "$D/merged" 2>/dev/null)" [ "$(verdicts "$D/merged")" = "ok=4 " ]
"$SL" run --resume "$D/half1" >"$D/last.log" 2>&1
rc=$?
ok_if engines-resume "run --resume exited $rc or did not finish the other 2 boots ($(verdicts "$D/half1"))" \
    sh -c "[ $rc = 0 ] && [ \"$(verdicts "$D/half1")\" = 'ok=4 ' ] && grep -q '^resumed: .* 2 of 4 boots' '$D/half1/meta.txt'"
"$SL" run --resume "$D/half1" --sched rr >"$D/last.log" 2>&1
rc=$?
ok_if engines-resume-no-matrix-flags "run --resume with --sched exited $rc" sh -c "[ $rc = 2 ] && grep -q 'takes its matrix from DIR' '$D/last.log'"
F="$D/failed"
cp -r "$D/half2" "$F"   # boots 2 and 4 ran; 1 and 3 never did
echo 'rc=3 wall_s=1 oversubscribed=no host=x' >"$F/logs/rr-smp1-boot2.rc"   # and boot 2 failed
rm -f "$F/logs/rr-smp1-boot3."* "$F/logs/rr-smp1-boot1."*
cp -r "$D/half1/logs/rr-smp1-boot1."* "$F/logs/"
"$SL" resume "$F" >"$D/last.log" 2>&1
ok_if engines-resume-skips-failed "resume booted the failed boot again without --retry-failed" \
    sh -c "grep -q '1 of 4 boots to run (unfinished)' '$D/last.log' && grep -q '^rc=3 ' '$F/logs/rr-smp1-boot2.rc'"
"$SL" resume "$F" --retry-failed >"$D/last.log" 2>&1
ok_if engines-retry-failed "--retry-failed did not boot it again ($(verdicts "$F"))" \
    sh -c "grep -q '1 of 4 boots to run (unfinished and failed)' '$D/last.log' && [ \"$(verdicts "$F")\" = 'ok=4 ' ]"

# --- SIGTERM: exit 143; the boot that was running is stopped, those after it never started
T="$D/term"
"$SL" run --sched rr --smp 1 --bench cpuhog --tasks 1 --seconds 30 --timeout 60 --boots 3 -j 1 --out "$T" >"$D/term.log" 2>&1 &
pid=$!
i=0
while [ $i -lt 120 ] && [ ! -s "$T/logs/rr-smp1-boot1.log" ]; do sleep 0.5; i=$((i + 1)); done   # the first boot is under way
kill -TERM "$pid"
wait "$pid"
rc=$?
cp "$D/term.log" "$D/last.log"
ok_if engines-sigterm-143 "SIGTERM: exit $rc, not 143" [ "$rc" = 143 ]
ok_if engines-sigterm-notrun "the two boots that never started are not 'not run' ($(verdicts "$T"))" \
    sh -c "[ \"$(verdicts "$T")\" = 'failed=1 not_run=2 ' ] && grep -q 'never finished' '$T/boots.csv'"
i=0   # the QEMU that was killed may take a moment to go
while [ $i -lt 20 ] && ps -eo args | grep -v grep | grep -q "$T/kernels/rr.elf"; do sleep 0.5; i=$((i + 1)); done
ok_if engines-sigterm-no-qemu "a QEMU of the stopped matrix is still running 10 s later" \
    sh -c "! ps -eo args | grep -v grep | grep -q '$T/kernels/rr.elf'"

# --- GNU parallel: local slots, then two "hosts" that are this machine
if command -v parallel >/dev/null 2>&1; then
    P="$D/parallel"
    "$SL" run $MATRIX --boots 2 --engine parallel --out "$P" >"$D/last.log" 2>&1
    rc=$?
    ok_if engines-parallel "--engine parallel exited $rc ($(verdicts "$P" 2>/dev/null))" sh -c "[ $rc = 0 ] && [ \"$(verdicts "$P")\" = 'ok=2 ' ]"
    cp "$P/parallel.joblog" "$D/last.log" 2>/dev/null
    ok_if engines-parallel-joblog "the job log does not list 2 boots with exit 0" \
        [ "$(awk -F'\t' 'NR > 1 && $7 == 0 && $9 ~ /schedlab.? boot / { n++ } END { print n + 0 }' "$P/parallel.joblog")" = 2 ]
    mkdir -p "$D/ssh"
    # A fake ssh: runs the command here, naming the host it pretends to be.
    printf '%s\n' '#!/bin/sh' 'while [ $# -gt 0 ]; do case "$1" in -o|-p|-l|-i|-S) shift 2 ;; -*) shift ;; *) break ;; esac; done' \
        'host=$1; shift; [ "${1:-}" = -- ] && shift' 'SCHEDLAB_HOST=$host; export SCHEDLAB_HOST' 'exec sh -c "$*"' >"$D/ssh/ssh"
    chmod +x "$D/ssh/ssh"
    printf '1/alpha\n1/beta\n' >"$D/ssh/hosts"
    H="$D/hosts"
    # SHELL unset, as in a CI job: parallel runs remote jobs through $SHELL
    env -u SHELL PARALLEL_SSH="$D/ssh/ssh" "$SL" run $MATRIX --boots 2 --engine parallel --hosts "$D/ssh/hosts" --out "$H" >"$D/last.log" 2>&1
    rc=$?
    ok_if engines-parallel-hosts "--hosts with two hosts exited $rc ($(verdicts "$H" 2>/dev/null))" sh -c "[ $rc = 0 ] && [ \"$(verdicts "$H")\" = 'ok=2 ' ]"
    cp "$H/results.csv" "$D/last.log" 2>/dev/null
    ok_if engines-parallel-both-hosts "the boots did not run on both hosts (host column: $(col_values "$H/results.csv" host))" \
        [ "$(col_values "$H/results.csv" host)" = "alpha beta " ]
else
    fail engines-parallel "GNU parallel is not installed (tools/deps.sh check)"
    for n in parallel-joblog parallel-hosts parallel-both-hosts; do skip "engines-$n" "no GNU parallel"; done
fi

# --- Slurm: a real single-node cluster when this can start one, else sbatch emulated
slurm_up() {   # slurm_up DIR: munged, slurmctld and slurmd of this machine, configured in DIR
    d=$1
    mkdir -p "$d/munge" "$d/state" "$d/spool" "$d/log"
    dd if=/dev/urandom of="$d/munge/munge.key" bs=1024 count=1 2>/dev/null && chmod 600 "$d/munge/munge.key" || return 1
    munged --key-file="$d/munge/munge.key" --socket="$d/munge/sock" --pid-file="$d/munge/pid" \
        --log-file="$d/munge/log" --seed-file="$d/munge/seed" -f 2>"$d/log/munged.err" || return 1
    h=$(hostname) port=$((20000 + $$ % 20000))
    {
        echo "ClusterName=schedlab"; echo "SlurmctldHost=$h"
        echo "AuthType=auth/munge"; echo "AuthInfo=socket=$d/munge/sock"; echo "CredType=cred/munge"
        echo "SlurmUser=root"; echo "SlurmdUser=root"; echo "SlurmctldPort=$port"; echo "SlurmdPort=$((port + 1))"
        echo "StateSaveLocation=$d/state"; echo "SlurmdSpoolDir=$d/spool"
        echo "SlurmctldPidFile=$d/ctld.pid"; echo "SlurmdPidFile=$d/d.pid"
        echo "SlurmctldLogFile=$d/log/ctld.log"; echo "SlurmdLogFile=$d/log/d.log"
        echo "ProctrackType=proctrack/linuxproc"; echo "TaskPlugin=task/none"
        echo "SelectType=select/cons_tres"; echo "SelectTypeParameters=CR_CPU"; echo "SchedulerType=sched/builtin"
        echo "ReturnToService=2"; echo "MpiDefault=none"; echo "JobAcctGatherType=jobacct_gather/none"
        echo "AccountingStorageType=accounting_storage/none"
        echo "NodeName=$h CPUs=$(nproc) State=UNKNOWN"; echo "PartitionName=schedlab Nodes=$h Default=YES MaxTime=INFINITE State=UP"
    } >"$d/slurm.conf"
    SLURM_CONF=$d/slurm.conf; export SLURM_CONF
    slurmctld -i 2>"$d/log/ctld.err" && slurmd 2>"$d/log/d.err" || return 1
    i=0
    while [ $i -lt 20 ]; do
        sinfo -h -o %T 2>/dev/null | grep -q idle && return 0
        sleep 0.5; i=$((i + 1))
    done
    return 1
}
slurm_down() {   # stops what slurm_up started, by the pid files it wrote
    for f in "$1/d.pid" "$1/ctld.pid" "$1/munge/pid"; do
        [ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
    done
}
SD="$D/slurm"
mkdir -p "$SD"
how=""
if [ "$(id -u)" = 0 ] && command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v munged >/dev/null &&
    command -v sbatch >/dev/null && slurm_up "$SD/cluster"; then
    how="a real single-node Slurm cluster (munged, slurmctld, slurmd)"
else
    slurm_down "$SD/cluster"
    # sbatch emulated: every array task's command with SLURM_ARRAY_TASK_ID set, as Slurm runs it.
    mkdir -p "$SD/bin"
    printf '%s\n' '#!/bin/sh' 'for a; do script=$a; done' \
        'n=$(sed -n "s/^#SBATCH --array=1-\([0-9]*\).*/\1/p" "$script")' \
        'echo "Submitted batch job 1"' \
        'i=1; while [ $i -le $n ]; do SLURM_ARRAY_TASK_ID=$i sh "$script" || exit 1; i=$((i + 1)); done' >"$SD/bin/sbatch"
    chmod +x "$SD/bin/sbatch"
    PATH="$SD/bin:$PATH"
    how="emulated (no Slurm cluster could be started here: not root, or Slurm not installed)"
fi
echo "# slurm: $how"
M="$D/slurm-run"
"$SL" run $MATRIX --boots 2 --engine slurm --out "$M" >"$D/last.log" 2>&1
rc=$?
ok_if engines-slurm "--engine slurm ($how) exited $rc ($(verdicts "$M" 2>/dev/null))" sh -c "[ $rc = 0 ] && [ \"$(verdicts "$M")\" = 'ok=2 ' ]"
cp "$M/slurm.sbatch" "$D/last.log" 2>/dev/null
ok_if engines-slurm-script "the job array script is not one boot per task" \
    sh -c "grep -qx '#SBATCH --array=1-2' '$M/slurm.sbatch' && grep -q 'SLURM_ARRAY_TASK_ID' '$M/slurm.sbatch' && grep -q 'schedlab.* boot ' '$M/slurm.sbatch'"
slurm_down "$SD/cluster"

rm -rf "$D"
