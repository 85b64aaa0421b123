/*
 * A QEMU TCG plugin for tools/vsmp-insn-profile.sh: how many times each
 * translation block ran, and how many guest instructions it has; written
 * at exit as "vaddr instructions executions" lines to $INSN_PROFILE_OUT.
 * A block is counted by an inline add (no callback), so the guest runs as
 * it runs without the plugin: under icount and vsmp the same instructions,
 * the same figures.
 *
 * QEMU 7.2's plugin API (include/qemu/qemu-plugin.h, QEMU_PLUGIN_VERSION
 * 1): only the few calls used here are declared, because Debian's QEMU
 * does not install the header.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
typedef struct qemu_info_t qemu_info_t;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, void (*cb)(qemu_plugin_id_t, struct qemu_plugin_tb *));
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, enum qemu_plugin_op op, void *ptr, uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, void (*cb)(qemu_plugin_id_t, void *), void *userdata);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

/* One per translation (a block translated again gets another). */
struct block {
    uint64_t vaddr, insns, execs;
    struct block *next;
};
static struct block *blocks;
static pthread_mutex_t blocks_lock = PTHREAD_MUTEX_INITIALIZER;

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
    (void)id;
    struct block *b = calloc(1, sizeof *b);
    if (!b)
        abort();
    b->vaddr = qemu_plugin_tb_vaddr(tb);
    b->insns = qemu_plugin_tb_n_insns(tb);
    pthread_mutex_lock(&blocks_lock);
    b->next = blocks;
    blocks = b;
    pthread_mutex_unlock(&blocks_lock);
    qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &b->execs, 1);
}

static void finished(qemu_plugin_id_t id, void *unused)
{
    (void)id, (void)unused;
    const char *path = getenv("INSN_PROFILE_OUT");
    FILE *f = path ? fopen(path, "w") : NULL;
    if (!f) {
        fprintf(stderr, "insn-profile-plugin: cannot write %s\n", path ? path : "(INSN_PROFILE_OUT unset)");
        return;
    }
    for (struct block *b = blocks; b; b = b->next)
        if (b->execs)
            fprintf(f, "%llx %llu %llu\n", (unsigned long long)b->vaddr, (unsigned long long)b->insns,
                    (unsigned long long)b->execs);
    fclose(f);
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc,
                                                               char **argv)
{
    (void)info, (void)argc, (void)argv;
    qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
    qemu_plugin_register_atexit_cb(id, finished, NULL);
    return 0;
}
