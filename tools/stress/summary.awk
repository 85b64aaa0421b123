# The summary of a stress run (tools/stress.sh): counts per class and per
# scheduler, what the boots drawn on purpose did, and every failure with the
# command that reproduces it.  Exit status 1 when a boot failed or never ran.
#
#   awk -f summary.awk -v seed=S -v jobs=J -v timeout=T -v out=DIR -v clock=strict|note plan.txt RESULTS
# plan.txt: INDEX SCHED SMP MEM INTENT CMDLINE (tools/stress/plan.awk);
# RESULTS:  INDEX SCHED SMP MEM INTENT RC WALL TSC_KHZ CLASS VERDICT REASON (tools/stress.sh), tab-separated.
#
# The clock check: under TCG a guest's TSC runs at the host's rate, so every
# boot of a run must calibrate about the same tsc_khz.  A boot more than 25 %
# off the run's median (at least 5 boots) timed everything it printed wrong
# (its watchdog too), even when it ended ok: with clock=strict it is a failure.
# Found by the first long run: the PIT calibration (kernel/time.c) loses
# counter wraps when the host pauses the vCPU (docs/testing.md).
BEGIN {
    FS = "\t"
    nclasses = split("ok oom error panic watchdog hang other", classes, " ")
}
FILENAME == ARGV[1] {
    nplan++; idx[nplan] = $1; sched[$1] = $2; smp[$1] = $3; mem[$1] = $4; intent[$1] = $5; cmd[$1] = $6
    if (!($2 in seen_sched)) { seen_sched[$2] = 1; nsched++; scheds[nsched] = $2 }
    next
}
NF >= 11 {
    i = $1; ran[i] = 1; rc[i] = $6; wall[i] = $7; tsc[i] = $8; class[i] = $9; verdict[i] = $10; reason[i] = $11
    if ($8 ~ /^[0-9]+$/ && $8 > 0) tscs[++ntsc] = $8 + 0
}
function kind(s) { sub(/:.*/, "", s); return s }
function pad(s, n) { while (length(s) < n) s = s " "; return s }
function rpad(s, n) { s = s ""; while (length(s) < n) s = " " s; return s }
function clock_check(    a, b, x, mid, n, i, r) {
    if (ntsc < 5) return
    for (a = 2; a <= ntsc; a++)
        for (b = a; b > 1 && tscs[b - 1] > tscs[b]; b--) { x = tscs[b]; tscs[b] = tscs[b - 1]; tscs[b - 1] = x }
    median = tscs[int((ntsc + 1) / 2)]
    for (n = 1; n <= nplan; n++) {
        i = idx[n]
        if (!(i in ran) || tsc[i] !~ /^[0-9]+$/) continue
        r = tsc[i] / median
        if (r <= 1.25 && r >= 0.8) continue
        nclock++; clock_list = clock_list sprintf(" #%s(%.1fx)", i, r)
        note = sprintf("clock calibrated %.1fx the run's median (tsc_khz=%s, median %s)", r, tsc[i], median)
        if (verdict[i] == "explained" && clock == "strict") { verdict[i] = "FAILURE"; reason[i] = note }
        else if (verdict[i] != "explained") reason[i] = reason[i] "; " note
    }
}
END {
    clock_check()
    for (n = 1; n <= nplan; n++) {
        i = idx[n]
        if (!(i in ran)) { missing++; continue }
        c = class[i]; total[c]++; per[sched[i], c]++; sboots[sched[i]]++; wall_sum += wall[i]
        if (verdict[i] == "explained") expl[c]++
        else { fails[c]++; sfail[sched[i]]++; nfail++; failed[nfail] = i }
        k = kind(intent[i]); ik[k]++; ikc[k, c]++
        if (verdict[i] == "explained") ike[k]++
        ran_n++
    }
    printf "stress: seed %s, %d boots planned, %d ran, %d at a time, timeout %s s, %d s of boots in all\n", \
        seed, nplan, ran_n, jobs, timeout, wall_sum
    printf "\n%s %s %s %s\n", pad("class", 10), rpad("boots", 6), rpad("explained", 10), rpad("failures", 9)
    for (j = 1; j <= nclasses; j++) {
        c = classes[j]
        printf "%s %s %s %s\n", pad(c, 10), rpad(total[c] + 0, 6), rpad(expl[c] + 0, 10), rpad(fails[c] + 0, 9)
    }
    printf "%s %s %s %s\n", pad("total", 10), rpad(ran_n + 0, 6), rpad(ran_n - nfail, 10), rpad(nfail + 0, 9)

    printf "\ndrawn for       boots  explained  outcomes\n"
    nk = split("run oom reject caught panic watchdog stall", kinds, " ")
    for (j = 1; j <= nk; j++) {
        k = kinds[j]
        if (!ik[k]) continue
        o = ""
        for (m = 1; m <= nclasses; m++) if (ikc[k, classes[m]]) o = o " " classes[m] "=" ikc[k, classes[m]]
        printf "%s %s %s %s\n", pad(k, 14), rpad(ik[k], 6), rpad(ike[k] + 0, 10), o
    }

    if (median) {
        printf "\nclock: median tsc_khz=%s over %d boots; %d boot(s) more than 25 %% off%s%s\n", median, ntsc, nclock, \
            nclock ? ":" : "", clock_list
        if (nclock) printf "clock: %s (kernel/time.c loses PIT wraps when the host pauses a vCPU; docs/testing.md)\n", \
            clock == "strict" ? "counted as failures" : "listed only (--clock note)"
    }
    for (s = 2; s <= nsched; s++)             # by name
        for (t = s; t > 1 && scheds[t - 1] > scheds[t]; t--) { x = scheds[t]; scheds[t] = scheds[t - 1]; scheds[t - 1] = x }
    printf "\n%s %s", pad("scheduler", 10), rpad("boots", 6)
    for (j = 1; j <= nclasses; j++) printf " %s", rpad(classes[j], 8)
    printf " %s\n", rpad("failures", 9)
    for (s = 1; s <= nsched; s++) {
        name = scheds[s]
        printf "%s %s", pad(name, 10), rpad(sboots[name] + 0, 6)
        for (j = 1; j <= nclasses; j++) printf " %s", rpad(per[name, classes[j]] + 0, 8)
        printf " %s\n", rpad(sfail[name] + 0, 9)
    }

    if (nfail) printf "\nfailures (%d):\n", nfail
    for (f = 1; f <= nfail; f++) {
        i = failed[f]
        printf "#%s %s (%s, smp=%s, mem=%s, drawn for %s, exit %s): %s\n", i, class[i], sched[i], smp[i], mem[i], \
            intent[i], rc[i], reason[i]
        printf "    tools/qemu-run.sh --kernel build/%s/kernel.elf --smp %s --mem %s --accel tcg --timeout %s --cmdline '%s'\n", \
            sched[i], smp[i], mem[i], timeout, cmd[i]
        printf "    log: %s/logs/%s.log (image: %s/kernels/%s.elf)\n", out, i, out, sched[i]
    }
    if (missing) printf "\n%d planned boot(s) did not run (interrupted?)\n", missing
    if (nfail || missing) { printf "\nstress: FAILED: %d of %d boots failed%s\n", nfail, nplan, missing ? ", " missing " did not run" : ""; exit 1 }
    printf "\nstress: ok: all %d boots explained\n", nplan
}
