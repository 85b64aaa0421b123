#!/bin/sh
# Checks for (or installs, as root on Debian) every package schedlab needs.
#   tools/deps.sh check     exit 0 when all is there; otherwise install them if root, or print the command
#   tools/deps.sh install   apt-get install them
# parallel, slurmctld/slurmd/slurm-client/munge: schedlab run --engine parallel|slurm and their tests;
# chromium: the report's test renders it headless; cpio: tools/linux-peer.sh's initramfs.
PKGS="build-essential gcc-multilib qemu-system-x86 grub-pc-bin grub-common xorriso mtools libcmocka-dev libgsl-dev gnuplot-nox clang libclang-rt-14-dev parallel slurmctld slurmd slurm-client munge chromium cpio"
# Scheduler traces (docs/tracing.md): trace-cmd report and libtracecmd read trace.dat back in the tests,
# pkg-config finds libtracecmd, imagemagick measures the timeline's screenshot (chromium is above).
PKGS="$PKGS trace-cmd libtracecmd-dev libtraceevent-dev pkg-config imagemagick"

missing() {
    for p in $PKGS; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
    done
}

install() {
    if [ "$(id -u)" != 0 ]; then
        echo "error: installing packages needs root; run: sudo apt-get install -y $*" >&2
        exit 1
    fi
    echo "deps: installing $*" >&2
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null || {
        echo "error: apt-get install failed for: $*" >&2
        exit 1
    }
}

case "${1:-check}" in
install)
    m=$(missing)
    [ -z "$m" ] || install $m
    ;;
check)
    command -v dpkg-query >/dev/null 2>&1 || exit 0   # not Debian: trust the user
    m=$(missing)
    [ -z "$m" ] && exit 0
    if [ "$(id -u)" = 0 ]; then
        install $m
    else
        echo "error: missing packages: $m" >&2
        echo "run: sudo apt-get install -y $m   (or: sudo make deps)" >&2
        exit 1
    fi
    ;;
*)
    echo "usage: tools/deps.sh check|install" >&2
    exit 2
    ;;
esac
