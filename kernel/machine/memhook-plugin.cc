/*
 * memhook-plugin: a GCC plugin for CACHES=1 builds (docs/caches.md,
 * "Exactness").  A host program: the Makefile builds it with g++ against
 * GCC's plugin headers (Debian's gcc-12-plugin-dev) and loads it with
 * -fplugin= when it compiles the kernel, the scheduler and the workloads.
 *
 * It runs after register allocation, scheduling and the machine's own
 * last pass ("mach"), when every instruction is final, and puts before
 * each instruction that reads or writes memory outside the stack frame
 *
 *     pushl %eax ; leal <the access's own addressing mode>, %eax ;
 *     call __memhook_load4 ; popl %eax
 *
 * (store4 for a write, load and store for a read-modify-write such as
 * addl $1, 8(%edx); sizes 1, 2, 4, 8, 16).  The compiler has made every
 * decision by then, so the instrumented function is the plain build's
 * instruction for instruction with these four inserted: no spill, no
 * address computed for the instrumentation, no optimisation it blocked.
 * (Before, GCC's -fsanitize=kernel-address found the accesses in GIMPLE
 * and this plugin turned its calls into asm statements; the compiler then
 * allocated registers and scheduled around those, and the instrumented
 * code differed from the plain build's by 0.15 instructions an access:
 * 28 a context switch of o1, docs/caches.md.)  The entry points
 * (kernel/machine/memhook-thunks.S) keep every register and the flags
 * (a site may sit between a compare and the sbb that reads its carry),
 * and memhooks.c measures their cost at boot and owes it back.
 *
 * What is an access: a MEM of a non-asm, non-jump instruction whose
 * address uses neither %esp nor %ebp (those are the frame: locals,
 * arguments, spills, pushes, as ASan with asan-stack=0 left them) and is
 * in the generic address space (%gs-relative per-CPU data is asm here).
 * A call's own MEM is the code called; call *16(%eax) loads the pointer.
 * Not instrumented: inline asm (the locked instructions have
 * machine_atomic, kernel/spinlock.h), jump tables, string instructions
 * (BLKmode; memcpy and friends are string.c's, charged as ranges), and an
 * access of another size (none on i686 without x87/SSE code).  A 64-bit
 * integer is two 4-byte accesses, as i686 made them.
 *
 * Each site also says what it accesses, for the per-object report
 * (memhooks.c, memline object= lines): a record in section .memhook_sites,
 * the site's return address and a name from the access's MEM_EXPR (the C
 * expression GCC keeps for alias analysis), "task.on_cpu" (a field of the
 * struct a pointer points to), "@runqueues[].lock.locked" (a global),
 * "int" (a scalar through a pointer), "?" (an address the plugin cannot
 * name).
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
#include <rtl.h>
#include <memmodel.h>
#include <emit-rtl.h>
#include <rtl-iter.h>

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

/* A hard register that addresses the stack: an access through it is a
 * local, an argument or a spill (not instrumented, as GCC's ASan with
 * asan-stack=0 left a function's own frame alone). */
static bool frame_address(rtx addr)
{
    subrtx_iterator::array_type array;
    FOR_EACH_SUBRTX(iter, array, addr, ALL) {
        const_rtx x = *iter;
        if (REG_P(x) && (REGNO(x) == STACK_POINTER_REGNUM || REGNO(x) == HARD_FRAME_POINTER_REGNUM ||
                         REGNO(x) == FRAME_POINTER_REGNUM || REGNO(x) == ARG_POINTER_REGNUM))
            return true;
    }
    return false;
}

struct mem_access { rtx mem; bool store; };

static void add_access(vec<mem_access> &out, rtx mem, bool store)
{
    for (unsigned i = 0; i < out.length(); i++)
        if (out[i].store == store && rtx_equal_p(out[i].mem, mem))
            return;
    out.safe_push({mem, store});
}

/* The memory an insn reads and writes: a SET's destination is written (a
 * part of it, ZERO_EXTRACT or STRICT_LOW_PART, read and written), anything
 * else read; a CALL's own MEM is the code called (its address may be a
 * load: call *16(%eax)). */
static void walk(rtx x, vec<mem_access> &out, bool store)
{
    if (!x)
        return;
    switch (GET_CODE(x)) {
    case MEM:
        add_access(out, x, store);
        return;
    case SET:
        if (GET_CODE(SET_DEST(x)) == ZERO_EXTRACT || GET_CODE(SET_DEST(x)) == STRICT_LOW_PART ||
            GET_CODE(SET_DEST(x)) == SUBREG) {
            rtx inner = XEXP(SET_DEST(x), 0);
            if (MEM_P(inner)) {
                add_access(out, inner, false);
                add_access(out, inner, true);
            }
        } else {
            walk(SET_DEST(x), out, true);
        }
        walk(SET_SRC(x), out, false);
        return;
    case CALL:
        if (MEM_P(XEXP(x, 0)))
            walk(XEXP(XEXP(x, 0), 0), out, false);
        return;
    case CLOBBER: case USE: case PC: case REG: case SCRATCH: case CONST_INT: case SYMBOL_REF:
    case LABEL_REF: case CONST:
        return;
    default:
        break;
    }
    const char *fmt = GET_RTX_FORMAT(GET_CODE(x));
    for (int i = 0; i < GET_RTX_LENGTH(GET_CODE(x)); i++) {
        if (fmt[i] == 'e')
            walk(XEXP(x, i), out, false);
        else if (fmt[i] == 'E')
            for (int j = 0; j < XVECLEN(x, i); j++)
                walk(XVECEXP(x, i, j), out, false);
    }
}

static bool is_asm(rtx pat)
{
    if (GET_CODE(pat) == ASM_INPUT || GET_CODE(pat) == ASM_OPERANDS)
        return true;
    if (GET_CODE(pat) == SET && GET_CODE(SET_SRC(pat)) == ASM_OPERANDS)
        return true;
    if (GET_CODE(pat) == PARALLEL)
        for (int i = 0; i < XVECLEN(pat, 0); i++)
            if (is_asm(XVECEXP(pat, 0, i)))
                return true;
    return false;
}

static unsigned long sites_made, sites_skipped;    /* for a debugger */

/* Put the four instructions of one access to mem before insn. */
static void insert_site(rtx_insn *insn, rtx mem, bool store, const char *what)
{
    char base[16];
    HOST_WIDE_INT n = GET_MODE_SIZE(GET_MODE(mem)).to_constant();
    snprintf(base, sizeof(base), "%s%d", store ? "store" : "load", (int)n);
    location_t loc = INSN_LOCATION(insn);
    rtx op = copy_rtx(mem);
    rtvec inputs = gen_rtvec(1, op);
    rtvec constraints = gen_rtvec(1, gen_rtx_ASM_INPUT_loc(GET_MODE(op), ggc_strdup("m"), loc));
    rtvec labels = rtvec_alloc(0);
    rtx a = gen_rtx_ASM_OPERANDS(VOIDmode, ggc_strdup(asm_text(base, what)), "", 0,
                                 inputs, constraints, labels, loc);
    MEM_VOLATILE_P(a) = 1;
    rtx_insn *made = emit_insn_before(a, insn);
    INSN_LOCATION(made) = loc;
    sites_made++;
}

namespace {
const pass_data memhook_pass_data = {
    RTL_PASS, "memhook", OPTGROUP_NONE, TV_NONE, 0, 0, 0, 0, 0,
};

struct memhook_pass : rtl_opt_pass {
    memhook_pass(gcc::context *ctx) : rtl_opt_pass(memhook_pass_data, ctx) {}
    bool gate(function *) override { return true; }
    unsigned int execute(function *) override
    {
        auto_vec<mem_access> acc;
        for (rtx_insn *insn = get_insns(); insn; insn = NEXT_INSN(insn)) {
            if (!NONDEBUG_INSN_P(insn) || JUMP_P(insn))
                continue;
            rtx pat = PATTERN(insn);
            if (GET_CODE(pat) == USE || GET_CODE(pat) == CLOBBER || is_asm(pat))
                continue;
            acc.truncate(0);
            walk(pat, acc, false);
            for (unsigned i = 0; i < acc.length(); i++) {
                rtx mem = acc[i].mem;
                if (MEM_ADDR_SPACE(mem) != ADDR_SPACE_GENERIC || frame_address(XEXP(mem, 0)))
                    continue;
                /* BLKmode: a fence's or a blockage's (mem:BLK (scratch)); GCC
                 * copies and clears structs with moves here (no SSE), and
                 * the kernel's rep movs are inline asm or string.c's. */
                if (GET_MODE(mem) == BLKmode) {
                    sites_skipped++;
                    continue;
                }
                HOST_WIDE_INT n = GET_MODE_SIZE(GET_MODE(mem)).to_constant();
                if (n != 1 && n != 2 && n != 4 && n != 8 && n != 16) {
                    sites_skipped++;
                    continue;
                }
                tree expr = MEM_EXPR(mem);
                insert_site(insn, mem, acc[i].store, expr ? describe(expr).c_str() : "?");
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
    pass.reference_pass_name = "mach";
    pass.ref_pass_instance_number = 1;
    pass.pos_op = PASS_POS_INSERT_AFTER;
    register_callback(info->base_name, PLUGIN_PASS_MANAGER_SETUP, NULL, &pass);
    return 0;
}
