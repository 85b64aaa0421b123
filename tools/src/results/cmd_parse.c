/*
 * parse LOG...: the serial protocol's lines of console logs (proto.c,
 * kernel/protocol.h) as TSV or JSON, for scripts and people; --rows: one
 * log as collect reads it, results.csv rows and the boot's verdict.
 * field KEY [LOG...]: the values of one key, a line each (what the tests
 * and scripts use instead of sed over result lines).
 */
#include "cmds.h"
#include "cli.h"
#include "logparse.h"
#include "proto.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ---- the filter both verbs share: --kind, --where KEY=VALUE ---- */

struct filter {
    const char *kind;         /* NULL: every line with key=value words */
    char **where_key, **where_value;
    size_t nwhere;
};

static void filter_init(struct filter *f, const struct opts *o)
{
    memset(f, 0, sizeof(*f));
    f->kind = o->kind;
    for (const char *w = o->where; w && *w;) {
        const char *nl = strchr(w, '\n'), *end = nl ? nl : w + strlen(w), *eq = memchr(w, '=', (size_t)(end - w));
        f->where_key = xrealloc(f->where_key, (f->nwhere + 1) * sizeof(char *));
        f->where_value = xrealloc(f->where_value, (f->nwhere + 1) * sizeof(char *));
        f->where_key[f->nwhere] = xstrndup(w, (size_t)(eq - w));
        f->where_value[f->nwhere] = xstrndup(eq + 1, (size_t)(end - eq - 1));
        f->nwhere++;
        w = nl ? nl + 1 : end;
    }
}

static void filter_free(struct filter *f)
{
    for (size_t i = 0; i < f->nwhere; i++) {
        free(f->where_key[i]);
        free(f->where_value[i]);
    }
    free(f->where_key);
    free(f->where_value);
}

static bool filter_match(const struct filter *f, const struct proto_line *l)
{
    if (f->kind ? !proto_word_is(l->word, f->kind) : l->n == 0)
        return false;
    for (size_t i = 0; i < f->nwhere; i++)
        if (!streq(proto_get(l, f->where_key[i]), f->where_value[i]))
            return false;
    return true;
}

/* Reads a log: a path, or "-" for stdin. */
static char *read_log(const char *path, size_t *len)
{
    if (strcmp(path, "-"))
        return read_file(path, len);
    struct strbuf b = { 0 };
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof(buf), stdin)) > 0)
        sb_addn(&b, buf, n);
    *len = b.len;
    if (!b.s)
        b.s = xstrdup("");
    return b.s;
}

/* ---- parse ---- */

static const struct verb_spec parse_spec = {
    "parse", OPT_KIND | OPT_WHERE | OPT_FORMAT | OPT_ROWS | OPT_SCHED | OPT_SMP | OPT_BOOT | OPT_RC | OPT_CMDLINE,
    "usage: schedlab parse LOG... [--kind KIND] [--where KEY=VALUE]... [--format tsv|json]\n"
    "       schedlab parse LOG --rows --sched S [--smp N] [--boot B] [--rc RC] [--cmdline '...']\n"
    "  The lines of console logs that follow the serial protocol (docs/protocol.md), split into\n"
    "  their keys: TSV (a header: file, line, kind, problem, text, then every key seen, in the\n"
    "  order first seen; an empty cell where a line lacks the key) or JSON (an array of objects:\n"
    "  file, line, kind, problem, keys, text).  text is the line after its first word; problem\n"
    "  says what breaks the kind's declaration (kernel/protocol.h), empty when nothing does.\n"
    "  --kind: only lines of that kind (schedstat, boot, or a workload's own lines: maxgroups);\n"
    "  --where: only lines where KEY has that value (several: all of them).  LOG - is stdin.\n"
    "  --rows: one log as collect reads it: its results.csv rows on stdout and the boot's verdict\n"
    "  on stderr; RC is tools/qemu-run.sh's exit status (-1: the boot never finished).\n"
    "  Exit: 0; with --rows 3 when the boot failed; 1 unreadable input, 2 usage error.\n",
    "tsv|json",
};

struct collected {
    const struct filter *f;
    const char *file;
    struct proto_line *lines;
    size_t *lineno;
    const char **files;
    size_t n, cap;
};

static void collect_line(const char *line, size_t len, size_t no, bool cut, void *arg)
{
    struct collected *c = arg;
    struct proto_line l;
    proto_parse(line, len, &l);
    if (cut && !l.problem)
        l.problem = xstrdup("cut off (the log ends inside it)");
    /* every line of a declared kind (error: and the like have no keys) and every other line with keys */
    bool take = filter_match(c->f, &l) || (!c->f->kind && !c->f->nwhere && l.kind >= 0);
    if (!take) {
        proto_line_free(&l);
        return;
    }
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 64;
        c->lines = xrealloc(c->lines, c->cap * sizeof(*c->lines));
        c->lineno = xrealloc(c->lineno, c->cap * sizeof(*c->lineno));
        c->files = xrealloc(c->files, c->cap * sizeof(*c->files));
    }
    c->lines[c->n] = l;
    c->lineno[c->n] = no;
    c->files[c->n] = c->file;
    c->n++;
}

static void tsv_cell(const char *s)
{
    for (; s && *s; s++)
        putchar(*s == '\t' || *s == '\n' ? ' ' : *s);
}

static void json_string(const char *s)
{
    putchar('"');
    for (; s && *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\')
            printf("\\%c", ch);
        else if (ch < 0x20 || ch >= 0x7f)
            printf("\\u%04x", ch);
        else
            putchar(ch);
    }
    putchar('"');
}

static void print_tsv(const struct collected *c)
{
    const char **cols = NULL;
    size_t ncols = 0;
    for (size_t i = 0; i < c->n; i++)
        for (size_t k = 0; k < c->lines[i].n; k++) {
            size_t j = 0;
            while (j < ncols && strcmp(cols[j], c->lines[i].key[k]))
                j++;
            if (j == ncols) {
                cols = xrealloc(cols, (ncols + 1) * sizeof(*cols));
                cols[ncols++] = c->lines[i].key[k];
            }
        }
    fputs("file\tline\tkind\tproblem\ttext", stdout);
    for (size_t j = 0; j < ncols; j++)
        printf("\t%s", cols[j]);
    putchar('\n');
    for (size_t i = 0; i < c->n; i++) {
        const struct proto_line *l = &c->lines[i];
        tsv_cell(c->files[i]);
        printf("\t%zu\t", c->lineno[i]);
        tsv_cell(l->word);
        putchar('\t');
        tsv_cell(l->problem);
        putchar('\t');
        tsv_cell(l->text);
        for (size_t j = 0; j < ncols; j++) {
            putchar('\t');
            tsv_cell(proto_get(l, cols[j]));
        }
        putchar('\n');
    }
    free(cols);
}

static void print_json(const struct collected *c)
{
    fputs("[", stdout);
    for (size_t i = 0; i < c->n; i++) {
        const struct proto_line *l = &c->lines[i];
        fputs(i ? ",\n  {" : "\n  {", stdout);
        fputs("\"file\": ", stdout);
        json_string(c->files[i]);
        printf(", \"line\": %zu, \"kind\": ", c->lineno[i]);
        json_string(l->word);
        fputs(", \"problem\": ", stdout);
        if (l->problem)
            json_string(l->problem);
        else
            fputs("null", stdout);
        fputs(", \"keys\": {", stdout);
        for (size_t k = 0; k < l->n; k++) {
            if (k)
                fputs(", ", stdout);
            json_string(l->key[k]);
            fputs(": ", stdout);
            json_string(l->value[k]);
        }
        fputs("}, \"text\": ", stdout);
        json_string(l->text);
        putchar('}');
    }
    fputs(c->n ? "\n]\n" : "]\n", stdout);
}

/* parse LOG --rows ...: the verdict collect would give (logparse.c). */
static int parse_rows(struct opts *o)
{
    if (o->ndirs != 1 || !o->sched)
        return usage_error("%s", "parse LOG --rows --sched S [--smp N] [--boot B] [--rc RC] [--cmdline '...']");
    size_t len;
    char *log = read_log(o->dirs[0], &len);
    if (!log) {
        errorf("%s: %s", o->dirs[0], strerror(errno));
        return 1;
    }
    struct expectation e;
    expectation_parse(&e, o->cmdline);
    struct table t = { 0 };
    struct boot_desc bd = { "log", o->sched, o->smp, o->boot, (int)o->rc, "no", NULL };
    struct boot_verdict v;
    collect_boot(&bd, log, len, &e, &t, &v);
    table_write_csv(&t, stdout);
    fprintf(stderr, "verdict: %s%s%s (%zu ok, %zu failed, %zu expected)\n", v.ok ? "ok" : "failed", v.ok ? "" : ": ",
            v.ok ? "" : v.reason, v.ok_rows, v.failed_rows, v.expected);
    int out = v.ok ? 0 : 3;
    boot_verdict_free(&v);
    expectation_free(&e);
    table_free(&t);
    free(log);
    return out;
}

int cmd_parse(int argc, char **argv)
{
    struct opts o;
    int rc = cli_parse(argc, argv, &o, &parse_spec);
    if (rc) {
        cli_free(&o);
        return cli_exit(rc);
    }
    if (o.rows) {
        rc = parse_rows(&o);
        cli_free(&o);
        return rc;
    }
    if (o.sched || o.cmdline) {
        cli_free(&o);
        return usage_error("%s", "--sched and --cmdline go with --rows");
    }
    if (!o.ndirs) {
        cli_free(&o);
        return usage_error("%s", "parse needs a log (LOG, or - for stdin)");
    }
    struct filter f;
    filter_init(&f, &o);
    struct collected c = { .f = &f };
    for (size_t i = 0; i < o.ndirs; i++) {
        size_t len;
        char *log = read_log(o.dirs[i], &len);
        if (!log) {
            errorf("%s: %s", o.dirs[i], strerror(errno));
            rc = 1;
            break;
        }
        c.file = o.dirs[i];
        proto_each_line(log, len, collect_line, &c);
        free(log);
    }
    if (!rc) {
        if (streq(o.format, "json"))
            print_json(&c);
        else
            print_tsv(&c);
    }
    for (size_t i = 0; i < c.n; i++)
        proto_line_free(&c.lines[i]);
    free(c.lines);
    free(c.lineno);
    free(c.files);
    filter_free(&f);
    cli_free(&o);
    return rc;
}

/* ---- field ---- */

static const struct verb_spec field_spec = {
    "field", OPT_KIND | OPT_WHERE,
    "usage: schedlab field KEY [--kind KIND] [--where KEY=VALUE]... [LOG...]\n"
    "  The value of KEY on every line of the logs (default: stdin) that has it, one a line, in\n"
    "  order: the serial protocol's lines (docs/protocol.md) split as parse splits them.\n"
    "  --kind: only lines of that kind (result, schedstat, boot, maxgroups...); --where: only\n"
    "  lines where KEY has that value (several: all of them).  KEY text: the line after its\n"
    "  kind, for a line of a declared kind with no key text= (a message: error:, trace:, ticks:).\n"
    "  schedlab field share --kind result --where bench=cpuhog serial.log\n"
    "  Exit: 0 when a value was printed, 1 when none (or unreadable input), 2 usage error.\n",
    NULL,
};

struct field_run {
    const struct filter *f;
    const char *key;
    size_t printed;
};

static void field_line(const char *line, size_t len, size_t no, bool cut, void *arg)
{
    (void)no;
    (void)cut;
    struct field_run *r = arg;
    struct proto_line l;
    proto_parse(line, len, &l);
    const char *v = NULL;
    if (filter_match(r->f, &l)) {
        v = proto_get(&l, r->key);
        if (!v && !strcmp(r->key, "text") && l.kind >= 0)   /* a line's text, as parse's text column */
            v = l.text;
    }
    if (v) {
        printf("%s\n", v);
        r->printed++;
    }
    proto_line_free(&l);
}

int cmd_field(int argc, char **argv)
{
    struct opts o;
    int rc = cli_parse(argc, argv, &o, &field_spec);
    if (rc) {
        cli_free(&o);
        return cli_exit(rc);
    }
    if (!o.ndirs) {
        cli_free(&o);
        return usage_error("%s", "field needs a KEY (field KEY [--kind KIND] [--where KEY=VALUE]... [LOG...])");
    }
    struct filter f;
    filter_init(&f, &o);
    struct field_run r = { .f = &f, .key = o.dirs[0] };
    const char *stdin_only[] = { "-" };
    const char *const *logs = o.ndirs > 1 ? o.dirs + 1 : stdin_only;
    size_t nlogs = o.ndirs > 1 ? o.ndirs - 1 : 1;
    for (size_t i = 0; i < nlogs && !rc; i++) {
        size_t len;
        char *log = read_log(logs[i], &len);
        if (!log) {
            errorf("%s: %s", logs[i], strerror(errno));
            rc = 1;
            break;
        }
        proto_each_line(log, len, field_line, &r);
        free(log);
    }
    filter_free(&f);
    cli_free(&o);
    return rc ? rc : r.printed ? 0 : 1;
}
