# tools/deps.sh checks every need by the thing itself (docs/testing.md):
#   - here, after make test's check-deps, verify finds every need met;
#   - a pkg-config module that fails because a module it requires is missing
#     (Debian's libtracecmd-dev without libtracefs-dev) is missing, and maps
#     to the package of the required module (libtracefs-dev), an unlisted
#     required module to its Debian -dev name; a package list cannot hide it.
#   - a gcc whose -m32 libgcc is the 64-bit one (no gcc-multilib) is missing.
# A fake pkg-config (gcc) on PATH plays the missing modules; nothing is installed.
# run-all: host job
. "$(dirname "$0")/../lib.sh"
plan 13

D="$TMP/deps.$$"
mkdir -p "$D/bin"
OUT="$D/verify.log"
"$ROOT/tools/deps.sh" verify >"$OUT" 2>&1; RC=$?
check "deps-verify-all-met" [ "$RC" = 0 ]
expect "deps-verify-libtracecmd-ok" '^ok +pc libtracecmd '
expect_not "deps-verify-none-missing" '^missing '

real=$(command -v pkg-config)
cat >"$D/bin/pkg-config" <<EOC
#!/bin/sh
for a; do m=\$a; done
case \$m in
libtracecmd) echo "Package 'libtracefs', required by 'libtracecmd', not found" >&2; exit 1 ;;
libtracefs) echo "Package 'libtracefs', required by 'virtual:world', not found" >&2; exit 1 ;;
libtraceevent) echo "Package 'libfrobevent', required by 'libtraceevent', not found" >&2; exit 1 ;;
esac
exec "$real" "\$@"
EOC
chmod +x "$D/bin/pkg-config"
OUT="$D/missing.log"
PATH="$D/bin:$PATH" "$ROOT/tools/deps.sh" missing >"$OUT" 2>&1; RC=$?
check "deps-missing-exit1" [ "$RC" = 1 ]
expect "deps-libtracecmd-missing-names-libtracefs-dev" '^missing pc libtracecmd .*module libtracefs \(required by libtracecmd\).*package libtracefs-dev$'
expect "deps-libtracefs-missing" '^missing pc libtracefs .*package libtracefs-dev$'
expect "deps-unlisted-module-debian-name" '^missing pc libtraceevent .*module libfrobevent .*package libfrobevent-dev$'
check "deps-missing-only-those" [ "$(grep -c '^missing ' "$OUT")" = 3 ]
OUT="$D/verify-fake.log"
PATH="$D/bin:$PATH" "$ROOT/tools/deps.sh" verify >"$OUT" 2>&1; RC=$?
check "deps-verify-fails-when-missing" [ "$RC" = 1 ]
expect "deps-verify-lists-the-rest-ok" '^ok +cmd qemu-system-i386 '
# Without gcc-multilib, gcc -m32 -print-libgcc-file-name still names a file:
# the 64-bit libgcc.a (a fresh Debian 12 machine, 2026-12-05).  A fake gcc
# plays that; the need is missing and names gcc-multilib.
mkdir -p "$D/gcc"
realgcc=$(command -v gcc)
lib64=$("$realgcc" -print-libgcc-file-name)
cat >"$D/gcc/gcc" <<EOC
#!/bin/sh
case " \$* " in *" -print-libgcc-file-name "*) echo "$lib64"; exit 0 ;; esac
exec "$realgcc" "\$@"
EOC
chmod +x "$D/gcc/gcc"
OUT="$D/m32.log"
PATH="$D/gcc:$PATH" "$ROOT/tools/deps.sh" missing >"$OUT" 2>&1; RC=$?
check "deps-m32-64bit-libgcc-missing-exit1" [ "$RC" = 1 ]
expect "deps-m32-64bit-libgcc-names-gcc-multilib" '^missing m32 libgcc.a .*__udivdi3.*package gcc-multilib$'
OUT="$D/usage.log"
"$ROOT/tools/deps.sh" frob >"$OUT" 2>&1; RC=$?
check "deps-bad-verb-exit2" [ "$RC" = 2 ]
rm -rf "$D"
