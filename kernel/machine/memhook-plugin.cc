/*
 * memhook-plugin: a GCC plugin for CACHES=1 builds (docs/caches.md,
 * "Exactness").  A host program: the Makefile builds it with g++ against
 * GCC's plugin headers (Debian's gcc-12-plugin-dev) and loads it with
 * -fplugin= when it compiles the kernel, the scheduler and the workloads.
 *
 * -fsanitize=kernel-address with asan-instrumentation-with-call-threshold=0
 * finds every load and store and, in its sanopt pass, turns each check
 * into a call, __asan_load4_noabort(addr).  Left as they are, those calls
 * clobber eax, ecx and edx like any cdecl call, so the register allocator
 * spills around them, and the spills are instructions the clock counts
 * that no callback can tell apart from the kernel's own (1.1 to 1.8 an
 * access: 10-25% of a pipe round trip).  This pass runs after sanopt and
 * replaces each such call by an asm statement whose one input is the
 * accessed memory itself, as a memory operand, and which clobbers nothing
 * but the flags:
 *
 *     pushl %eax ; leal <the access's addressing mode>, %eax ;
 *     call __memhook_load4 ; popl %eax
 *
 * The entry points (kernel/machine/memhook-thunks.S) save and restore
 * every other register they use.  The register allocator sees an asm that
 * needs no register (the addressing mode is the access's own), so it
 * spills nothing and computes no address it would not have: a site costs
 * exactly these four instructions and the entry point, which memhooks.c
 * measures at boot.
 *
 * loadN/storeN (accesses of a size not 1, 2, 4, 8 or 16) stay calls.
 */
#include <gcc-plugin.h>
#include <plugin-version.h>
#include <tree.h>
#include <tree-pass.h>
#include <context.h>
#include <function.h>
#include <basic-block.h>
#include <gimple.h>
#include <gimple-iterator.h>
#include <stringpool.h>
#include <builtins.h>
#include <ssa.h>
#include <gimplify.h>

int plugin_is_GPL_compatible;

/* The asm text for the callback named base (e.g. "load4"): the address
 * of the memory operand %0 in eax, kept around the call. */
static const char *asm_text(const char *base)
{
    static char buf[160];
    snprintf(buf, sizeof(buf), "pushl %%%%eax\n\tleal %%0, %%%%eax\n\tcall __memhook_%s\n\tpopl %%%%eax", base);
    return buf;
}

static const char *callback_base(tree fndecl)
{
    if (!fndecl || !fndecl_built_in_p(fndecl, BUILT_IN_NORMAL))
        return NULL;
    switch (DECL_FUNCTION_CODE(fndecl)) {
    case BUILT_IN_ASAN_LOAD1_NOABORT: return "load1";
    case BUILT_IN_ASAN_LOAD2_NOABORT: return "load2";
    case BUILT_IN_ASAN_LOAD4_NOABORT: return "load4";
    case BUILT_IN_ASAN_LOAD8_NOABORT: return "load8";
    case BUILT_IN_ASAN_LOAD16_NOABORT: return "load16";
    case BUILT_IN_ASAN_STORE1_NOABORT: return "store1";
    case BUILT_IN_ASAN_STORE2_NOABORT: return "store2";
    case BUILT_IN_ASAN_STORE4_NOABORT: return "store4";
    case BUILT_IN_ASAN_STORE8_NOABORT: return "store8";
    case BUILT_IN_ASAN_STORE16_NOABORT: return "store16";
    default: return NULL;
    }
}

/* What addr (the instrumentation's argument: (unsigned long) &ref, or a
 * pointer plus a constant) is the address of, as a memory reference; NULL
 * when it is something else. */
static tree access_ref(tree addr)
{
    for (int depth = 0; depth < 4 && TREE_CODE(addr) == SSA_NAME; depth++) {
        gimple *def = SSA_NAME_DEF_STMT(addr);
        if (!is_gimple_assign(def))
            return NULL;
        enum tree_code code = gimple_assign_rhs_code(def);
        tree rhs = gimple_assign_rhs1(def);
        if (CONVERT_EXPR_CODE_P(code) || code == SSA_NAME) {
            addr = rhs;
            continue;
        }
        if (code == ADDR_EXPR) {
            tree ref = TREE_OPERAND(rhs, 0);
            if (TREE_CODE(ref) == COMPONENT_REF && DECL_BIT_FIELD(TREE_OPERAND(ref, 1)))
                return NULL;
            if (!REFERENCE_CLASS_P(ref) && !DECL_P(ref))
                return NULL;
            return unshare_expr(ref);
        }
        if (code == POINTER_PLUS_EXPR && TREE_CODE(rhs) == SSA_NAME &&
            TREE_CODE(gimple_assign_rhs2(def)) == INTEGER_CST) {
            tree cptr = build_pointer_type(char_type_node);
            return build2(MEM_REF, char_type_node, rhs,
                          fold_convert(cptr, gimple_assign_rhs2(def)));
        }
        return NULL;
    }
    if (TREE_CODE(addr) == SSA_NAME && POINTER_TYPE_P(TREE_TYPE(addr))) {
        tree cptr = build_pointer_type(char_type_node);
        return build2(MEM_REF, char_type_node, addr, build_int_cst(cptr, 0));
    }
    return NULL;
}

/* The address computation nothing uses any more goes (it was only the
 * instrumentation's). */
static void drop_if_dead(tree name)
{
    for (int depth = 0; depth < 4 && TREE_CODE(name) == SSA_NAME && has_zero_uses(name); depth++) {
        gimple *def = SSA_NAME_DEF_STMT(name);
        if (!is_gimple_assign(def) || gimple_has_side_effects(def))
            return;
        tree next = gimple_assign_rhs1(def);
        gimple_stmt_iterator g = gsi_for_stmt(def);
        gsi_remove(&g, true);
        release_defs(def);
        name = next;
    }
}

namespace {
const pass_data memhook_pass_data = {
    GIMPLE_PASS, "memhook", OPTGROUP_NONE, TV_NONE, PROP_cfg, 0, 0, 0, 0,
};

struct memhook_pass : gimple_opt_pass {
    memhook_pass(gcc::context *ctx) : gimple_opt_pass(memhook_pass_data, ctx) {}
    bool gate(function *) override { return true; }
    unsigned int execute(function *fun) override
    {
        basic_block bb;
        FOR_EACH_BB_FN(bb, fun) {
            for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi); gsi_next(&gsi)) {
                gimple *stmt = gsi_stmt(gsi);
                if (!is_gimple_call(stmt))
                    continue;
                const char *base = callback_base(gimple_call_fndecl(stmt));
                if (!base || gimple_call_num_args(stmt) != 1)
                    continue;
                /* The access as a memory operand: the reference the
                 * instrumentation took the address of (so that the compiler
                 * gives it the access's own addressing mode and computes no
                 * address), else (char *)addr dereferenced. */
                tree addr = gimple_call_arg(stmt, 0);
                tree mem = access_ref(addr);
                if (!mem) {
                    tree cptr = build_pointer_type(char_type_node);
                    tree p = make_ssa_name(cptr);
                    gimple *conv = gimple_build_assign(p, NOP_EXPR, addr);
                    gsi_insert_before(&gsi, conv, GSI_SAME_STMT);
                    mem = build2(MEM_REF, char_type_node, p, build_int_cst(cptr, 0));
                }
                vec<tree, va_gc> *inputs = NULL;
                tree constraint = build_string(2, "m");
                vec_safe_push(inputs, build_tree_list(build_tree_list(NULL_TREE, constraint), mem));
                gasm *a = gimple_build_asm_vec(asm_text(base), inputs, NULL, NULL, NULL);
                gimple_asm_set_volatile(a, true);
                gimple_set_location(a, gimple_location(stmt));
                /* The call's place in the chain of memory states (virtual
                 * SSA) goes to the asm, which reads memory as it did. */
                gimple_set_vuse(a, gimple_vuse(stmt));
                tree vdef = gimple_vdef(stmt);
                if (vdef) {
                    gimple_set_vdef(a, vdef);
                    SSA_NAME_DEF_STMT(vdef) = a;
                }
                gsi_replace(&gsi, a, true);
                drop_if_dead(addr);
            }
        }
        return 0;
    }
};
} // namespace

int plugin_init(struct plugin_name_args *info, struct plugin_gcc_version *version)
{
    if (!plugin_default_version_check(version, &gcc_version)) {
        fprintf(stderr, "memhook-plugin: built for GCC %s, loaded by another\n", gcc_version.basever);
        return 1;
    }
    struct register_pass_info pass;
    pass.pass = new memhook_pass(g);
    pass.reference_pass_name = "sanopt";
    pass.ref_pass_instance_number = 1;
    pass.pos_op = PASS_POS_INSERT_AFTER;
    register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &pass);
    return 0;
}
