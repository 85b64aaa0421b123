# schedlab - a small SMP x86 kernel for measuring CPU schedulers.
#
#   make [SCHED=o1]         build build/<sched>/kernel.elf
#   make run                boot it under QEMU (serial on stdout)
#   make test               the whole test suite (ends with "N passed, N failed")
#   make help               every target and variable
#
# A scheduler is one file sched/<name>.c; the list below is found by wildcard.

SCHEDS      := $(sort $(basename $(notdir $(filter-out sched/sched.h,$(wildcard sched/*.c)))))
SCHED       ?= o1
SMP         ?= 2
MEM         ?= 256
ACCEL       ?= tcg
TIMEOUT     ?= 120
CMDLINE     ?=
HZ          ?= 1000
Q           ?= @            # make Q= shows every command

BUILD       := build/$(SCHED)
CC          := gcc
LD          := ld
KCFLAGS     := -m32 -march=i686 -std=gnu11 -O2 -g -ffreestanding -fno-builtin -fno-stack-protector \
               -fno-pic -fno-pie -fno-omit-frame-pointer -mno-sse -mno-mmx -mno-80387 -mno-red-zone \
               -fno-asynchronous-unwind-tables -Wall -Wextra -Werror -Wno-unused-parameter -Wno-array-bounds \
               -DHZ=$(HZ) $(CFLAGS_EXTRA)
KASFLAGS    := -m32 -march=i686 -g -DHZ=$(HZ)
LIBGCC      := $(shell $(CC) -m32 -print-libgcc-file-name 2>/dev/null)

KERNEL_SRCS := $(wildcard kernel/*.c) $(wildcard workloads/*.c) sched/$(SCHED).c
KERNEL_ASMS := boot/boot.S boot/trampoline.S $(wildcard kernel/*.S)
KERNEL_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(KERNEL_SRCS)) $(patsubst %.S,$(BUILD)/%.o,$(KERNEL_ASMS))

.PHONY: all kernel iso run run-iso gdb test test-host test-qemu deps check-deps check-sched clean help list-scheds tools seed-table

all: kernel
kernel: check-sched check-deps $(BUILD)/kernel.elf

check-sched:
	@case " $(SCHEDS) " in *" $(SCHED) "*) ;; *) echo "error: SCHED=$(SCHED) is not a scheduler; choose one of: $(SCHEDS)" >&2; exit 2;; esac

list-scheds:
	@echo $(SCHEDS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC    $<"
	$(Q)$(CC) $(KCFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/%.o: %.S
	@mkdir -p $(dir $@)
	@echo "  AS    $<"
	$(Q)$(CC) $(KASFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/kernel.elf: $(KERNEL_OBJS) linker.ld
	@echo "  LD    $@"
	$(Q)$(LD) -m elf_i386 -z noexecstack -T linker.ld -o $@ $(KERNEL_OBJS) $(LIBGCC)

-include $(KERNEL_OBJS:.o=.d)

# A GRUB (multiboot) ISO whose default entry boots at once with the default workload.
iso: kernel $(BUILD)/kernel.iso
# Always rebuilt: CMDLINE is baked into grub.cfg.
$(BUILD)/kernel.iso: $(BUILD)/kernel.elf tools/grub.cfg FORCE
	@rm -rf $(BUILD)/iso && mkdir -p $(BUILD)/iso/boot/grub
	cp $(BUILD)/kernel.elf $(BUILD)/iso/boot/kernel.elf
	sed 's|@CMDLINE@|$(CMDLINE)|' tools/grub.cfg > $(BUILD)/iso/boot/grub/grub.cfg
	grub-mkrescue -o $@ $(BUILD)/iso >$(BUILD)/grub-mkrescue.log 2>&1 || { cat $(BUILD)/grub-mkrescue.log; exit 1; }

RUN_ARGS = --smp $(SMP) --mem $(MEM) --accel $(ACCEL) --timeout $(TIMEOUT)

run: kernel
	@tools/qemu-run.sh $(RUN_ARGS) --kernel $(BUILD)/kernel.elf --cmdline '$(CMDLINE)'

run-iso: iso
	@tools/qemu-run.sh $(RUN_ARGS) --iso $(BUILD)/kernel.iso

gdb: kernel
	@tools/qemu-run.sh $(RUN_ARGS) --kernel $(BUILD)/kernel.elf --cmdline '$(CMDLINE)' --gdb

test: check-deps tools
	@tests/run-all.sh

test-host: check-deps
	@tests/run-all.sh host

test-qemu: check-deps
	@tests/run-all.sh qemu

# The host tools (tools/schedlab: tables, comparisons, plots, reports).
tools: check-deps
	@$(MAKE) -s -C tools

# The seed 000 hackbench table (goodness vs o1) on this machine, beside the seed's numbers.
seed-table: tools
	@tools/schedlab seed-table

deps:
	@tools/deps.sh install

check-deps:
	@tools/deps.sh check

clean:
	rm -rf build

FORCE:

help:
	@echo "targets: all run run-iso iso gdb test test-host test-qemu deps clean list-scheds tools seed-table"
	@echo "variables: SCHED=<$(SCHEDS)> (default o1) SMP=<n> (2) MEM=<MiB> (256)"
	@echo "           ACCEL=<tcg|kvm|icount> (tcg) TIMEOUT=<s> (120) CMDLINE='<key=value ...>' HZ=<ticks/s> (1000)"
