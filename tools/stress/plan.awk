# Draws the boots of a stress run (tools/stress.sh) from a seed.
#
# Input: the kernel's bench=list (docs/workloads.md) as the tools' parser
# splits it (schedlab parse LIST --format tsv: a column a key, the kind in
# column 3, keys from column 6; docs/protocol.md); everything about keys
# (type, default, range, choices, how many values) comes from there, so new
# keys and workloads are drawn without a change here.  What bench=list cannot
# say is written below, each with its reason: how large a size may be before a
# boot stops taking seconds (cap_of), and the limits that depend on another
# key, which the keys' help texts state (fix_dependent).
#
# Variables: seed (decimal digits), boots, scheds (space separated), smps.
# Output, one line per boot, fields separated by tabs:
#     INDEX  SCHED  SMP  MEM  INTENT  CMDLINE
# INTENT says what the boot is for and so which outcomes are explained
# (tools/stress/classify.awk):
#     run             sizes that finish in seconds: ok (or a clean oom)
#     oom             sized to exhaust memory on purpose, 32-64 MiB: a clean oom (or ok if it fits)
#     reject:KEY      one value that bench=list (or a help text) declares invalid:
#                     exit 1 with exactly one error: line, about KEY
#     caught:REGEX    hackbench's corrupt=/drop= test aid: status=error with a reason matching REGEX
#     panic           bench=fault: a panic
#     watchdog        bench=deadlock kind=wait: the watchdog fires (exit 3)
#     stall           bench=deadlock kind=spin: the spinlock stall check fires (exit 3)
#                     (both with watchdog=5..8, which bounds how long they take)
#
# Random numbers: Park-Miller "minimal standard" (x = 48271 x mod 2^31-1),
# all in integers below 2^53, so mawk, gawk and busybox awk draw the same
# boots (awk's own rand() differs between them).  Numbers are printed with
# %.0f: mawk's %d stops at 2^31-1.

function rnd() { state = (state * 48271) % 2147483647; return state }
# a * b mod 2^31-1 for a, b < 2^31, exact in doubles (a split in 16-bit halves)
function mulmod(a, b) { return ((int(a / 65536) * b % 2147483647) * 65536 + (a % 65536) * b) % 2147483647 }
function seed_state(s,    h, i) {
    h = 1
    for (i = 1; i <= length(s); i++)
        h = (mulmod(h + 7, h + 13) + substr(s, i, 1) * 1000003 + i) % 2147483647
    for (i = 0; i < 4; i++)
        h = mulmod(h + 17, h + 31)
    return h == 0 ? 1 : h
}
function rint(lo, hi,    n) {
    n = hi - lo + 1
    if (n <= 1) return lo
    if (n <= 2147483646) return lo + rnd() % n
    return lo + ((rnd() % 65536) * 65536 + rnd() % 65536) % n
}
function pct(p) { return rint(1, 100) <= p }
function num(x) { return sprintf("%.0f", x) }
function nbits(x,    n) { n = 0; while (x >= 1) { x = int(x / 2); n++ } return n }
function pow2(b,    p) { p = 1; while (b-- > 0) p *= 2; return p }
function min(a, b) { return a < b ? a : b }
function max(a, b) { return a > b ? a : b }
# log-uniform in lo..hi: every power of two as likely, so small sizes come up as often as large ones
function rlog(lo, hi,    b, a, c) {
    if (hi <= lo) return lo
    if (lo < 1) { if (pct(10)) return lo; lo = 1 }
    b = rint(nbits(lo), nbits(hi))
    a = max(lo, pow2(b - 1)); c = min(hi, pow2(b) - 1)
    return rint(a, c)
}
function pick(list,    a, n) { n = split(list, a, " "); return a[rint(1, n)] }

# ---- reading bench=list ----

BEGIN { FS = "\t" }
NR == 1 { for (i = 1; i <= NF; i++) col[i] = $i; next }
function parse_list_line(    i) {
    delete fld
    for (i = 6; i <= NF; i++)
        if ($i != "" && col[i] != "help") fld[col[i]] = $i
}
$3 == "workload" {
    parse_list_line()
    nwl++; wl[nwl] = fld["name"]; wkeys[fld["name"]] = ""
    next
}
$3 == "key" {
    parse_list_line()
    w = fld["workload"]; k = fld["name"]
    ktype[w, k] = fld["type"]; kdef[w, k] = fld["default"]
    # numbers as numbers: substr() gives strings, and awk compares two strings as text
    kmin[w, k] = fld["min"] ~ /^-?[0-9]+$/ ? fld["min"] + 0 : fld["min"]
    kmax[w, k] = fld["max"] ~ /^-?[0-9]+$/ ? fld["max"] + 0 : fld["max"]
    kchoices[w, k] = ("choices" in fld) ? fld["choices"] : ""
    kmaxv[w, k] = ("max_values" in fld) ? fld["max_values"] + 0 : 1
    wkeys[w] = wkeys[w] " " k
    allkeys[k] = 1
    next
}

# ---- what bench=list cannot say ----

# The largest value of a size key in an ordinary boot: sizes up to these finish
# in a few seconds even on 8 vCPUs sharing 2 host cores with goodness (whose
# every pick scans all runnable tasks: 50 hackbench groups on 4 vCPUs took
# minutes).  Measured: hackbench 8,8 groups x 100 loops x 3 runs 6 s; lat_ctx
# 64 procs x 64 KiB x 2000 loops 14 s (hence its own cost bound in fix_dependent);
# maxgroups to 100 groups 45 s (so 40 here).  A key not listed here never
# goes above its default or its minimum + 16 (a workload's defaults are sized to be run).
function cap_of(w, k,    c) {
    c = ""
    if (w == "hackbench") {
        if (k == "groups") c = 8; else if (k == "loops") c = 100; else if (k == "fds") c = 20
        else if (k == "datasize") c = 1024; else if (k == "pipe_size") c = 65536
    } else if (w == "maxgroups") {
        if (k == "step") c = 20; else if (k == "limit") c = 40; else if (k == "loops") c = 5
        else if (k == "fds") c = 10; else if (k == "datasize") c = 512; else if (k == "pipe_size") c = 16384
    } else if (w == "lat_ctx") {
        if (k == "procs") c = 64; else if (k == "size") c = 64; else if (k == "loops") c = 2000
        else if (k == "pipe_size") c = 65536; else if (k == "reps") c = 3   # lmbench's 11 cost 11 rings: the suite default
    } else if (w == "pipe") {
        if (k == "loops") c = 20000; else if (k == "pipe_size") c = 65536
    } else if (w == "schedcost") {
        if (k == "runnable") c = 2000; else if (k == "rounds") c = 4
    } else if (w == "cpuhog") {
        if (k == "tasks") c = 8; else if (k == "seconds") c = 2
    } else if (w == "wakeup") {
        if (k == "seconds") c = 2; else if (k == "workers") c = 16; else if (k == "hogs") c = 8
    } else if (w == "pingpong") {
        if (k == "pairs") c = 16; else if (k == "rounds") c = 2000; else if (k == "migrate") c = 1
    } else if (w == "tbench") {
        if (k == "clients") c = 16; else if (k == "seconds") c = 2; else if (k == "pipe_size") c = 65536
    } else if (w == "kernel") {
        if (k == "runs") c = 3
    }
    if (c == "") {   # not above the default, but a flag or a small count still varies
        c = kmin[w, k] ~ /^-?[0-9]+$/ ? kmin[w, k] + 16 : 16
        if (kdef[w, k] ~ /^[0-9]+$/) c = max(c, kdef[w, k] + 0)
    }
    c += 0
    if (kmax[w, k] ~ /^[0-9]+$/) c = min(c, kmax[w, k] + 0)
    return c
}

# The effective value of key k: given, else the default of its first owner
function eff(k) { return (k in val) ? val[k] : kdef[owner1[k], k] }
function has(k) { return k in owner1 }

# Limits that depend on another key, as the help texts state them:
# datasize at most pipe_size (hackbench, maxgroups), one nice level per task
# (cpuhog), limit at least step (maxgroups), corrupt/drop at most loops (never
# set here: only the caught intent sets them); and two cost bounds: lat_ctx's
# trips x tasks x working set x repetitions (reps at most 3: lmbench's 11
# at every ring size made one drawn boot, procs=2,16 size=4 runs=2, take
# 102 s), schedcost's rounds x runnable.
function fix_dependent(    ds, ps, t, n, s, lim, cost, sum, i, a, c, big) {
    if (has("datasize") && has("pipe_size") && (selected["hackbench"] || selected["maxgroups"])) {
        ps = eff("pipe_size") + 0
        if (eff("datasize") + 0 > ps) val["datasize"] = rint(8, min(ps, 1024))
    }
    if (selected["cpuhog"] && ("nice" in val)) {
        t = eff("tasks") + 0; s = ""
        for (i = 0; i < t; i++) s = s (i ? "," : "") num(rint(kmin["cpuhog", "nice"], kmax["cpuhog", "nice"]))
        val["nice"] = s
    }
    if (selected["maxgroups"] && has("limit") && has("step") && eff("limit") + 0 < eff("step") + 0)
        val["limit"] = rint(eff("step"), max(eff("step"), cap_of("maxgroups", "limit")))
    if (selected["lat_ctx"] && has("procs") && has("loops")) {
        # every ring size is timed reps times (and its overhead as often): an
        # absent reps is lmbench's 11, so it is drawn within its cap here
        if (has("reps") && eff("reps") + 0 > cap_of("lat_ctx", "reps")) val["reps"] = rint(1, cap_of("lat_ctx", "reps"))
        n = split(eff("procs"), a, ","); sum = 0
        for (i = 1; i <= n; i++) sum += a[i]
        cost = sum * (1 + int(eff("size") / 4))          # one trip, in 4 KiB sums
        if (has("reps")) cost *= eff("reps")            # the 14 s above: one repetition
        c = max(1, min(cap_of("lat_ctx", "loops"), int(300000 / cost)))
        if (eff("loops") + 0 > c) val["loops"] = rlog(1, c)
    }
    if (selected["schedcost"] && ("rounds" in val)) {
        n = split(eff("runnable"), a, ","); big = 1
        for (i = 1; i <= n; i++) big = max(big, a[i])
        if (val["rounds"] * big > 4000) val["rounds"] = max(1, int(4000 / big))
    }
}

# ---- drawing values ----

function cpu_list(smp,    i, s, runs, mask, first, last, c) {
    if (pct(15)) return "0-" num(smp - 1)
    if (pct(20)) return num(rint(0, smp - 1))
    do {
        s = ""; mask = 0
        for (i = 0; i < smp; i++) if (pct(50)) { on[i] = 1; mask++ } else on[i] = 0
    } while (mask == 0)
    compress = pct(50)
    for (i = 0; i < smp; i++) {
        if (!on[i]) continue
        first = i
        while (compress && i + 1 < smp && on[i + 1]) i++
        s = s (s == "" ? "" : ",") (i > first ? num(first) "-" num(i) : num(first))
    }
    return s
}

# A valid value of key k (owned by w) within cap; the ranges of every selected owner hold.
function draw(w, k, lo, hi, smp,    t, n, i, s, ch, c) {
    t = ktype[w, k]
    if (t == "uint") {
        if (pct(15)) return num(lo)
        if (kdef[w, k] ~ /^[0-9]+$/ && kdef[w, k] + 0 <= hi && kdef[w, k] + 0 >= lo && pct(15)) return kdef[w, k]
        return num(rlog(lo, hi))
    }
    if (t == "uint_list" || t == "int_list") {
        n = pct(60) ? 1 : rint(2, min(3, kmaxv[w, k]))
        s = ""
        for (i = 0; i < n; i++) s = s (i ? "," : "") num(t == "uint_list" ? rlog(lo, hi) : rint(lo, hi))
        return s
    }
    if (t == "choice") { n = split(kchoices[w, k], ch, "|"); return ch[rint(1, n)] }
    if (t == "cpu_list") return cpu_list(smp)
    return ""
}

# Every key of the selected workloads: its owners' common range, and whether to give it.
function draw_keys(smp,    i, w, nk, ks, j, k, lo, hi, c, must, o, no, os, dv, d, ki) {
    for (i = 1; i <= nsel; i++) {
        w = sel[i]; nk = split(wkeys[w], ks, " ")
        for (j = 1; j <= nk; j++) {
            k = ks[j]
            if (k in owner1) { owners[k] = owners[k] " " w; continue }
            owner1[k] = w; owners[k] = w
        }
    }
    for (ki = 1; ki <= nkorder; ki++) {
        k = korder[ki]
        if (!(k in owner1)) continue
        w = owner1[k]
        if (k == "corrupt" || k == "drop" || k == "kind") continue    # test aids and self-tests: intents only
        lo = kmin[w, k]; hi = kmax[w, k]; must = 0
        no = split(owners[k], os, " ")
        if (ktype[w, k] == "uint" || ktype[w, k] == "uint_list" || ktype[w, k] == "int_list") {
            lo += 0; hi += 0; c = cap_of(w, k)
            for (j = 1; j <= no; j++) {
                o = os[j]
                if (ktype[o, k] != ktype[w, k]) { lo = 1; hi = 0; break }   # same name, other type: leave it alone
                lo = max(lo, kmin[o, k]); c = min(c, cap_of(o, k))
                hi = min(hi, kmax[o, k])
                if (split(kdef[o, k], dv, ",") && (kdef[o, k] ~ /^[0-9,]+$/)) for (d in dv) if (dv[d] + 0 > cap_of(o, k)) must = 1
            }
            hi = min(hi, max(c, lo))
            if (lo > hi) continue
        }
        if (ktype[w, k] == "uint" && kdef[w, k] == "auto" && !pct(40)) continue
        if (ktype[w, k] == "int_list" && !pct(40)) continue
        if (!must && !pct(60)) continue
        val[k] = draw(w, k, lo, hi, smp)
        if (val[k] == "") delete val[k]
    }
}

function select_workloads(n,    i, w, pool, tries) {
    nsel = 0
    while (nsel < n && tries++ < 50) {
        w = pick(runnable_pool)
        if (selected[w]) continue
        selected[w] = 1; sel[++nsel] = w
    }
}

function reset_boot() {
    delete val; delete owner1; delete owners; delete selected; delete sel; nsel = 0
    extra = ""
}

function words(    i, k, s) {
    s = "bench=" benchlist
    for (i = 1; i <= nkorder; i++) { k = korder[i]; if (k in val) s = s " " k "=" val[k] }
    return s extra
}

# Keys in a fixed order (the order bench=list gives), so that the same seed prints the same words.
function order_keys(    i, w, nk, ks, j) {
    nkorder = 0
    split("", korder_seen)
    for (i = 0; i <= nwl; i++) {
        w = i == 0 ? "kernel" : wl[i]
        nk = split(wkeys[w], ks, " ")
        for (j = 1; j <= nk; j++) if (!(ks[j] in korder_seen)) { korder_seen[ks[j]] = 1; korder[++nkorder] = ks[j] }
    }
}

# ---- intents ----

function kernel_keys(smp) {
    if (("runs" in allkeys) && pct(45)) val["runs"] = num(pct(55) ? 2 : 3)
    if (("bind" in allkeys) && smp > 1 && pct(25)) val["bind"] = cpu_list(smp)
}

function plan_run(smp,    n) {
    if (pct(3)) { benchlist = "all"; kernel_keys(smp); return "run" }
    n = pct(75) ? 1 : (pct(80) ? 2 : 3)
    select_workloads(n)
    benchlist = ""
    for (i = 1; i <= nsel; i++) benchlist = benchlist (i > 1 ? "," : "") sel[i]
    draw_keys(smp)
    kernel_keys(smp)
    fix_dependent()
    return "run"
}

# Memory runs out either through many tasks (hackbench groups, schedcost's runnable
# tasks, tbench clients: reason=task_create) or through few large allocations (1 MiB
# pipe rings, lat_ctx's 64 KiB working sets, maxgroups with large pipes).  Many-task
# boots get 32-40 MiB, room for at most about 7,000 tasks: goodness and mq scan every
# runnable task on each pick, and 13,000 at 64 MiB took mq over 180 s on one CPU.
function plan_oom(smp,    c, many) {
    mem = rint(32, 64)
    c = pick(oom_pool)
    reset_boot(); selected[c] = 1; sel[1] = c; nsel = 1; benchlist = c
    many = 0
    if (c == "hackbench") {
        val["fds"] = 20; val["loops"] = rint(1, 3)
        if (pct(50)) { val["groups"] = rint(150, 1500); many = 1 }
        else { val["groups"] = rint(2, 8); val["pipe_size"] = rint(262144, 1048576); val["datasize"] = rint(8, 1024) }
    } else if (c == "lat_ctx") {
        val["procs"] = rint(1000, 10000); val["size"] = rint(32, 64); val["loops"] = rint(1, 2)
    } else if (c == "schedcost") {
        val["runnable"] = rint(20000, 50000); many = 1
    } else if (c == "tbench") {
        val["clients"] = rint(2000, 10000); val["seconds"] = 1; many = 1
    } else if (c == "maxgroups") {
        val["pipe_size"] = rint(32768, 131072); val["step"] = rint(5, 10); val["limit"] = rint(60, 100)
        val["fds"] = rint(10, 20); val["loops"] = rint(1, 2)
    }
    if (many) mem = 32 + (mem - 32) % 9            # folded, not drawn again: the other boots of a seed stay as they were
    if (pct(30)) val["runs"] = 2
    return "oom"
}

function plan_caught(smp,    k, loops) {
    reset_boot(); selected["hackbench"] = 1; sel[1] = "hackbench"; nsel = 1; benchlist = "hackbench"
    draw_keys(smp); kernel_keys(smp); fix_dependent()
    loops = eff("loops") + 0
    if (pct(50)) { val["corrupt"] = num(rint(1, loops)); return "caught:^corrupt_message$" }
    val["drop"] = num(rint(1, loops))
    return "caught:^(lost_message|message_out_of_sequence)$"
}

function plan_selftest(smp,    n, ch) {
    reset_boot()
    if (("fault" in wlset) && pct(50)) {
        benchlist = "fault"; n = split(kchoices["fault", "kind"], ch, "|"); val["kind"] = ch[rint(1, n)]
        return "panic"
    }
    # 5 s at least: the watchdog runs on guest time, and a loaded host can starve a
    # vCPU for a second (8 vCPUs, watchdog=1: reports during boot, or a CPU that had
    # not yet run the task queued for it)
    benchlist = "deadlock"; val["watchdog"] = rint(5, 8)
    if (smp > 1 && pct(50)) { val["kind"] = "spin"; return "stall" }
    val["kind"] = "wait"
    return "watchdog"
}

# One value of k (owned by w) that its declared type or range refuses.
function bad_value(w, k, smp,    t, lo, hi, o, n, ch, c, i, s, mv) {
    t = ktype[w, k]; lo = kmin[w, k] + 0; hi = kmax[w, k] + 0
    if (t == "uint") {
        o = rint(1, 9)
        if (o <= 3 && hi < 4294967295) return num(rint(hi + 1, min(4294967295, hi + 1000)))
        if (o <= 4 && lo > 0) return num(rint(0, lo - 1))
        return pick("4294967296 99999999999 -1 +1 1x x 0x10 1,2 1.5")
    }
    if (t == "uint_list" || t == "int_list") {
        o = rint(1, 8); mv = kmaxv[w, k]
        if (o <= 2 && hi < 2147483647) return num(lo) "," num(hi + rint(1, 1000))
        if (o <= 3 && (t == "int_list" || lo > 0)) return num(lo - rint(1, min(1000, t == "int_list" ? 1000 : lo)))
        if (o <= 4) { s = num(lo); for (i = 0; i < mv; i++) s = s "," num(lo); return s }
        return pick("1,,2 1, ,1 x 1;2 --1")
    }
    if (t == "choice") {
        n = split(kchoices[w, k], ch, "|"); c = ch[rint(1, n)]
        o = rint(1, 3)
        if (o == 1) return toupper(c)
        if (o == 2 && length(c) > 1) return substr(c, 1, length(c) - 1)
        return c "x"
    }
    if (t == "cpu_list") {
        o = rint(1, 4)
        if (o == 1) return num(smp)
        if (o == 2) return "0-" num(smp)
        if (o == 3 && smp > 1) return "1-0"
        return pick("0, ,0 0-  x 0,,1 32")
    }
    if (t == "choice_list") return pick("nosuchbench pipe, ,pipe pipe,,tbench list,pipe all,pipe pipe,all")
    return ""
}

function plan_reject(smp,    r, cand, n, c, k, w, v, i, a, others, ki) {
    plan_run(smp)
    if (benchlist == "all") { benchlist = "pipe"; delete val; val["loops"] = 100 }
    # candidates: every key given or giveable here, and the word and cross-key errors
    n = 0
    for (ki = 1; ki <= nkorder; ki++) {
        k = korder[ki]
        if ((k in owner1) && k != "corrupt" && k != "drop" && k != "kind") cand[++n] = owner1[k] SUBSEP k
        else if (("kernel", k) in ktype) cand[++n] = "kernel" SUBSEP k
    }
    if (selected["hackbench"] || selected["maxgroups"]) cand[++n] = "x" SUBSEP "datasize>pipe_size"
    if (selected["hackbench"]) cand[++n] = "x" SUBSEP "corrupt>loops"
    if (selected["cpuhog"]) cand[++n] = "x" SUBSEP "nice-count"
    if (selected["maxgroups"]) cand[++n] = "x" SUBSEP "limit<step"
    cand[++n] = "x" SUBSEP "unknown-key"; cand[++n] = "x" SUBSEP "no-equals"
    cand[++n] = "x" SUBSEP "twice"; cand[++n] = "x" SUBSEP "empty-value"
    split(cand[rint(1, n)], a, SUBSEP); w = a[1]; k = a[2]
    if (w != "x") {
        v = bad_value(w, k, smp)
        if (k == "bench") benchlist = v; else val[k] = v
        return "reject:" k
    }
    if (k == "datasize>pipe_size") { val["pipe_size"] = rint(16, 4096); val["datasize"] = val["pipe_size"] + rint(1, 100); return "reject:datasize" }
    if (k == "corrupt>loops") { val["corrupt"] = num(eff("loops") + rint(1, 100)); return "reject:corrupt" }
    if (k == "nice-count") {
        val["tasks"] = rint(1, 8); c = val["tasks"] + (pct(50) ? 1 : -1); if (c < 1) c = 2
        v = ""; for (i = 0; i < c; i++) v = v (i ? "," : "") "0"
        val["nice"] = v; return "reject:nice"
    }
    if (k == "limit<step") { val["step"] = rint(2, 20); val["limit"] = rint(1, val["step"] - 1); return "reject:limit" }
    if (k == "unknown-key") {
        others = ""
        for (ki = 1; ki <= nkorder; ki++) {
            c = korder[ki]
            if (!(c in owner1) && !(("kernel", c) in ktype)) others = others " " c
        }
        k = others == "" ? "stress_no_such_key" : pick(others)
        extra = " " k "=1"; return "reject:" k
    }
    if (k == "no-equals") { extra = " stressword"; return "reject:stressword" }
    if (k == "empty-value") { k = pick("runs bind watchdog"); delete val[k]; extra = " " k "="; return "reject:" k }
    # twice: a key already given, or runs
    k = "runs"
    for (ki = 1; ki <= nkorder; ki++) if (korder[ki] in val) { k = korder[ki]; break }
    extra = " " k "=" (k in val ? val[k] : "1")
    if (!(k in val)) val[k] = 1
    return "reject:" k
}

END {
    if (nwl == 0) { print "plan.awk: no workload lines in the bench=list input" > "/dev/stderr"; exit 1 }
    state = seed_state(seed "")
    for (i = 1; i <= nwl; i++) wlset[wl[i]] = 1
    # Workloads for ordinary boots: all but the self-tests that must fail (their own
    # intents) and lockrace, which needs --accel vsmp (these boots are TCG's; it is
    # refused there, tests/qemu/vsmp.sh checks both); hackbench and pingpong
    # (migrate=1) twice as often.
    runnable_pool = ""
    for (i = 1; i <= nwl; i++) {
        w = wl[i]
        if (w == "fault" || w == "deadlock" || w == "lockrace") continue
        runnable_pool = runnable_pool " " w
        if (w == "hackbench" || w == "pingpong") runnable_pool = runnable_pool " " w
    }
    oom_pool = ""
    split("hackbench lat_ctx schedcost tbench maxgroups", op, " ")
    for (i = 1; i in op; i++) if (op[i] in wlset) oom_pool = oom_pool " " op[i]
    order_keys()
    for (b = 1; b <= boots; b++) {
        reset_boot()
        sched = pick(scheds); smp = pick(smps); mem = rint(32, 256)
        r = rint(1, 100)
        if (r <= 2 && (("deadlock" in wlset) || ("fault" in wlset))) intent = plan_selftest(smp)
        else if (r <= 4 && ("hackbench" in wlset)) intent = plan_caught(smp)
        else if (r <= 12 && oom_pool != "") intent = plan_oom(smp)
        else if (r <= 20) intent = plan_reject(smp)
        else intent = plan_run(smp)
        printf "%04d\t%s\t%s\t%s\t%s\t%s\n", b, sched, smp, mem, intent, words()
    }
}
