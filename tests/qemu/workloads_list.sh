# bench=list: the kernel describes every workload and key, one line each
# (format in docs/workloads.md), and exits 0.  Checks:
#   - every line is a boot, workload, key, stackstat, schedstat or done line,
#     and each workload/key line parses completely;
#   - the kernel's and the runner's keys (watchdog, bench, runs, bind) are
#     there with workload=kernel; bench='s choices are exactly the listed
#     workloads plus all and list; every key belongs to a listed workload;
#   - numeric defaults lie within min..max, a choice's default is a choice;
#   - the same list on every scheduler;
#   - the printed defaults are the enforced ones: boots that leave keys out
#     print those keys in their result lines with exactly the listed value
#     (the suite's default under bench=all);
#   - bench=list with another key, or inside a list, is an error (so is all).
. "$(dirname "$0")/../lib.sh"
set -- $(make -s -C "$ROOT" list-scheds)
plan $((64 + $#))

LIST="$TMP/list.$$"
boot rr 1 'bench=list'
cp "$OUT" "$LIST"
check "list-exit0" [ "$RC" = 0 ]
expect "list-done" '^done: exit=0$'
expect_not "list-no-result" '^result '
WORD='[A-Za-z0-9_.,|:-]+'
KEY_RE="^key workload=[a-z0-9_]+ name=[a-z0-9_]+ type=(uint|uint_list|int_list|choice|choice_list|cpu_list) default=$WORD min=$WORD max=$WORD( choices=$WORD)?( suite_default=$WORD)?( max_values=[0-9]+)? help=\"[^\"]+\"\$"
bad_lines=$(grep -vE '^(boot: |workload |key |stackstat |schedstat |ticks: |done: )' "$LIST" | head -3)
RC=0 OUT=$LIST check "list-only-known-lines" [ -z "$bad_lines" ]
bad_keys=$(grep '^key ' "$LIST" | grep -vE "$KEY_RE" | head -3)
RC=0 OUT=$LIST check "list-key-lines-parse" [ -z "$bad_keys" ]
[ -z "$bad_keys" ] || printf '    %s\n' "$bad_keys"
bad_wl=$(grep '^workload ' "$LIST" | grep -vE '^workload name=[a-z0-9_]+ summary="[^"]+"$' | head -3)
RC=0 OUT=$LIST check "list-workload-lines-parse" [ -z "$bad_wl" ]

# lkey W K FIELD: FIELD of key K of workload W in the list
lkey() { proto_field "$3" --kind key --where "workload=$1" --where "name=$2" "$LIST" | head -1; }
workloads=$(proto_field name --kind workload "$LIST" | sort | tr '\n' ' ')
for k in watchdog bench runs bind; do
    RC=0 OUT=$LIST check "list-kernel-key-$k" [ -n "$(lkey kernel $k type)" ]
done
RC=0 OUT=$LIST check "list-watchdog" [ "$(lkey kernel watchdog type) $(lkey kernel watchdog default) $(lkey kernel watchdog min) $(lkey kernel watchdog max)" = "uint 30 0 86400" ]
choices=$(lkey kernel bench choices | tr '|' '\n' | grep -vxE 'all|list' | sort | tr '\n' ' ')
RC=0 OUT=$LIST check "list-bench-choices-are-the-workloads" [ "$choices" = "$workloads" ]
for w in hackbench maxgroups pipe lat_ctx tbench schedcost cpuhog wakeup pingpong fault boot deadlock; do
    RC=0 OUT=$LIST check "list-has-$w" sh -c "echo ' $workloads ' | grep -q ' $w '"
done
owners=$(proto_field workload --kind key "$LIST" | sort -u)
stray=""
for o in $owners; do
    case " kernel $workloads " in *" $o "*) ;; *) stray="$stray $o" ;; esac
done
RC=0 OUT=$LIST check "list-keys-belong-to-workloads" [ -z "$stray" ]

# Numeric defaults inside their range; a choice's default among its choices.
# (the key lines as the tools' parser splits them: TSV, a column a key)
tools_built
bad_ranges=$("$SCHEDLAB_BIN" parse "$LIST" --kind key --format tsv | awk -F'\t' '
    NR == 1 { for (i = 1; i <= NF; i++) col[i] = $i; next }
    { for (i = 1; i <= NF; i++) f[col[i]] = $i
    if (f["type"] == "uint") {
        for (d = 0; d < 2; d++) {
            v = d ? f["suite_default"] : f["default"]
            if (v == "" || v == "auto") continue
            if (v + 0 < f["min"] + 0 || v + 0 > f["max"] + 0) print f["workload"] "." f["name"] "=" v
        }
    }
    if (f["type"] == "choice" && index("|" f["choices"] "|", "|" f["default"] "|") == 0) print f["workload"] "." f["name"]
    delete f
}')
RC=0 OUT=$LIST check "list-defaults-in-range" [ -z "$bad_ranges" ]
[ -z "$bad_ranges" ] || echo "    out of range: $bad_ranges"
RC=0 OUT=$LIST check "list-hackbench-groups" [ "$(lkey hackbench groups type) $(lkey hackbench groups default) $(lkey hackbench groups suite_default)" = "uint_list 10 4" ]
RC=0 OUT=$LIST check "list-hackbench-ipc" [ "$(lkey hackbench ipc type) $(lkey hackbench ipc choices)" = "choice pipe|socket" ]
RC=0 OUT=$LIST check "list-cpuhog-nice" [ "$(lkey cpuhog nice type) $(lkey cpuhog nice min) $(lkey cpuhog nice max)" = "int_list -20 19" ]

# The same list from every scheduler's image.
grep -E '^(workload|key) ' "$LIST" >"$LIST.lines"
for sched in $(make -s -C "$ROOT" list-scheds); do
    boot "$sched" 1 'bench=list'
    grep -E '^(workload|key) ' "$OUT" >"$OUT.lines"
    check "list-same-on-$sched" cmp -s "$OUT.lines" "$LIST.lines"
done

# defaults_enforced TAG SUITE: every field of every result line that is a key
# of its workload and absent from the command line has the listed default.
defaults_enforced() {
    tag=$1 suite=$2 checked=0 wrong=""
    given=$(cat "$OUT.cmd" 2>/dev/null)
    # every result line's keys, one "bench key value" a line, as the tools' parser splits them
    "$SCHEDLAB_BIN" parse "$OUT" --kind result --format tsv | awk -F'\t' '
        NR == 1 { for (i = 1; i <= NF; i++) { col[i] = $i; if ($i == "bench") b = i }; next }
        { for (i = 6; i <= NF; i++) if ($i != "") print $b, col[i], $i }' >"$OUT.kv"
    while read -r w k v; do
        case " $given " in *" $k="*) continue ;; esac
        [ -n "$(lkey "$w" "$k" type)" ] || continue
        want=$(lkey "$w" "$k" default)
        [ "$suite" = suite ] && [ -n "$(lkey "$w" "$k" suite_default)" ] && want=$(lkey "$w" "$k" suite_default)
        [ "$want" = auto ] && continue
        checked=$((checked + 1))
        [ "$v" = "$want" ] || wrong="$wrong $w.$k=$v(listed $want)"
    done <"$OUT.kv"
    echo "# $tag: $checked fields of result lines compared with the listed defaults"
    check "$tag-defaults-checked" [ "$checked" -gt 0 ]
    check "$tag-defaults-as-listed" [ -z "$wrong" ]
    [ -z "$wrong" ] || echo "    $wrong"
}
enforced() {  # enforced TAG CMDLINE [suite]
    boot rr 1 "$2" 256 90
    printf '%s\n' "$2" >"$OUT.cmd"
    check "$1-exit0" [ "$RC" = 0 ]
    defaults_enforced "$1" "${3:-plain}"
}
enforced defaults-hackbench 'bench=hackbench'
enforced defaults-lat_ctx 'bench=lat_ctx'
enforced defaults-pipe 'bench=pipe loops=2000'
enforced defaults-tbench 'bench=tbench seconds=1'
enforced defaults-wakeup 'bench=wakeup seconds=1'
enforced defaults-cpuhog 'bench=cpuhog seconds=1'
enforced defaults-pingpong 'bench=pingpong'
enforced defaults-maxgroups-shared 'bench=maxgroups step=1 limit=1'
enforced defaults-suite '' suite
check "defaults-suite-four-workloads" [ "$(grep -c '^result ' "$OUT")" = 4 ]

# bench=list stands alone.
boot rr 1 'bench=list groups=2'
check "list-with-key-exit1" [ "$RC" = 1 ]
expect "list-with-key-message" '^error: groups=2: unknown key for this run'
# a near miss of a key: the key it is near (CMDLINE='group=20')
boot rr 1 'bench=hackbench group=20'
check "near-key-exit1" [ "$RC" = 1 ]
expect "near-key-message" '^error: group=20: unknown key for this run \(did you mean groups=\?\)'
boot rr 1 'bench=pipe,list'
check "list-in-list-exit1" [ "$RC" = 1 ]
expect "list-in-list-message" "^error: bench=pipe,list: list stands alone"
boot rr 1 'bench=all,pipe'
expect "all-in-list-message" "^error: bench=all,pipe: all stands alone"
