/* ASCII plots of per-run samples (see plot.h). */
#include "plot.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "vstats.h"

/* Plot row (0 = top) of value v in [lo, hi] over h rows. */
static size_t plot_row(double v, double lo, double hi, size_t h)
{
	double f = (hi - v) / (hi - lo) * (double)(h - 1);
	long r = lround(f);

	if (r < 0)
		r = 0;
	if (r > (long)h - 1)
		r = (long)h - 1;
	return (size_t)r;
}

/* Plot column of sample i (0-based) of n over w columns. */
static size_t plot_col(size_t i, size_t n, size_t w)
{
	if (n <= 1)
		return w / 2;
	return (size_t)lround((double)i * (double)(w - 1) / (double)(n - 1));
}

void krp_plot_label(char *out, size_t outsz, double v, int width)
{
	/* As 0-day's plots read: %g, fewer digits until it fits, never cut
	 * (353080, 4.9e+06, 1.017e+08). */
	for (int prec = 6; prec >= 1; prec--) {
		int n = snprintf(out, outsz, "%.*g", prec, v);

		if (n >= 0 && n <= width)
			return;
	}
	snprintf(out, outsz, "%.0e", v);
}

void krp_ascii_plot(struct krp_buf *out, const char *title, const double *b, size_t nb,
		    const char *bname, const double *n, size_t nn, const char *nname)
{
	enum { LBL = 10, W = KRP_PLOT_W - LBL - 2, H = KRP_PLOT_H - 2 };
	char grid[H][W];
	double lo = INFINITY, hi = -INFINITY;
	size_t i, r, npts = nb > nn ? nb : nn;
	int pad;

	for (i = 0; i < nb; i++) {
		lo = fmin(lo, b[i]);
		hi = fmax(hi, b[i]);
	}
	for (i = 0; i < nn; i++) {
		lo = fmin(lo, n[i]);
		hi = fmax(hi, n[i]);
	}
	if (npts == 0 || !isfinite(lo) || !isfinite(hi)) {
		krp_buf_printf(out, "%s: no samples to plot\n", title);
		return;
	}
	if (hi == lo) {
		double d = lo != 0 ? fabs(lo) * 0.05 : 1;

		lo -= d;
		hi += d;
	}
	memset(grid, ' ', sizeof(grid));
	for (i = 0; i < nb; i++)
		grid[plot_row(b[i], lo, hi, H)][plot_col(i, npts, W)] = '*';
	for (i = 0; i < nn; i++)
		grid[plot_row(n[i], lo, hi, H)][plot_col(i, npts, W)] = 'O';
	pad = (int)(KRP_PLOT_W - strlen(title)) / 2;
	krp_buf_printf(out, "%*s%s\n\n", pad > 0 ? pad : 0, "", title);
	krp_buf_printf(out, "%*s+", LBL, "");
	for (i = 0; i < W; i++)
		krp_buf_puts(out, "-");
	krp_buf_puts(out, "+\n");
	for (r = 0; r < H; r++) {
		/* Labels on 5 rows: top, bottom and three in between. */
		int tick = r == 0 || r == H - 1 || r == (H - 1) / 4 || r == (H - 1) / 2 ||
			   r == 3 * (H - 1) / 4;

		if (tick) {
			char lbl[32];
			double v = hi - (double)r * (hi - lo) / (double)(H - 1);

			krp_plot_label(lbl, sizeof(lbl), fabs(v) < 1e-9 * (hi - lo) ? 0.0 : v,
				       LBL - 1);
			krp_buf_printf(out, "%*s +", LBL - 1, lbl);
		} else {
			krp_buf_printf(out, "%*s|", LBL, "");
		}
		krp_buf_add(out, grid[r], W);
		krp_buf_puts(out, tick ? "+\n" : "|\n");
	}
	krp_buf_printf(out, "%*s+", LBL, "");
	for (i = 0; i < W; i++)
		krp_buf_puts(out, "-");
	krp_buf_puts(out, "+\n\n");
	krp_buf_printf(out, "[*] %s sample\n[O] %s sample\n", bname, nname);
}

void krp_compare_plots(const struct krp_variant *vars, size_t nvars, struct krp_buf *out)
{
	struct krp_vstats b;
	size_t j;

	krp_vstats_build_in(vars, nvars, 0, &b);
	for (j = 1; j < nvars; j++) {
		struct krp_vstats n;
		const char *key;

		krp_vstats_build_in(vars, nvars, j, &n);
		key = krp_headline(&b, &n);
		if (key) {
			const struct krp_series *sb = krp_vstats_find(&b, key);
			const struct krp_series *sn = krp_vstats_find(&n, key);

			krp_buf_puts(out, "\n");
			krp_ascii_plot(out, key, sb->x, sb->n, vars[0].name, sn->x, sn->n,
				       vars[j].name);
		}
		krp_vstats_free(&n);
	}
	krp_vstats_free(&b);
}
