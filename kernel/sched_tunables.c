/*
 * A scheduler's tunables on the kernel command line (kernel/sched_tunables.h).
 *
 * The scheduler declares its knobs once, in its struct sched_class
 * (tunables[], presets[]); here they become keys of the command line's
 * registry (kernel/cmdline.h), so they are validated, listed by bench=list
 * and rejected when misspelt exactly like every other key:
 *
 *   sched.<name>=<value>   a tunable: CMDLINE_UINT within min..max
 *   sched.preset=<name>    a choice of "none" and the presets
 *
 * The variables are written in this order, so a value on the command line
 * beats the preset, which beats the default: default (or
 * SCHED_TUNABLE_UNSET for an AUTO tunable, which init() then computes),
 * preset, command line.  Then the scheduler's check_tunables() sees them
 * together.  All of it happens before the scheduler's init(), on the boot
 * CPU, before any task exists: a scheduler never sees a tunable change.
 */
#include "sched_tunables.h"
#include "cmdline.h"
#include "cmdline_internal.h"
#include "lib.h"

#define PREFIX "sched."
#define NAME_MAX_LEN 48

static struct cmdline_key keys[SCHED_MAX_TUNABLES + 1];
static char key_names[SCHED_MAX_TUNABLES][NAME_MAX_LEN];
static const char *preset_names[SCHED_MAX_PRESETS + 2];
static const char *preset_settings[SCHED_MAX_PRESETS + 2];
static int nkeys;
static int preset_key = -1;          /* index of sched.preset in keys[], -1 if none */
static int preset_chosen;            /* 0: none, else presets[preset_chosen - 1] */

static int find_tunable(const struct sched_class *c, const char *name, size_t len)
{
    for (int i = 0; i < c->ntunables; i++)
        if (strlen(c->tunables[i].name) == len && strncmp(c->tunables[i].name, name, len) == 0)
            return i;
    return -1;
}

/* Every value a preset sets must name a tunable and lie in its range: a
 * preset is part of the scheduler's table, so a bad one is a kernel bug. */
static void apply_preset(const struct sched_class *c, const struct sched_preset *p, bool write)
{
    const char *s = p->settings;
    while (*s) {
        while (*s == ' ')
            s++;
        if (!*s)
            break;
        const char *eq = strchr(s, '=');
        const char *end = s;
        while (*end && *end != ' ')
            end++;
        if (!eq || eq > end)
            panic("sched/%s.c: preset %s: '%.*s' is not tunable=value", c->name, p->name, (int)(end - s), s);
        int t = find_tunable(c, s, (size_t)(eq - s));
        if (t < 0)
            panic("sched/%s.c: preset %s sets %.*s, which is no tunable", c->name, p->name, (int)(eq - s), s);
        char text[24], why[96];
        size_t vlen = (size_t)(end - eq - 1);
        if (vlen == 0 || vlen >= sizeof(text))
            panic("sched/%s.c: preset %s: bad value for %s", c->name, p->name, c->tunables[t].name);
        memcpy(text, eq + 1, vlen);
        text[vlen] = 0;
        uint32_t v;
        if (cmdline_parse_uint_value(&keys[t], text, &v, why, sizeof(why)) != 0)
            panic("sched/%s.c: preset %s: %s=%s: %s", c->name, p->name, c->tunables[t].name, text, why);
        if (write)
            *c->tunables[t].value = v;
        s = end;
    }
}

static void check_table(const struct sched_class *c)
{
    if (c->ntunables > SCHED_MAX_TUNABLES || c->npresets > SCHED_MAX_PRESETS)
        panic("sched/%s.c: more than %d tunables or %d presets", c->name, SCHED_MAX_TUNABLES, SCHED_MAX_PRESETS);
    if (c->npresets && !c->ntunables)
        panic("sched/%s.c: presets without tunables", c->name);
    for (int i = 0; i < c->ntunables; i++) {
        const struct sched_tunable *t = &c->tunables[i];
        if (!t->name || !t->value || strlen(PREFIX) + strlen(t->name) >= NAME_MAX_LEN || t->max >= SCHED_TUNABLE_UNSET)
            panic("sched/%s.c: tunable %d: no name, no variable, a name too long or max too big", c->name, i);
        if (strcmp(t->name, "preset") == 0)
            panic("sched/%s.c: a tunable may not be called preset", c->name);
    }
    for (int i = 0; i < c->npresets; i++)
        if (!c->presets[i].name || !c->presets[i].settings || strcmp(c->presets[i].name, "none") == 0)
            panic("sched/%s.c: preset %d: no name, no settings, or called none", c->name, i);
}

static void build_keys(const struct sched_class *c)
{
    nkeys = 0;
    preset_key = -1;
    for (int i = 0; i < c->ntunables; i++) {
        const struct sched_tunable *t = &c->tunables[i];
        snprintf(key_names[i], NAME_MAX_LEN, PREFIX "%s", t->name);
        bool automatic = (t->flags & SCHED_TUNABLE_AUTO) != 0;
        keys[nkeys++] = (struct cmdline_key){
            .name = key_names[i],
            .type = CMDLINE_UINT,
            .flags = CMDLINE_TUNABLE | (automatic ? CMDLINE_AUTO : 0),
            .def = automatic ? 0 : t->def,
            .suite_def = automatic ? 0 : t->def,
            .min = t->min,
            .max = t->max,
            .help = t->help,
            .unit = t->unit,
        };
    }
    if (c->npresets) {
        int n = 0;
        preset_names[n] = "none";
        preset_settings[n++] = "";
        for (int i = 0; i < c->npresets; i++) {
            preset_names[n] = c->presets[i].name;
            preset_settings[n++] = c->presets[i].settings;
        }
        preset_names[n] = NULL;
        preset_settings[n] = NULL;
        preset_key = nkeys;
        keys[nkeys++] = (struct cmdline_key){
            .name = PREFIX "preset",
            .type = CMDLINE_CHOICE,
            .flags = CMDLINE_PRESET,
            .def_text = "none",
            .choices = preset_names,
            .choice_info = preset_settings,
            .help = "a named set of this scheduler's tunables; tunables given as well win",
        };
    }
}

/* A sched.<x> word that is no key of this scheduler: say which ones it has. */
static void reject_unknown(const struct sched_class *c)
{
    for (int w = 0; w < cmdline_word_count(); w++) {
        const char *key = cmdline_word_key(w);
        if (strncmp(key, PREFIX, strlen(PREFIX)) != 0)
            continue;
        bool known = false;
        for (int k = 0; k < nkeys && !known; k++)
            known = strcmp(keys[k].name, key) == 0;
        if (known)
            continue;
        char why[400];
        size_t n;
        if (!c->ntunables) {
            snprintf(why, sizeof(why), "sched/%s.c has no tunables", c->name);
        } else {
            n = (size_t)snprintf(why, sizeof(why), "no tunable of sched/%s.c; it has:", c->name);
            for (int i = 0; i < c->ntunables && n < sizeof(why); i++)
                n += (size_t)snprintf(why + n, sizeof(why) - n, " %s", c->tunables[i].name);
            if (c->npresets && n < sizeof(why))
                snprintf(why + n, sizeof(why) - n, " preset");
        }
        cmdline_error(key, why);
    }
}

void sched_tunables_setup(const struct sched_class *c)
{
    check_table(c);
    build_keys(c);
    for (int i = 0; i < c->npresets; i++)
        apply_preset(c, &c->presets[i], false);     /* checked even when not chosen: bench=list prints them */
    if (nkeys)
        cmdline_register(c->name, keys, nkeys);
    reject_unknown(c);
    for (int i = 0; i < c->ntunables; i++) {
        const struct sched_tunable *t = &c->tunables[i];
        *t->value = (t->flags & SCHED_TUNABLE_AUTO) ? SCHED_TUNABLE_UNSET : t->def;
    }
    preset_chosen = 0;
    if (preset_key >= 0) {
        preset_chosen = cmdline_key_choice(&keys[preset_key]);
        if (preset_chosen)
            apply_preset(c, &c->presets[preset_chosen - 1], true);
    }
    for (int i = 0; i < c->ntunables; i++) {
        const struct cmdline_key *k = &keys[i];
        if (!cmdline_given(k))
            continue;
        *c->tunables[i].value =
            (k->flags & CMDLINE_AUTO) ? cmdline_key_uint_auto(k, SCHED_TUNABLE_UNSET) : cmdline_key_uint(k);
    }
    if (c->check_tunables) {
        const char *bad = NULL;
        const char *why = c->check_tunables(&bad);
        if (why) {
            char name[NAME_MAX_LEN];
            snprintf(name, sizeof(name), PREFIX "%s", bad ? bad : "?");
            cmdline_error(name, why);
        }
    }
}

void sched_tunables_print(const struct sched_class *c)
{
    if (!c->ntunables)
        return;
    /* One kprintf per word: the line may be longer than a console buffer,
     * and nothing else prints while the boot CPU is here. */
    kprintf(PROTO_FORMAT_BEGIN(TUNABLES), c->name);
    if (c->npresets)
        kprintf(" preset=%s", preset_chosen ? c->presets[preset_chosen - 1].name : "none");
    for (int i = 0; i < c->ntunables; i++) {
        uint32_t v = *c->tunables[i].value;
        if (v == SCHED_TUNABLE_UNSET)
            kprintf(" %s=unset", c->tunables[i].name);      /* init() did not compute it: a scheduler bug, visible */
        else
            kprintf(" %s=%u", c->tunables[i].name, v);
    }
    kprintf("\n");
}
