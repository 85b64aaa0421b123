# Classifies one stress boot (tools/stress.sh): its serial log, exit status
# and what the boot was drawn for (INTENT, see tools/stress/plan.awk).
#
#   schedlab parse LOG --format tsv | awk -f classify.awk
#       with STRESS_RC, STRESS_INTENT, STRESS_SMP, STRESS_CMDLINE, STRESS_TIMEOUT
#       and STRESS_LAST (the log's last line) in the environment
# (the log's lines as the tools' parser splits them, docs/protocol.md: a
# column a key, the kind in column 3, the text after it in column 5)
#
# Prints one line, tab-separated:  CLASS  VERDICT  REASON
#   CLASS    ok | oom | error | panic | watchdog | hang | other   (from the exit status:
#            tools/qemu-run.sh's 0, 4, 1, 2, 3, 124; 5, 6 and anything else are other)
#   VERDICT  explained | FAILURE
#   REASON   one line: why it is explained, or what went wrong
#
# Explained: ok with every result line ok; a clean oom (exit 4, status=oom
# lines, no status=error); the exact rejection a reject: boot asked for (exit 1,
# exactly one error: line, about that key, nothing run); the caught corruption,
# panic, watchdog or stall that the self-test boots ask for.  Everything else
# is a failure: a panic, hang, watchdog or stall of a workload that should
# finish, a status=error of an integrity check, exit 5 or 6, an error: line for
# a value that bench=list declares valid, an invalid value accepted, fewer CPUs
# online than asked for, a task outside bind=, a watchdog or stall report
# before the boot line (during SMP bring-up, where no workload runs yet).

function hexval(s,    i, c, v) {
    sub(/^0x/, "", s); v = 0
    for (i = 1; i <= length(s); i++) {
        c = index("0123456789abcdef", tolower(substr(s, i, 1)))
        if (c == 0) return -1
        v = v * 16 + c - 1
    }
    return v
}
# bind= of the command line as a mask (0: none given)
function bind_mask(cmd,    n, w, i, v, parts, np, j, ab, lo, hi, m, c) {
    n = split(cmd, w, " "); m = 0
    for (i = 1; i <= n; i++) {
        if (w[i] !~ /^bind=/) continue
        v = substr(w[i], 6); np = split(v, parts, ",")
        for (j = 1; j <= np; j++) {
            if (split(parts[j], ab, "-") == 2) { lo = ab[1] + 0; hi = ab[2] + 0 } else lo = hi = parts[j] + 0
            for (c = lo; c <= hi; c++) m = or_bit(m, c)
        }
    }
    return m
}
function or_bit(m, c,    p) { p = 2 ^ c; return int(m / p) % 2 ? m : m + p }
# true when every bit of a is in b (awk has no bit operations)
function subset(a, b,    i, p) {
    for (i = 31; i >= 0; i--) {
        p = 2 ^ i
        if (a >= p) { if (int(b / p) % 2 == 0) return 0; a -= p }
        if (b >= p) b -= p
    }
    return 1
}
# the key an error: line is about: "error: K=V: why", "error: K: why", "error: 'W': expected key=value"
function error_key(line,    s) {
    s = substr(line, 8)
    if (substr(s, 1, 1) == "'") { s = substr(s, 2); return substr(s, 1, index(s, "'") - 1) }
    if (match(s, /[=:]/)) return substr(s, 1, RSTART - 1)
    return s
}
function short(s) { gsub(/\t/, " ", s); return length(s) > 160 ? substr(s, 1, 157) "..." : s }
function out(class, verdict, reason) { printf "%s\t%s\t%s\n", class, verdict, short(reason); done = 1; exit 0 }

# f(KEY): the line's value of KEY ("" when it has none)
function f(k) { return (k in col) ? $col[k] : "" }
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
{ kind = $3; line = kind " " $5 }
kind == "error:" { nerr++; if (nerr == 1) first_err = line }
kind == "panic:" { npanic++; if (npanic == 1) first_panic = line }
kind == "watchdog:" { nwatchdog++; if (nwatchdog == 1) first_watchdog = line; if (!booted) early_report = line }
kind == "stall:" { nstall++; if (nstall == 1) first_stall = line; if (!booted) early_report = line }
kind == "boot:" { booted = 1; boot_cpus = f("cpus") + 0 }
kind == "done:" { done_code = f("exit") }
f("status") == "oom" { noom++ }
kind == "result" {
    nresult++; st = f("status"); rs = f("reason"); used = f("cpus_used")
    if (st == "ok") nok++
    else if (st == "error") { nbad++; if (bad_reason == "") { bad_reason = rs; bad_line = line } }
    else if (st != "oom") { nodd++; odd_line = line }
    if (used != "" && bind != 0 && !subset(hexval(used), bind)) outside = outside " bench=" f("bench") " cpus_used=" used
}

BEGIN {
    FS = "\t"; last = ENVIRON["STRESS_LAST"]
    rc = ENVIRON["STRESS_RC"] + 0; intent = ENVIRON["STRESS_INTENT"]; smp = ENVIRON["STRESS_SMP"] + 0
    cmd = ENVIRON["STRESS_CMDLINE"]; timeout = ENVIRON["STRESS_TIMEOUT"]
    bind = bind_mask(cmd)
    class = rc == 0 ? "ok" : rc == 1 ? "error" : rc == 2 ? "panic" : rc == 3 ? "watchdog" : rc == 4 ? "oom" : \
            rc == 124 ? "hang" : "other"
}

END {
    if (done) exit 0
    # What went wrong, whatever the intent: the reason a failure of this class gives.
    if (rc == 124) why = "hang: no exit within " timeout " s, and the kernel's watchdog saw progress (too slow, or a livelock); last line: " last
    else if (rc == 2) why = "panic: " (first_panic != "" ? first_panic : "exit 2 without a panic: line")
    else if (rc == 3) why = (first_stall != "" ? first_stall : first_watchdog != "" ? first_watchdog : "exit 3 without a watchdog:/stall: line")
    else if (rc == 5) why = "the guest stopped without an exit code (triple fault or reset); last line: " last
    else if (rc == 6) why = "QEMU failed (see the .err file)"
    else if (rc == 1 && nerr) why = "rejected a value bench=list declares valid: " first_err
    else if (rc == 1 && nbad) why = "integrity check failed: status=error reason=" bad_reason
    else if (rc == 1) why = "exit 1 without an error: line or a status=error result"
    else if (rc == 4 && !noom) why = "exit 4 without a status=oom line"
    else if (rc == 4 && nbad) why = "exit 4, and a status=error result: reason=" bad_reason
    else if (rc != 0 && rc != 4) why = "exit status " rc
    else why = ""

    if (boot_cpus && boot_cpus != smp) out(class, "FAILURE", "only " boot_cpus " of " smp " CPUs came online")
    if (npanic && rc != 2) out(class, "FAILURE", "a panic: line, yet exit " rc ": " first_panic)
    # before the boot line no workload has run: never the report a self-test asks for
    if (early_report != "") out(class, "FAILURE", "during boot (before the boot: line): " early_report)

    if (intent ~ /^reject:/) {
        key = substr(intent, 8)
        if (rc == 1 && nerr == 1 && error_key(first_err) == key && nresult == 0)
            out(class, "explained", "rejected as it should: " first_err)
        if (rc == 1 && nerr == 1 && error_key(first_err) != key)
            out(class, "FAILURE", "expected an error about " key ", got: " first_err)
        if (rc == 1 && nerr > 1) out(class, "FAILURE", nerr " error: lines for one bad value; first: " first_err)
        if (rc == 1 && nerr == 1) out(class, "FAILURE", "rejected " key " only after running: " first_err)
        if (why == "") why = "accepted an invalid value of " key " (exit " rc ")"
        out(class, "FAILURE", why)
    }
    if (intent ~ /^caught:/) {
        want = substr(intent, 8)
        if (rc == 1 && nbad && bad_reason ~ want && !nerr) out(class, "explained", "test aid caught: reason=" bad_reason)
        if (rc == 1 && nbad) why = "status=error with reason=" bad_reason ", expected /" want "/"
        if (why == "") why = "the corrupted or dropped message was not caught (exit " rc ")"
        out(class, "FAILURE", why)
    }
    if (intent == "panic") {
        if (rc == 2 && npanic) out(class, "explained", "bench=fault panicked as it must: " first_panic)
        out(class, "FAILURE", why == "" ? "bench=fault did not panic (exit " rc ")" : why)
    }
    if (intent == "watchdog" || intent == "stall") {
        if (rc == 3 && intent == "watchdog" && nwatchdog) out(class, "explained", "the watchdog fired as it must: " first_watchdog)
        if (rc == 3 && intent == "stall" && nstall) out(class, "explained", "the stall check fired as it must: " first_stall)
        out(class, "FAILURE", why == "" ? "bench=deadlock ended with exit " rc ", not the " intent " report" : why)
    }

    # run and oom: an ordinary boot
    if (rc == 0) {
        if (nerr) out(class, "FAILURE", "exit 0 after an error: line: " first_err)
        if (nbad || nodd) out(class, "FAILURE", "exit 0 with a result that is not ok: " (nbad ? bad_line : odd_line))
        if (done_code != "0") out(class, "FAILURE", "exit 0 without a done: exit=0 line; last line: " last)
        if (outside != "") out(class, "FAILURE", "tasks ran outside bind=:" outside)
        out(class, "explained", nresult " result(s) ok")
    }
    if (rc == 4 && why == "") out(class, "explained", "clean oom: " noom " status=oom line(s)")
    out(class, "FAILURE", why)
}
