/*
 * What a reproduction shows a person (docs/reproduce.md): HTML tables (the
 * post's table and ours side by side, the scorecard with its cells coloured
 * by deviation) and plots that compare shapes on one axis (ours solid and
 * filled, the post's dashed and open, one colour per kernel, both
 * normalised to the same reference cell), drawn by gnuplot.
 */
#ifndef SCHEDLAB_REPRO_OUT_H
#define SCHEDLAB_REPRO_OUT_H

#include "scorecard.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* ---- HTML tables ---- */

struct hcell {
    char *text;   /* NULL: an empty cell */
    char *cls;    /* class attribute, or NULL */
};

struct hrow {
    struct hcell *c;
    size_t n;
    bool group;   /* a block heading ("1 CPU") spanning the table */
};

struct htable {
    char *caption;      /* plain text */
    char *cls;          /* class of the <table> */
    size_t ncols;
    char **head;        /* ncols column headings */
    char **head_cls;
    struct hrow *rows;
    size_t nrows, cap;
};

struct htable *ht_new(const char *cls, const char *caption, size_t ncols);
void ht_head(struct htable *t, size_t col, const char *text, const char *cls);
void ht_group(struct htable *t, const char *text);   /* a row spanning every column */
void ht_row(struct htable *t);                       /* a new row; then ht_cell per column */
void ht_cell(struct htable *t, const char *text, const char *cls);
void ht_num(struct htable *t, double x, int decimals); /* "-" (class missing) when not finite */
void ht_write(FILE *f, const struct htable *t);
void ht_free(struct htable *t);

/* Text escaped for HTML. */
void html_text(FILE *f, const char *s);

/* The scorecard as an HTML table: every normalised cell with the seed's value,
 * ours and the deviation, the cell coloured by |deviation| (within 10%, 10-25%,
 * beyond 25%), then the orderings; the summary under it. */
void sc_write_html(FILE *f, const char *seed, const char *table, const char *cost, const struct sc_cell *c, size_t nc,
                   const struct sc_order *o, size_t no);
/* "dev-near", "dev-mid", "dev-far" for |dev| <= 10, <= 25, more; "missing" when not finite. */
const char *dev_class(double dev_pct);

/* ---- plots ---- */

#define NP_MAXX 16
#define NP_MAXS 8

/* One line (or one point per category) of a plot: ours and the post's. */
struct np_series {
    char name[48];
    int colour;                              /* index into the palette */
    double ours[NP_MAXX], post[NP_MAXX];     /* NAN: none */
    double lo[NP_MAXX], hi[NP_MAXX];         /* ours' runs, lowest and highest (NAN: one run) */
};

struct nplot {
    char stem[160];          /* file name without extension */
    char title[256];         /* plain text (gnuplot noenhanced) */
    char xlabel[160], ylabel[160];
    size_t nx;
    char xlab[NP_MAXX][64];  /* category labels across */
    size_t ns;
    struct np_series s[NP_MAXS];
    bool ratio_line;         /* a dotted line at 1 */
    bool connect;            /* a series per category (kernels across): grey lines join ours, and the post's */
    bool post_absent;        /* the post has no numbers: ours only, said in the title */
};

struct nplot *np_new(const char *stem, const char *title, const char *xlabel, const char *ylabel);
/* Series by name (created with the colour when new). */
struct np_series *np_series(struct nplot *p, const char *name, int colour);
/* Category index by label (created when new); -1 when full. */
int np_x(struct nplot *p, const char *label);

/* The palette (Okabe-Ito), as gnuplot colours. */
const char *np_colour(int i);

/* Writes DIR/STEM.gp and renders DIR/STEM.png and DIR/STEM.svg with gnuplot.
 * Returns 0, or 1 after a message on stderr (no gnuplot, or it failed). */
int np_render(const struct nplot *p, const char *dir);

#endif
