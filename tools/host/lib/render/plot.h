/* gnuplot "dumb"-like ASCII plots of per-run samples, base against new. */
#ifndef KREPRO_PLOT_H
#define KREPRO_PLOT_H
#include <stddef.h>

#include "results.h"
#include "util.h"

/* An 80x20 character plot: x = sample index 1..max(nb, nn), base samples
 * '*', new samples 'O' (drawn last), y labels on the left, title above,
 * legend "[*] <bname> sample" and "[O] <nname> sample" below. */
#define KRP_PLOT_W 80
#define KRP_PLOT_H 20
/* A plot's y-axis label: v in %g at the most digits that fit width. */
void krp_plot_label(char *out, size_t outsz, double v, int width);

void krp_ascii_plot(struct krp_buf *out, const char *title, const double *b, size_t nb,
		    const char *bname, const double *n, size_t nn, const char *nname);

/* krp_ascii_plot of the headline metric, base against each new variant. */
void krp_compare_plots(const struct krp_variant *vars, size_t nvars, struct krp_buf *out);

#endif
