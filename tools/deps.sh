#!/bin/sh
# What every build and test of schedlab needs, each checked by the thing
# itself (a command, a header, a pkg-config module, a file the toolchain
# uses), never by a package list: a list can be complete while a module is
# missing (Debian's libtracecmd-dev does not pull libtracefs-dev, and
# `pkg-config --exists libtracecmd` then fails).  Each need names the Debian
# package that provides it; a pkg-config module that fails because a module
# it requires is missing is mapped to that module's package.
#
#   tools/deps.sh check     (make runs it) exit 0 when every need is met; otherwise,
#                           as root on Debian, install what provides the missing
#                           ones and check again; not root: print the apt-get line, exit 1
#   tools/deps.sh install   the same (make deps)
#   tools/deps.sh verify    install nothing: one line per need, "ok ..." or
#                           "missing ...", exit 1 when one is missing (.ci/run after deps ran)
#   tools/deps.sh missing   install nothing: the missing needs only, exit 1 when there are any
#
# A need is "KIND NAME PACKAGE WHO": KIND cmd (a command, also looked up in
# /usr/sbin and /sbin), header (under the system include directories), pc
# (pkg-config --exists NAME), dir (a directory), m32 (a 32-bit object
# needing __udivdi3 links against gcc -m32's libgcc), fuzzer (clang's libFuzzer runtime, NAME its file).
NEEDS="
cmd make make build
cmd gcc gcc build
cmd ld binutils build
m32 libgcc.a gcc-multilib kernel-link
cmd g++ g++ caches-build
dir /usr/lib/gcc/x86_64-linux-gnu/12/plugin/include gcc-12-plugin-dev caches-build
cmd qemu-system-i386 qemu-system-x86 make-run
cmd flock util-linux tests
cmd timeout coreutils tests
cmd ps procps tests
cmd pgrep procps tests
cmd man man-db install-test
cmd grub-mkrescue grub-common make-iso
dir /usr/lib/grub/i386-pc grub-pc-bin make-iso
cmd xorriso xorriso make-iso
cmd mformat mtools iso-all-test
cmd mcopy mtools iso-all-test
header cmocka.h libcmocka-dev host-tests
header gsl/gsl_statistics_double.h libgsl-dev host-tools
cmd gnuplot gnuplot-nox plots
cmd clang clang fuzz-tests
fuzzer libclang_rt.fuzzer-x86_64.a libclang-rt-14-dev fuzz-tests
cmd parallel parallel engine-parallel
cmd slurmctld slurmctld engine-slurm
cmd slurmd slurmd engine-slurm
cmd sbatch slurm-client engine-slurm
cmd munged munge engine-slurm
cmd chromium chromium report-test
cmd cpio cpio linux-peer
cmd trace-cmd trace-cmd trace-tests
cmd pkg-config pkg-config trace-tests
pc libtraceevent libtraceevent-dev trace-tests
pc libtracefs libtracefs-dev trace-tests
pc libtracecmd libtracecmd-dev trace-tests
cmd convert imagemagick trace-tests
cmd python3 python3 trace-tests
"

have_cmd() {
    command -v "$1" >/dev/null 2>&1 || [ -x "/usr/sbin/$1" ] || [ -x "/sbin/$1" ]
}

# pc_package MODULE: the package of a pkg-config module this list names (empty if none)
pc_package() {
    printf '%s\n' "$NEEDS" | awk -v m="$1" '$1 == "pc" && $2 == m { print $3; exit }'
}

# need_ok KIND NAME: the need is met; when it is not, WHY says what failed and
# PKG_FOR may name another package than the need's own (a pkg-config module
# that fails for a module it requires)
need_ok() {
    WHY= PKG_FOR=
    case $1 in
    cmd) have_cmd "$2" || { WHY="command $2 not found"; return 1; } ;;
    header)
        for d in /usr/local/include /usr/include /usr/include/*-linux-gnu; do
            [ -f "$d/$2" ] && return 0
        done
        WHY="header <$2> not found"; return 1 ;;
    dir) [ -d "$2" ] || { WHY="$2 not found"; return 1; } ;;
    m32)
        # Linked for real, as the kernel is: without gcc-multilib, gcc -m32
        # -print-libgcc-file-name still names a file (the 64-bit libgcc.a),
        # and the kernel's link then fails on __udivdi3.
        have_cmd gcc || { WHY="gcc not found"; return 1; }
        f=$(gcc -m32 -print-libgcc-file-name 2>/dev/null)
        case $f in /*) [ -f "$f" ] || f= ;; *) f= ;; esac
        [ -n "$f" ] || { WHY="gcc -m32 finds no libgcc"; return 1; }
        t=$(mktemp -d) || { WHY="mktemp failed"; return 1; }
        printf 'unsigned long long q(unsigned long long a, unsigned long long b) { return a / b; }\nvoid _start(void) { }\n' >"$t/q.c"
        if gcc -m32 -ffreestanding -fno-pic -O2 -c "$t/q.c" -o "$t/q.o" 2>/dev/null &&
           ld -m elf_i386 -e _start -o "$t/q" "$t/q.o" "$f" 2>/dev/null; then
            rm -rf "$t"; return 0
        fi
        rm -rf "$t"
        WHY="a 32-bit object needing __udivdi3 does not link against $f"; return 1 ;;
    fuzzer)
        have_cmd clang || { WHY="clang not found"; return 1; }
        c=$(readlink -f "$(command -v clang)")        # /usr/lib/llvm-14/bin/clang
        for f in "${c%/bin/*}"/lib/clang/*/lib/linux/"$2"; do
            [ -f "$f" ] && return 0
        done
        WHY="$2 not found beside $c"
        case $c in */llvm-[0-9]*/bin/*) v=${c#*/llvm-}; PKG_FOR=libclang-rt-${v%%/*}-dev ;; esac
        return 1 ;;
    pc)
        have_cmd pkg-config || { WHY="pkg-config not found"; return 1; }
        err=$(pkg-config --print-errors --exists "$2" 2>&1) && return 0
        # "Package 'libtracefs', required by 'libtracecmd', not found"
        req=$(printf '%s\n' "$err" | sed -n "s/^Package '\([^']*\)', required by '[^']*', not found.*/\1/p" | head -1)
        if [ -n "$req" ] && [ "$req" != "$2" ]; then
            WHY="pkg-config --exists $2: module $req (required by $2) not found"
            PKG_FOR=$(pc_package "$req")
            [ -n "$PKG_FOR" ] || PKG_FOR=$req-dev      # Debian names libfoo.pc's package libfoo-dev
        else
            WHY="pkg-config --exists $2 fails: $(printf '%s\n' "$err" | tail -1)"
        fi
        return 1 ;;
    *) WHY="unknown kind $1"; return 1 ;;
    esac
}

# scan MODE: sets REPORT (MODE all: a line per need, missing: the missing
# ones), MISSING_PKGS (the packages to install, each once) and NMISSING
scan() {
    MISSING_PKGS= NMISSING=0 REPORT=
    while read -r kind name pkg who; do
        [ -n "$kind" ] || continue
        if need_ok "$kind" "$name"; then
            [ "$1" = all ] && REPORT="${REPORT}ok      $kind $name ($pkg; $who)
"
        else
            p=${PKG_FOR:-$pkg}
            REPORT="${REPORT}missing $kind $name ($who): $WHY: package $p
"
            NMISSING=$((NMISSING + 1))
            case " $MISSING_PKGS " in *" $p "*) ;; *) MISSING_PKGS="${MISSING_PKGS:+$MISSING_PKGS }$p" ;; esac
        fi
    done <<EOF
$NEEDS
EOF
}

install() {
    if [ "$(id -u)" != 0 ]; then
        echo "error: installing packages needs root; run: sudo apt-get install -y $*   (or: sudo make deps)" >&2
        exit 1
    fi
    echo "deps: installing $*" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null || {
        echo "error: apt-get install failed for: $*" >&2
        exit 1
    }
}

# ensure: install what provides the missing needs, then check every need again
ensure() {
    scan missing
    [ "$NMISSING" = 0 ] && return 0
    printf '%s' "$REPORT" | sed 's/^/deps: /' >&2
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "deps: warning: not Debian: install what provides the needs above yourself" >&2
        return 0          # not Debian: trust the user
    fi
    install $MISSING_PKGS
    scan missing
    [ "$NMISSING" = 0 ] && return 0
    printf '%s' "$REPORT" | sed 's/^/deps: still /' >&2
    echo "error: $NMISSING needs still missing after installing their packages" >&2
    exit 1
}

case "${1:-check}" in
check|install) ensure ;;
verify)
    scan all
    printf '%s' "$REPORT"
    [ "$NMISSING" = 0 ] || { echo "deps: $NMISSING needs missing (tools/deps.sh install, as root)" >&2; exit 1; }
    ;;
missing)
    scan missing
    printf '%s' "$REPORT"
    [ "$NMISSING" = 0 ] || exit 1
    ;;
*)
    echo "usage: tools/deps.sh check|install|verify|missing" >&2
    exit 2
    ;;
esac
