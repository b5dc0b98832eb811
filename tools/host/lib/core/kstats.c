/* Statistics (see kstats.h). */
#include "kstats.h"

#include <math.h>
#include <stdio.h>

double krp_mean(const double *x, size_t n)
{
	double s = 0;
	size_t i;

	if (n == 0)
		return 0;
	for (i = 0; i < n; i++)
		s += x[i];
	return s / (double)n;
}

/* Equal samples have no spread: exactly 0, not the rounding residue of
 * their mean (1.455e-11 beside +- 0.00 in a report). */
static double sum_sq_dev(const double *x, size_t n)
{
	double m = krp_mean(x, n), s = 0;
	size_t i, same = 1;

	for (i = 1; i < n; i++)
		same &= x[i] == x[0];
	if (same)
		return 0;
	for (i = 0; i < n; i++)
		s += (x[i] - m) * (x[i] - m);
	return s;
}

double krp_pstddev(const double *x, size_t n)
{
	if (n < 1)
		return 0;
	return sqrt(sum_sq_dev(x, n) / (double)n);
}

double krp_sample_var(const double *x, size_t n)
{
	if (n < 2)
		return 0;
	return sum_sq_dev(x, n) / (double)(n - 1);
}

/* Continued fraction for I_x(a,b) (modified Lentz evaluation of the
 * standard expansion with even/odd coefficients d_2m, d_2m+1). */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300, eps = 1e-15;
	double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0), h;
	int m;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1.0 / d;
	h = d;
	for (m = 1; m <= 1000; m++) {
		double dm = m, coef, delta;

		/* even step: d_2m = m(b-m)x / ((a+2m-1)(a+2m)) */
		coef = dm * (b - dm) * x / ((a + 2 * dm - 1) * (a + 2 * dm));
		d = 1.0 + coef * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1.0 + coef / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1.0 / d;
		h *= d * c;
		/* odd step: d_2m+1 = -(a+m)(a+b+m)x / ((a+2m)(a+2m+1)) */
		coef = -(a + dm) * (a + b + dm) * x / ((a + 2 * dm) * (a + 2 * dm + 1));
		d = 1.0 + coef * d;
		if (fabs(d) < tiny)
			d = tiny;
		c = 1.0 + coef / c;
		if (fabs(c) < tiny)
			c = tiny;
		d = 1.0 / d;
		delta = d * c;
		h *= delta;
		if (fabs(delta - 1.0) < eps)
			break;
	}
	return h;
}

double krp_betai(double a, double b, double x)
{
	double lfront;

	if (!(x > 0))
		return 0;
	if (!(x < 1))
		return 1;
	lfront = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	/* The fraction converges fast for x < (a+1)/(a+b+2); else use the
	 * symmetry I_x(a,b) = 1 - I_{1-x}(b,a). */
	if (x < (a + 1) / (a + b + 2))
		return exp(lfront) * beta_cf(a, b, x) / a;
	return 1.0 - exp(lfront) * beta_cf(b, a, 1.0 - x) / b;
}

double krp_t_p2(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return 1;
	if (isinf(t))
		return 0;
	return krp_betai(df / 2, 0.5, df / (df + t * t));
}

double krp_t_cdf(double t, double df)
{
	double half = krp_t_p2(t, df) / 2;

	return t >= 0 ? 1 - half : half;
}

double krp_t_quantile(double p, double df)
{
	double lo, hi, sign = 1;
	int i;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	if (p == 0.5)
		return 0;
	if (p < 0.5) {
		p = 1 - p;
		sign = -1;
	}
	lo = 0;
	hi = 1;
	while (krp_t_cdf(hi, df) < p && hi < 1e12)
		hi *= 2;
	for (i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		double mid = (lo + hi) / 2;

		if (krp_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return sign * (lo + hi) / 2;
}

int krp_welch(const double *a, size_t na, const double *b, size_t nb, struct krp_welch *w)
{
	double va, vb, qa, qb;

	if (na < 2 || nb < 2)
		return -1;
	va = krp_sample_var(a, na);
	vb = krp_sample_var(b, nb);
	qa = va / (double)na;
	qb = vb / (double)nb;
	w->diff = krp_mean(a, na) - krp_mean(b, nb);
	w->se = sqrt(qa + qb);
	w->zero_var = 0;
	if (w->se == 0) {
		w->zero_var = 1;
		w->df = (double)(na + nb - 2);
		if (w->diff == 0) {
			w->t = 0;
			w->p = 1;
		} else {
			w->t = w->diff > 0 ? INFINITY : -INFINITY;
			w->p = 0;
		}
		return 0;
	}
	w->t = w->diff / w->se;
	/* Welch-Satterthwaite degrees of freedom, with qa and qb scaled by
	 * their sum: the same number, but no fourth power of a large value
	 * overflows (inf / inf was a nan df). */
	qa /= w->se * w->se;
	qb /= w->se * w->se;
	w->df = 1.0 / (qa * qa / (double)(na - 1) + qb * qb / (double)(nb - 1));
	w->p = krp_t_p2(w->t, w->df);
	return 0;
}

void krp_fmt_avg(char *out, size_t outsz, double v)
{
	if (!isfinite(v))
		snprintf(out, outsz, "%g", v);
	else if (fabs(v) < 1000)
		snprintf(out, outsz, "%.2f", v);
	else if (fabs(v) > 1e8)
		snprintf(out, outsz, "%.4g", v);
	else
		snprintf(out, outsz, "%lld", llround(v));
}

void krp_fmt_change(char *out, size_t outsz, double v, int percent)
{
	const char *pct = percent ? "%" : "";

	if (isnan(v))
		snprintf(out, outsz, "n/a");
	else if (!isfinite(v))
		snprintf(out, outsz, "%+g%s", v, pct);
	else if (fabs(v) >= 100000)
		snprintf(out, outsz, "%+.2g%s", v, pct);
	else
		snprintf(out, outsz, "%+.1f%s", v, pct);
}
