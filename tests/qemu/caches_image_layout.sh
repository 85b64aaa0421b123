#!/bin/sh
# run-all: host job
# The CACHES=1 images' data layout against the one recorded in
# tests/caches-image-layout.txt.  The memory model computes from addresses
# (which L2 sets the kernel's objects fall in, where free pages begin), so
# every CACHES=1 figure (docs/caches.md, the reproductions' model columns)
# holds for one layout.  Text that grows past the page where .rodata begins
# (goodness's image had a few hundred bytes to spare) moves every data
# address a page on, and a new or larger static object moves the others:
# figures move although no instruction of the measured paths changed.  This
# makes such a move a deliberate act: one check per image, which fails
# naming what moved.  No boot: the images are built (make is incremental;
# the common CACHES=1 objects, about a minute of CPU in a fresh tree, are
# shared by the images) and read with readelf and nm.
#
# Recorded per image (SCHED=<image> CACHES=1): the addresses of .rodata,
# .data and .bss (each page-aligned, linker.ld) and of _end, and the count
# and md5 of the .data/.bss symbols' "address type name" lines.  Read-only
# data's own symbols are not recorded: a new message string moves them, and
# they stay on .rodata's pages.  A "# ..." line gives each image's room:
# the bytes between .text's end and .rodata's page, and between the
# read-only sections' end and .data's page.
#
#   tests/qemu/caches_image_layout.sh            the check (TAP)
#   tests/qemu/caches_image_layout.sh --record   builds the images and rewrites the file
. "$(dirname "$0")/../lib.sh"
LAYOUT="$ROOT/tests/caches-image-layout.txt"
images() { sed -n 's/^\([a-z0-9_]*\) \.rodata .*/\1/p' "$LAYOUT"; }

# build_caches SCHED: make SCHED=SCHED CACHES=1 kernel (under the tests' build lock)
build_caches() {
    ( flock 9; make -s -j"$(nproc 2>/dev/null || echo 1)" -C "$ROOT" SCHED="$1" CACHES=1 kernel >"$TMP/build-$1-caches.log" 2>&1 ) \
        9>"$ROOT/build/.lock"
}
# layout ELF NAME: the recorded lines of an image
layout() {
    readelf -SW "$1" | sed 's/^ *\[ *[0-9]*\] //' | awk -v n="$2" '
        $1 == ".rodata" || $1 == ".data" || $1 == ".bss" { printf "%s %s 0x%s\n", n, $1, $3 }'
    nm "$1" | awk -v n="$2" '$3 == "_end" { printf "%s _end 0x%s\n", n, $1 }'
    nm -n "$1" | awk '$2 ~ /^[bBdD]$/' >"$TMP/data-syms.$2"
    echo "$2 data-symbols $(wc -l <"$TMP/data-syms.$2") $(md5sum <"$TMP/data-syms.$2" | cut -c1-32)"
}
# room ELF: "T R": bytes from .text's end to .rodata's page, and from the
# end of the last read-only section to .data's page
room() {
    readelf -SW "$1" | sed -n 's/^ *\[ *[0-9]*\] //p' | awk '$2 == "PROGBITS" || $2 == "NOBITS"' >"$TMP/sections"
    _r_tend=0 _r_ro=0 _r_roend=0 _r_data=0
    while read -r _r_name _r_type _r_addr _r_off _r_size _r_rest; do
        case $_r_name in
        .text) _r_tend=$((0x$_r_addr + 0x$_r_size)) ;;
        .rodata) _r_ro=$((0x$_r_addr)) ;;
        .data) _r_data=$((0x$_r_addr)) ;;
        esac
        # the read-only sections: from .rodata (linker.ld's order) up to .data
        if [ "$_r_ro" -gt 0 ] && [ "$_r_data" = 0 ] && [ $((0x$_r_addr + 0x$_r_size)) -gt "$_r_roend" ]; then
            _r_roend=$((0x$_r_addr + 0x$_r_size))
        fi
    done <"$TMP/sections"
    echo "$((_r_ro - _r_tend)) $((_r_data - _r_roend))"
}

mkdir -p "$ROOT/build"
if [ "${1:-}" = --record ]; then
    [ -f "$LAYOUT" ] || { echo "error: $LAYOUT not found (it names the images to record)" >&2; exit 1; }
    new="$TMP/layout.new"
    sed -n '/^#/p' "$LAYOUT" >"$new"
    for s in $(images); do
        build_caches "$s" || { echo "error: make SCHED=$s CACHES=1 failed:" >&2; tail -20 "$TMP/build-$s-caches.log" >&2; exit 1; }
        layout "$ROOT/build/$s-caches/kernel.elf" "$s" >>"$new"
    done
    mv "$new" "$LAYOUT"
    echo "recorded: $LAYOUT ($(images | tr '\n' ' '))"
    exit 0
fi

[ -f "$LAYOUT" ] || { plan 1; fail caches-image-layout "$LAYOUT not found"; exit 0; }
plan "$(images | wc -l)"
# moved S: what differs between the recorded and the built layout of image S
moved() {
    awk 'NR == FNR { was[$1 " " $2] = $3 (NF > 3 ? " " $4 : ""); next }
         { k = $1 " " $2; now = $3 (NF > 3 ? " " $4 : "")
           if (!(k in was)) { printf "%s%s new (%s)", sep, $2, now; sep = "; " }
           else if (was[k] != now) { printf "%s%s %s -> %s", sep, $2, was[k], now; sep = "; " } }' \
        "$TMP/recorded.$1" "$TMP/layout.$1"
}
for s in $(images); do
    name="caches-image-layout-$s"
    elf="$ROOT/build/$s-caches/kernel.elf"
    why=
    if build_caches "$s"; then
        set -- $(room "$elf")
        echo "# $s CACHES=1: .text ends $1 bytes before .rodata's page; the read-only sections end $2 bytes before .data's page"
        layout "$elf" "$s" >"$TMP/layout.$s"
        grep "^$s " "$LAYOUT" >"$TMP/recorded.$s"
        cmp -s "$TMP/layout.$s" "$TMP/recorded.$s" || why="SCHED=$s CACHES=1: the data layout moved: $(moved "$s")"
    else
        why="make SCHED=$s CACHES=1 failed:"
    fi
    if [ -z "$why" ]; then
        pass "$name"
    else
        fail "$name" "$why"
    fi
    case $why in
    make*) sed 's/^/    | /' "$TMP/build-$s-caches.log" | tail -15 ;;
    ?*)
        echo "    Every CACHES=1 figure of this image may have moved with it (docs/caches.md, docs/reproduce.md's model columns)."
        case $why in *.rodata*) echo "    .rodata moved with the size of .text, which now ends $1 bytes before .rodata's page (text that grows past a page boundary moves all the data a page on)." ;; esac
        case $why in *data-symbols*) echo "    .data/.bss symbols moved or changed: nm -n $elf | grep ' [bBdD] ' lists them; compare with the recorded commit's (git log -1 tests/caches-image-layout.txt)." ;; esac
        echo "    If the move is meant: re-make those figures, then record the layout: tests/qemu/caches_image_layout.sh --record (and commit tests/caches-image-layout.txt with them)."
        ;;
    esac
done
