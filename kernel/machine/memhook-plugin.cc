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
 * loadN/storeN: GCC's ASan uses them for an access whose alignment is
 * below its size (i386's 64-bit integers are 4-byte aligned in structs:
 * every u64 field, cfs's vruntime, the clocks); one of size 1, 2, 4, 8 or
 * 16 becomes the asm of that size like any other.  Others (struct copies)
 * stay calls: their callers' spills are the kernel's time.
 *
 * Each site also says what it accesses, for the per-object report
 * (memhooks.c, memline object= lines): a record in section .memhook_sites,
 * the site's return address and a name, "task.on_cpu" (a field of the
 * struct a pointer points to), "@runqueues[].lock.locked" (a global),
 * "int" (a scalar through a pointer), "?" (an address the plugin cannot
 * name).  The asm is marked inline (asm inline), so that GCC's inliner
 * counts it as one instruction whatever its text: the records are data,
 * and the code is the four instructions above.
 */
#include <string>
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
 * of the memory operand %0 in eax, kept around the call; then the site's
 * record (its return address, what it accesses). */
static const char *asm_text(const char *base, const char *what)
{
    static char buf[512];
    snprintf(buf, sizeof(buf),
             "pushl %%%%eax\n\tleal %%0, %%%%eax\n\tcall __memhook_%s\n"
             ".Lmhr%%=:\n\tpopl %%%%eax\n"
             "\t.pushsection .memhook_sites,\"a\"\n\t.long .Lmhr%%=, .Lmhn%%=\n\t.popsection\n"
             "\t.pushsection .rodata.memhook_names,\"aMS\",@progbits,1\n.Lmhn%%=:\t.asciz \"%s\"\n\t.popsection",
             base, what);
    return buf;
}

static std::string type_name(tree type)
{
    while (TREE_CODE(type) == ARRAY_TYPE)     /* an array of structs: the struct */
        type = TREE_TYPE(type);
    tree n = TYPE_NAME(type);
    if (n && TREE_CODE(n) == TYPE_DECL)
        n = DECL_NAME(n);
    if (n && TREE_CODE(n) == IDENTIFIER_NODE)
        return IDENTIFIER_POINTER(n);
    if (INTEGRAL_TYPE_P(type))
        return "int";
    if (POINTER_TYPE_P(type))
        return "ptr";
    return "?";
}

/* What a memory reference is, for people: the struct (or global) and the
 * fields and indices on the way to the accessed bytes. */
static std::string describe(tree ref)
{
    std::string path;
    tree t = ref;
    for (int depth = 0; depth < 16; depth++) {
        if (TREE_CODE(t) == COMPONENT_REF) {
            tree f = TREE_OPERAND(t, 1);
            path = std::string(".") + (DECL_NAME(f) ? IDENTIFIER_POINTER(DECL_NAME(f)) : "?") + path;
            t = TREE_OPERAND(t, 0);
        } else if (TREE_CODE(t) == ARRAY_REF || TREE_CODE(t) == ARRAY_RANGE_REF) {
            path = "[]" + path;
            t = TREE_OPERAND(t, 0);
        } else if (TREE_CODE(t) == REALPART_EXPR || TREE_CODE(t) == IMAGPART_EXPR ||
                   TREE_CODE(t) == VIEW_CONVERT_EXPR || TREE_CODE(t) == BIT_FIELD_REF) {
            t = TREE_OPERAND(t, 0);
        } else {
            break;
        }
    }
    std::string base;
    if (DECL_P(t) && DECL_NAME(t))
        base = std::string("@") + IDENTIFIER_POINTER(DECL_NAME(t));
    else if (TREE_CODE(t) == MEM_REF || TREE_CODE(t) == TARGET_MEM_REF)
        base = TREE_TYPE(t) == char_type_node && path.empty() ? "?" : type_name(TREE_TYPE(t));
    else
        base = "?";
    std::string s = base + path;
    for (char &c : s)
        if (!ISALNUM(c) && c != '_' && c != '.' && c != '[' && c != ']' && c != '@' && c != '?')
            c = '_';
    return s.size() > 80 ? s.substr(0, 80) : s;
}

static const char *callback_base(tree fndecl, gimple *call)
{
    if (!fndecl || !fndecl_built_in_p(fndecl, BUILT_IN_NORMAL))
        return NULL;
    switch (DECL_FUNCTION_CODE(fndecl)) {
    case BUILT_IN_ASAN_LOADN_NOABORT:
    case BUILT_IN_ASAN_STOREN_NOABORT: {
        /* (addr, size): a constant size the entry points have */
        static const char *const loads[] = { NULL, "load1", "load2", NULL, "load4", NULL, NULL, NULL, "load8" };
        static const char *const stores[] = { NULL, "store1", "store2", NULL, "store4", NULL, NULL, NULL, "store8" };
        tree size = gimple_call_num_args(call) == 2 ? gimple_call_arg(call, 1) : NULL_TREE;
        if (size && TREE_CODE(size) == SSA_NAME && is_gimple_assign(SSA_NAME_DEF_STMT(size)) &&
            (CONVERT_EXPR_CODE_P(gimple_assign_rhs_code(SSA_NAME_DEF_STMT(size))) ||
             gimple_assign_rhs_code(SSA_NAME_DEF_STMT(size)) == INTEGER_CST))
            size = gimple_assign_rhs1(SSA_NAME_DEF_STMT(size));     /* _14 = (unsigned int) 8 */
        if (!size || TREE_CODE(size) != INTEGER_CST || !tree_fits_uhwi_p(size))
            return NULL;
        unsigned HOST_WIDE_INT n = tree_to_uhwi(size);
        bool store = DECL_FUNCTION_CODE(fndecl) == BUILT_IN_ASAN_STOREN_NOABORT;
        if (n == 16)
            return store ? "store16" : "load16";
        return n <= 8 ? (store ? stores[n] : loads[n]) : NULL;
    }
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
                const char *base = callback_base(gimple_call_fndecl(stmt), stmt);
                if (!base || gimple_call_num_args(stmt) < 1)
                    continue;
                /* The access as a memory operand: the reference the
                 * instrumentation took the address of (so that the compiler
                 * gives it the access's own addressing mode and computes no
                 * address), else (char *)addr dereferenced. */
                tree addr = gimple_call_arg(stmt, 0);
                tree size = gimple_call_num_args(stmt) == 2 ? gimple_call_arg(stmt, 1) : NULL_TREE;
                tree mem = access_ref(addr);
                std::string what = mem ? describe(mem) : "?";
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
                gasm *a = gimple_build_asm_vec(asm_text(base, what.c_str()), inputs, NULL, NULL, NULL);
                gimple_asm_set_volatile(a, true);
                gimple_asm_set_inline(a, true);
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
                if (size)
                    drop_if_dead(size);
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
