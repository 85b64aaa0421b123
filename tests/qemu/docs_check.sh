#!/bin/sh
# make docs-check inside the suite: every deterministic figure of README.md
# and docs/*.md re-made by the command beside it (tools/docs-check.sh; the
# run blocks marked long only in make test-long), and the checker itself:
# a changed figure in a copy of a page makes it fail and names the line,
# --update writes the figure back, a malformed marker is an error, host
# samples are listed as not checked.
. "$(dirname "$0")/../lib.sh"
cd "$ROOT" || exit 1
DC="$TMP/docs-check"
mkdir -p "$DC"
RC=0 OUT="$DC/report"
# ck NAME 'CONDITION' [DETAIL]: ok when the shell condition holds
ck() {
    if eval "$2"; then pass "$1${3:+ ($3)}"; else fail "$1" "$2 was false${3:+ ($3)}"; tail -5 "$OUT" | sed 's/^/    | /'; fi
}
QUICK=--quick
[ "${TEST_LONG:-0}" = 1 ] && QUICK=
long_only "docs-check's run blocks marked long (the lessons' larger runs)"

tools/docs-check.sh $QUICK --cache "$DC/cache" >"$DC/report" 2>"$DC/err"
rc=$?
# the plan: a check per page with figures, and the 14 of the checker itself
pages=$(awk '$1 == "ok" || $1 == "DIFF" { sub(/:.*/, "", $2); print $2 }' "$DC/report" | sort -u)
plan $(($(printf '%s\n' $pages | grep -c .) + 14))
last=$(tail -1 "$DC/report")
checked=$(echo "$last" | sed -n 's/^\([0-9]*\) figures checked, \([0-9]*\) differ$/\1/p')
differ=$(echo "$last" | sed -n 's/^\([0-9]*\) figures checked, \([0-9]*\) differ$/\2/p')
ck docs-check-runs '[ "$rc" -le 1 ] && [ -n "$checked" ]' "exit $rc: $last"
[ "$rc" -gt 1 ] && sed 's/^/    ! /' "$DC/err" | tail -5
# One check per page: its figures all agree with their commands.
for f in $pages; do
    n=$(grep -c "^\(ok\|DIFF\) $f:" "$DC/report")
    skip=$(grep -c "^skip $f:" "$DC/report")
    bad=$(grep -c "^DIFF $f:" "$DC/report")
    if [ "$bad" = 0 ]; then pass "docs-check-$f ($n figures; $skip more in make test-long)"; else
        fail "docs-check-$f" "$bad of $n figures differ from their commands (make docs-check DOCS=$f; make docs-check UPDATE=1 after a change that moves them):"
        grep "^DIFF $f:" "$DC/report" | head -10 | sed 's/^/    /'
    fi
done
ck docs-check-at-least-30-figures '[ "${checked:-0}" -ge 30 ]' "$checked"
ck docs-check-exit-follows-the-count '[ "$rc" = "$([ "${differ:-1}" = 0 ] && echo 0 || echo 1)" ]' "$differ differ, exit $rc"

# A changed figure in a copy of a page fails, on that line; --update writes it back.
first=$(grep -m1 '^ok README.md:' "$DC/report")
line=$(echo "$first" | sed 's/^ok README.md:\([0-9]*\) .*/\1/')
fig=$(echo "$first" | sed 's/^ok README.md:[0-9]* \([^ ]*\) .*/\1/')
mkdir -p "$DC/copy"
cp README.md "$DC/copy/README.md"
changed=$(printf '%s' "$fig" | sed 's/[0-9]\([^0-9]*\)$/9\1/')
[ "$changed" = "$fig" ] && changed=$(printf '%s' "$fig" | sed 's/[0-9]\([^0-9]*\)$/8\1/')
awk -v l="$line" -v a="$fig" -v b="$changed" 'NR == l { i = index($0, a); $0 = substr($0, 1, i - 1) b substr($0, i + length(a)) } { print }' \
    README.md >"$DC/copy/README.md"
tools/docs-check.sh --cache "$DC/cache" "$DC/copy/README.md" >"$DC/copy.report" 2>&1
rc=$? OUT="$DC/copy.report"
ck docs-check-changed-figure-fails '[ "$rc" = 1 ] && [ -n "$line" ]' "README.md:$line $fig -> $changed: exit $rc"
ck docs-check-changed-figure-named 'grep -q "^DIFF $DC/copy/README.md:$line $changed, now $fig " "$DC/copy.report"'
ck docs-check-changed-figure-counted "grep -q '^[0-9]* figures checked, 1 differ\$' \"\$DC/copy.report\""
tools/docs-check.sh --update --cache "$DC/cache" "$DC/copy/README.md" >"$DC/update.report" 2>&1
OUT="$DC/update.report"
ck docs-check-update-writes-it-back 'cmp -s README.md "$DC/copy/README.md"'
ck docs-check-update-says-so 'grep -q "^updated $DC/copy/README.md:" "$DC/update.report"'

# Markup errors are errors, not silently skipped figures.
printf 'x\n<!-- docs-check: output -->\n```\n1\n```\n' >"$DC/copy/orphan.md"
tools/docs-check.sh "$DC/copy/orphan.md" >"$DC/orphan.out" 2>&1
rc=$? OUT="$DC/orphan.out"
ck docs-check-output-without-run-is-an-error '[ "$rc" = 2 ] && grep -q "^error: .*orphan.md:2: an output block with no run block" "$OUT"'
printf '<!-- docs-check: rnu -->\n' >"$DC/copy/typo.md"
tools/docs-check.sh "$DC/copy/typo.md" >"$DC/typo.out" 2>&1
rc=$? OUT="$DC/typo.out"
ck docs-check-unknown-marker-is-an-error '[ "$rc" = 2 ] && grep -q "unknown docs-check marker \"rnu\"" "$OUT"'
printf '<!-- docs-check: host-sample machine="x" -->\n```sh\nsleep 1\n```\n' >"$DC/copy/nodate.md"
tools/docs-check.sh "$DC/copy/nodate.md" >"$DC/nodate.out" 2>&1
rc=$? OUT="$DC/nodate.out"
ck docs-check-host-sample-needs-a-date '[ "$rc" = 2 ] && grep -q "needs date=" "$OUT"'
# Host samples are listed, never run or counted.
printf '<!-- docs-check: host-sample date=2026-12-07 machine="a 2-core laptop" -->\n```sh\nexit 7\n```\n' >"$DC/copy/host.md"
tools/docs-check.sh "$DC/copy/host.md" >"$DC/host.out" 2>&1
rc=$? OUT="$DC/host.out"
ck docs-check-host-sample-listed-not-run '[ "$rc" = 0 ] && grep -q "^not checked .*host.md:1 host sample, 2026-12-07 on a 2-core laptop: exit 7\$" "$OUT" && grep -q "^0 figures checked, 0 differ\$" "$OUT"'
# An inline figure: the value of KEY= in the run's output; a failing command fails its figures.
printf '<!-- docs-check: run -->\n```sh\necho "a=1 b=2.50 b=3"\n```\nb is 2.50<!--=b--> then 3<!--=b#2-->, a is **1**<!--=a-->.\n<!-- docs-check: run -->\n```sh\nfalse\n```\nx 5<!--=x-->\n' >"$DC/copy/inline.md"
tools/docs-check.sh "$DC/copy/inline.md" >"$DC/inline.out" 2>&1
rc=$? OUT="$DC/inline.out"
ck docs-check-inline-figures '[ "$rc" = 1 ] && grep -q "^4 figures checked, 1 differ\$" "$OUT" && grep -q "^DIFF .*inline.md:10 5: the command failed (exit 1)" "$OUT"'
# --update rewrites an inline figure of a named run too, and only the figure.
printf '<!-- docs-check: run name=n1 -->\n```sh\necho "v=7 w=8"\n```\n<!-- docs-check: run -->\n```sh\necho "v=1"\n```\nn1 says 6<!--=n1:v--> and 9<!--=n1:w-->, the last 1<!--=v-->.\n' >"$DC/copy/named.md"
tools/docs-check.sh --update "$DC/copy/named.md" >"$DC/named.out" 2>&1
OUT="$DC/named.out"
ck docs-check-update-named-inline 'grep -qxF "n1 says 7<!--=n1:v--> and 8<!--=n1:w-->, the last 1<!--=v-->." "$DC/copy/named.md"'
