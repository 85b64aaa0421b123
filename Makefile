# schedlab - a small SMP x86 kernel for measuring CPU schedulers.
#
#   make [SCHED=o1]         build build/<sched>/kernel.elf
#   make run                boot it under QEMU (serial on stdout)
#   make test               the whole test suite (ends with "N passed, N failed")
#   make help               every target and variable
#
# A scheduler is one file sched/<name>.c; the list below is found by wildcard.
#
# The settings that change the kernel's code (HZ, LOCK, CFLAGS_EXTRA) pick
# the build directory (build/<sched>, or build/<sched>-hz100-ticket-x1a2b3c4d
# when they differ from the defaults; the scheduler-independent objects are
# in build/common<same suffix>), and every object also depends on a
# record of the exact flags it was built with (BUILD/kernel.flags, rewritten
# only when they change, as Kbuild's .cmd files): a kernel is never linked
# from objects built with other settings.

SCHEDS      := $(sort $(basename $(notdir $(filter-out sched/sched.h,$(wildcard sched/*.c)))))
DEFAULT_SCHED := o1
SCHED       ?= $(DEFAULT_SCHED)
SMP         ?= 2
MEM         ?= 256
ACCEL       ?= tcg
TIMEOUT     ?= 120
CMDLINE     ?=
HZ          ?= 1000
LOCK        ?= tas
CACHES      ?= 0
Q           ?= @            # make Q= shows every command
NPROC        = $(shell nproc 2>/dev/null || echo 1)

# One directory per configuration; CFLAGS_EXTRA is named by a hash of its text.
CONFIG_SUFFIX := $(if $(filter-out 1000,$(HZ)),-hz$(HZ))$(if $(filter-out tas,$(LOCK)),-$(LOCK))$(if $(filter 1,$(CACHES)),-caches)$(if $(filter host,$(CACHES)),-hostmodel)$(if \
                 $(strip $(CFLAGS_EXTRA)),-x$(shell printf '%s' '$(subst ','\'',$(CFLAGS_EXTRA))' | md5sum | cut -c1-8))
BUILD       ?= build/$(SCHED)$(CONFIG_SUFFIX)
CC          := gcc
LD          := ld
LOCK_FLAGS  := $(if $(filter ticket,$(LOCK)),-DSPINLOCK_TICKET,)
KCFLAGS     := -m32 -march=i686 -std=gnu11 -O2 -g -ffreestanding -fno-builtin -fno-stack-protector \
               -fno-pic -fno-pie -fno-omit-frame-pointer -mno-sse -mno-mmx -mno-80387 -mno-red-zone \
               -fno-asynchronous-unwind-tables -Wall -Wextra -Werror -Wno-unused-parameter -Wno-array-bounds \
               -DHZ=$(HZ) $(LOCK_FLAGS) $(if $(filter 1,$(CACHES)),-DCACHES=1) $(if $(filter host,$(CACHES)),-DHOST_MODEL) $(CFLAGS_EXTRA)
# CACHES=1: every load and store of the kernel, the scheduler and the
# workloads calls the memory model (kernel/machine/memhooks.c,
# docs/caches.md); the model itself, vsmp's dispatcher (not charged) and the
# string functions (charged as ranges) are not instrumented.
# memhook-plugin (kernel/machine/memhook-plugin.cc, a GCC plugin built here
# with g++ and gcc-12-plugin-dev) puts a call that changes no register and
# no flag before every memory access of the final code, after register
# allocation: the plain build's code plus the calls (docs/caches.md,
# "Exactness").
MEMHOOK_PLUGIN := build/memhook-plugin.so
MEMHOOK_FLAGS := -fplugin=$(MEMHOOK_PLUGIN)
# kernel/time.c: the TSC's calibration against the PIT (boot only, no access
# the model needs) runs the plain build's instructions, so that under
# icount/vsmp it measures the same tsc_khz (1000000: the clock's identity
# patch, kernel/time.h); instrumented, its first read came later after the
# PIT's start and it measured 1000001 (docs/caches.md, "Exactness").
MEMHOOK_SKIP  := $(wildcard kernel/machine/*.c) kernel/string.c kernel/time.c
memhook_flags  = $(if $(and $(filter 1,$(CACHES)),$(filter-out $(MEMHOOK_SKIP),$(1))),$(MEMHOOK_FLAGS))
KASFLAGS    := -m32 -march=i686 -g -DHZ=$(HZ) $(if $(filter 1,$(CACHES)),-DCACHES=1)
# libgcc (64-bit division) is looked up when linking, not while the Makefile
# is read: on a fresh machine gcc-multilib is only there after check-deps.
LIBGCC       = $$($(CC) -m32 -print-libgcc-file-name)

# The kernel, its boot code and the workloads do not depend on the scheduler:
# they are compiled once per configuration into COMMON (build/common, or
# build/common-hz100-... as BUILD), and only sched/$(SCHED).c into BUILD.  A
# second scheduler's kernel costs one compile and a link (0.8 s, not 7.5 s).
COMMON      ?= build/common$(CONFIG_SUFFIX)
COMMON_SRCS := $(wildcard kernel/*.c) $(wildcard kernel/machine/*.c) $(wildcard workloads/*.c)
COMMON_ASMS := boot/boot.S boot/trampoline.S $(wildcard kernel/*.S) $(wildcard kernel/machine/*.S)
COMMON_OBJS := $(patsubst %.c,$(COMMON)/%.o,$(COMMON_SRCS)) $(patsubst %.S,$(COMMON)/%.o,$(COMMON_ASMS))
SCHED_OBJ   := $(BUILD)/sched/$(SCHED).o
# (link order as before the split: C objects, the scheduler, then assembly)
KERNEL_OBJS := $(patsubst %.c,$(COMMON)/%.o,$(COMMON_SRCS)) $(SCHED_OBJ) $(patsubst %.S,$(COMMON)/%.o,$(COMMON_ASMS))

.PHONY: install all kernel iso run run-iso gdb test test-long check test-host test-qemu deps check-deps check-sched clean help list-scheds list-machines tools seed-table \
        print-build print-default-sched iso-all run-iso-all stress docs-check bench-vsmp

all: kernel
kernel: check-sched check-deps $(BUILD)/kernel.elf

check-sched:
	@[ ! -f sched/common.c ] || { echo "error: sched/common.c: 'common' names the shared build directory (build/common); rename the scheduler" >&2; exit 2; }
	@case " $(SCHEDS) " in *" $(SCHED) "*) ;; *) echo "error: SCHED=$(SCHED) is not a scheduler; choose one of: $(SCHEDS)" >&2; exit 2;; esac
	@case "$(LOCK)" in tas|ticket) ;; *) echo "error: LOCK=$(LOCK): expected tas or ticket" >&2; exit 2;; esac
	@case "$(CACHES)" in 0|1|host) ;; *) echo "error: CACHES=$(CACHES): expected 0, 1 or host" >&2; exit 2;; esac
	@case "$(HZ)" in ''|*[!0-9]*) echo "error: HZ=$(HZ): expected ticks per second (100..10000)" >&2; exit 2;; esac
	@[ "$(HZ)" -ge 100 ] && [ "$(HZ)" -le 10000 ] || { echo "error: HZ=$(HZ): expected 100..10000" >&2; exit 2; }

list-scheds:
	@echo $(SCHEDS)

# The memory model's machine presets (kernel/machine/presets.c, machine= on
# the boot line; tools/schedlab reproduce --machine checks against it).
list-machines:
	@sed -n 's/^ *{ *\.name *= *"\([^"]*\)".*/\1/p' kernel/machine/presets.c | tr '\n' ' ' | sed 's/ $$//'; echo

# Where this configuration is built (tools/schedlab asks).
print-build:
	@echo $(BUILD)

# The scheduler a plain `make` builds (tests that test the kernel, not a policy, boot it).
print-default-sched:
	@echo $(DEFAULT_SCHED)

# The exact flags, rewritten only when they change; every object depends on
# its directory's record (COMMON's without SCHED=, which it does not use).
# Two makes of two schedulers may build COMMON at once (tools/schedlab -j,
# the test suite): every file there is written beside and renamed into place.
# Two makes of the same scheduler that both find the flags changed write the
# same .new file; the second's mv then finds it gone (the first renamed it
# into place), which is success, not "mv: cannot stat" and a failed build.
KERNEL_FLAGS_TEXT = KCFLAGS=$(KCFLAGS) KASFLAGS=$(KASFLAGS) SCHED=$(SCHED) LOCK=$(LOCK) HZ=$(HZ) CACHES=$(CACHES) MEMHOOK=$(if $(filter 1,$(CACHES)),$(MEMHOOK_FLAGS) SKIP=$(MEMHOOK_SKIP)) CFLAGS_EXTRA=$(CFLAGS_EXTRA)
COMMON_FLAGS_TEXT = KCFLAGS=$(KCFLAGS) KASFLAGS=$(KASFLAGS) LOCK=$(LOCK) HZ=$(HZ) CACHES=$(CACHES) MEMHOOK=$(if $(filter 1,$(CACHES)),$(MEMHOOK_FLAGS) SKIP=$(MEMHOOK_SKIP)) CFLAGS_EXTRA=$(CFLAGS_EXTRA)
$(BUILD)/kernel.flags: FORCE | check-sched check-deps
	$(shell mkdir -p $(dir $@))$(file >$@.new,$(KERNEL_FLAGS_TEXT))
	@if cmp -s $@.new $@; then rm -f $@.new; else mv $@.new $@ 2>/dev/null || test -f $@; fi
$(COMMON)/kernel.flags: FORCE | check-sched check-deps
	$(shell mkdir -p $(dir $@))$(file >$@.new-$(SCHED),$(COMMON_FLAGS_TEXT))
	@if cmp -s $@.new-$(SCHED) $@; then rm -f $@.new-$(SCHED); else mv $@.new-$(SCHED) $@ 2>/dev/null || test -f $@; fi

$(COMMON)/%.o: %.c $(COMMON)/kernel.flags $(if $(filter 1,$(CACHES)),$(MEMHOOK_PLUGIN))
	@mkdir -p $(dir $@)
	@echo "  CC    $<"
	$(Q)$(CC) $(KCFLAGS) $(call memhook_flags,$<) -MMD -MP -MF $@.d.$$$$ -MT $@ -c $< -o $@.$$$$ && mv $@.d.$$$$ $(@:.o=.d) && mv $@.$$$$ $@

$(COMMON)/%.o: %.S $(COMMON)/kernel.flags
	@mkdir -p $(dir $@)
	@echo "  AS    $<"
	$(Q)$(CC) $(KASFLAGS) -MMD -MP -MF $@.d.$$$$ -MT $@ -c $< -o $@.$$$$ && mv $@.d.$$$$ $(@:.o=.d) && mv $@.$$$$ $@

$(SCHED_OBJ): sched/$(SCHED).c $(BUILD)/kernel.flags $(if $(filter 1,$(CACHES)),$(MEMHOOK_PLUGIN))
	@mkdir -p $(dir $@)
	@echo "  CC    $<"
	$(Q)$(CC) $(KCFLAGS) $(call memhook_flags,$<) -MMD -MP -c $< -o $@

# Written beside and renamed into place: two makes may build it at once.
$(MEMHOOK_PLUGIN): kernel/machine/memhook-plugin.cc
	@mkdir -p $(dir $@)
	@echo "  CXX   $<"
	$(Q)g++ -shared -fPIC -fno-rtti -O2 -I$$($(CC) -print-file-name=plugin)/include -o $@.$$$$ $< && mv $@.$$$$ $@

$(BUILD)/kernel.elf: $(KERNEL_OBJS) linker.ld $(BUILD)/kernel.flags
	@echo "  LD    $@"
	$(Q)$(LD) -m elf_i386 -z noexecstack -T linker.ld -Map=$(BUILD)/kernel.map -o $@ $(KERNEL_OBJS) $(LIBGCC)

-include $(KERNEL_OBJS:.o=.d)

# A GRUB (multiboot) ISO whose default entry boots at once with the default workload.
iso: kernel $(BUILD)/kernel.iso
# Always rebuilt: CMDLINE is baked into grub.cfg.
$(BUILD)/kernel.iso: $(BUILD)/kernel.elf tools/grub.cfg FORCE
	@rm -rf $(BUILD)/iso && mkdir -p $(BUILD)/iso/boot/grub
	cp $(BUILD)/kernel.elf $(BUILD)/iso/boot/kernel.elf
	sed 's|@CMDLINE@|$(CMDLINE)|' tools/grub.cfg > $(BUILD)/iso/boot/grub/grub.cfg
	grub-mkrescue -o $@ $(BUILD)/iso >$(BUILD)/grub-mkrescue.log 2>&1 || { cat $(BUILD)/grub-mkrescue.log; exit 1; }

# One ISO with every scheduler's kernel and a GRUB menu (tools/grub-menu.sh):
# an entry per scheduler, a few workloads each, one that asks for the command
# line, and a timeout (MENU_TIMEOUT seconds) that boots the default.
ISO_ALL      := build/iso-all/schedlab.iso
MENU_TIMEOUT ?= 10
iso-all: check-deps
	@for s in $(SCHEDS); do \
	    $(MAKE) -s --no-print-directory SCHED=$$s HZ=$(HZ) LOCK=$(LOCK) CFLAGS_EXTRA='$(CFLAGS_EXTRA)' kernel || exit 1; \
	done
	@rm -rf build/iso-all/iso && mkdir -p build/iso-all/iso/boot/grub
	@for s in $(SCHEDS); do \
	    b=$$($(MAKE) -s --no-print-directory SCHED=$$s HZ=$(HZ) LOCK=$(LOCK) CFLAGS_EXTRA='$(CFLAGS_EXTRA)' print-build) && \
	    cp $$b/kernel.elf build/iso-all/iso/boot/$$s.elf || exit 1; \
	done
	@TIMEOUT_MENU=$(MENU_TIMEOUT) tools/grub-menu.sh $(DEFAULT_SCHED) $(SCHEDS) >build/iso-all/iso/boot/grub/grub.cfg
	@grub-mkrescue -o $(ISO_ALL) build/iso-all/iso >build/iso-all/grub-mkrescue.log 2>&1 || \
	    { cat build/iso-all/grub-mkrescue.log; exit 1; }
	@echo "iso-all: $(ISO_ALL): $(SCHEDS) (default $(DEFAULT_SCHED), menu timeout $(MENU_TIMEOUT) s)"

RUN_ARGS = --smp $(SMP) --mem $(MEM) --accel $(ACCEL) --timeout $(TIMEOUT)

run-iso-all: iso-all
	@tools/qemu-run.sh $(RUN_ARGS) --iso $(ISO_ALL)

run: kernel
	@tools/qemu-run.sh $(RUN_ARGS) --kernel $(BUILD)/kernel.elf --cmdline '$(CMDLINE)'

run-iso: iso
	@tools/qemu-run.sh $(RUN_ARGS) --iso $(BUILD)/kernel.iso

gdb: kernel
	@tools/qemu-run.sh $(RUN_ARGS) --kernel $(BUILD)/kernel.elf --cmdline '$(CMDLINE)' --gdb

test: check-deps tools
	@SCHEDLAB_DEPS_CHECKED=1 tests/run-all.sh

# Everything in make test and the long checks (docs/testing.md, "make test-long").
test-long: check-deps tools
	@SCHEDLAB_DEPS_CHECKED=1 TEST_LONG=1 tests/run-all.sh

# One scheduler's checks in under a minute (make check SCHED=simple), for
# whoever edits sched/<name>.c: tests/run-all.sh sched <name>.
check: check-sched check-deps
	@SCHEDLAB_DEPS_CHECKED=1 tests/run-all.sh sched $(SCHED)

test-host: check-deps
	@SCHEDLAB_DEPS_CHECKED=1 tests/run-all.sh host

test-qemu: check-deps
	@SCHEDLAB_DEPS_CHECKED=1 tests/run-all.sh qemu

# The host tools (tools/schedlab: tables, comparisons, plots, reports).
tools: check-deps
	@$(MAKE) -s -C tools $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC))

# schedlab, its man pages and bash completion into PREFIX (make install PREFIX=$$HOME/.local)
PREFIX ?= /usr/local
install: tools
	@$(MAKE) -s -C tools install PREFIX='$(PREFIX)' DESTDIR='$(DESTDIR)'
	@echo "installed: $(DESTDIR)$(PREFIX)/bin/schedlab, man schedlab and schedlab-VERB, bash completion"

# Every deterministic figure of README.md and docs/*.md re-made by the command
# beside it and compared (tools/docs-check.sh, docs/testing.md); UPDATE=1 writes
# what the commands print into the pages instead (review with git diff);
# DOCS='README.md docs/x.md' checks those pages only.
docs-check: check-deps tools
	@SCHEDLAB_DEPS_CHECKED=1 tools/docs-check.sh $(if $(filter-out 0,$(UPDATE)),--update) $(DOCS)

# What a vsmp boot costs the host (o1 and goodness, 2/4/8 CPUs, hackbench and
# tbench), this tree against BASE (a git revision, default main) side by side
# (tools/bench-vsmp.sh, docs/vsmp.md); RUNS=n boots of each.
BENCH_BASE ?= main
bench-vsmp: check-deps
	@tools/bench-vsmp.sh --base '$(BENCH_BASE)' $(if $(RUNS),--runs '$(RUNS)')

# The seed 000 hackbench table (goodness vs o1) on this machine, beside the seed's numbers.
seed-table: tools
	@tools/schedlab seed-table

# A seeded randomized stress run (tools/stress.sh, docs/testing.md): N boots drawn
# from SEED (none: one is chosen and printed); SCHED=a,b and TIMEOUT=s only when given here.
N ?= 100
stress: check-deps
	@tools/stress.sh --boots '$(N)' $(if $(SEED),--seed '$(SEED)') $(if $(JOBS),--jobs '$(JOBS)') \
	    $(if $(filter command line,$(origin SCHED)),--sched '$(SCHED)') \
	    $(if $(filter command line,$(origin TIMEOUT)),--timeout '$(TIMEOUT)')

deps:
	@tools/deps.sh install

# Every need checked by the thing itself (tools/deps.sh verify lists them);
# the suite checks once and its own makes skip it (SCHEDLAB_DEPS_CHECKED=1).
check-deps:
	@[ "$(SCHEDLAB_DEPS_CHECKED)" = 1 ] || tools/deps.sh check

clean:
	rm -rf build

FORCE:

help:
	@echo "targets:"
	@echo "  all, kernel   build build/<SCHED>/kernel.elf (the default target)"
	@echo "  run           build and boot it under QEMU, serial console on stdout"
	@echo "  iso           build/<SCHED>/kernel.iso: GRUB, boots at once with CMDLINE"
	@echo "  run-iso       build the ISO and boot it"
	@echo "  iso-all       build/iso-all/schedlab.iso: every scheduler and a GRUB menu (MENU_TIMEOUT=10)"
	@echo "  run-iso-all   build that ISO and boot it"
	@echo "  gdb           boot with QEMU halted and a gdb script that loads the symbols"
	@echo "  test          the whole test suite (ends with \"N passed, N failed\")"
	@echo "  check         one scheduler's checks, under a minute: make check SCHED=<name>"
	@echo "  test-long     make test and the long checks (docs/testing.md)"
	@echo "  test-host     the host unit tests only (cmocka)"
	@echo "  test-qemu     the QEMU tests only"
	@echo "  tools         build/tools/schedlab (tools/schedlab builds it too)"
	@echo "  install       schedlab, its man pages and bash completion into PREFIX (/usr/local)"
	@echo "  bench-vsmp    host seconds per virtual CPU-second of vsmp boots, against BENCH_BASE=<rev> (main) side by side"
	@echo "  seed-table    seed 000's hackbench table, reproduced beside the seed's numbers"
	@echo "  docs-check    re-run the command behind every figure of README.md and docs/ (UPDATE=1 rewrites them)"
	@echo "  stress        N random boots from SEED (make stress N=1000 SEED=7; docs/testing.md)"
	@echo "  list-scheds   the schedulers (one sched/<name>.c each)"
	@echo "  list-machines the memory model's machine presets (machine= with CACHES=1)"
	@echo "  hostmodel-plugin  build/hostmodel.so: the memory model as a QEMU plugin (model=host, docs/caches.md)"
	@echo "  deps          install the Debian packages everything needs (as root)"
	@echo "  clean         remove build/"
	@echo "variables: SCHED=<$(SCHEDS)> (default o1) SMP=<n> (2) MEM=<MiB> (256)"
	@echo "           ACCEL=<tcg|kvm|icount|vsmp> (tcg) TIMEOUT=<s> (120) CMDLINE='<key=value ...>' HZ=<ticks/s> (1000)"
	@echo "           LOCK=<tas|ticket> (tas) CACHES=<0|1|host> (0; 1: the memory model in the guest; host: the plain kernel that takes model=host, the model in QEMU; docs/caches.md) CFLAGS_EXTRA='<flags>'"
	@echo "           (build settings: each gets its own build directory)"
	@echo "           make stress N=<boots> (100) SEED=<n> [JOBS=1|2] [SCHED=a,b] [TIMEOUT=<s per boot>] (docs/testing.md)"

# model=host (docs/caches.md, "The host model"): the memory model as a QEMU
# TCG plugin; tools/qemu-run.sh builds it when a boot line says model=host.
# -Bsymbolic: QEMU exports a cache_init of its own.
HOSTMODEL_PLUGIN := build/hostmodel.so
HOSTMODEL_SRCS := kernel/machine/host/hostmodel.c kernel/machine/cache.c kernel/machine/presets.c
.PHONY: hostmodel-plugin
hostmodel-plugin: $(HOSTMODEL_PLUGIN)
$(HOSTMODEL_PLUGIN): $(HOSTMODEL_SRCS) kernel/machine/cache.h
	@mkdir -p $(dir $@)
	@echo "  CC    $@"
	$(Q)$(CC) -shared -fPIC -O3 -Wall -Wextra -Werror -fvisibility=hidden -Wl,-Bsymbolic -DHOST_TEST -o $@.$$$$ $(HOSTMODEL_SRCS) -ldl && mv $@.$$$$ $@
