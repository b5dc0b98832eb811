/* Statistics for result comparison: mean, population stddev, Welch's
 * t-test, Student t distribution, 0-day number formatting. */
#ifndef KREPRO_KSTATS_H
#define KREPRO_KSTATS_H
#include <stddef.h>

double krp_mean(const double *x, size_t n);
/* Population stddev sqrt(sum((x-mean)^2)/n); 0 for n < 1. */
double krp_pstddev(const double *x, size_t n);
/* Unbiased sample variance sum((x-mean)^2)/(n-1); 0 for n < 2. */
double krp_sample_var(const double *x, size_t n);

/* Regularized incomplete beta function I_x(a, b), a, b > 0. */
double krp_betai(double a, double b, double x);
/* Student t CDF P(T <= t) with df > 0 degrees of freedom. */
double krp_t_cdf(double t, double df);
/* Two-sided p-value P(|T| >= |t|). */
double krp_t_p2(double t, double df);
/* Quantile: t with P(T <= t) = p, 0 < p < 1 (bisection). */
double krp_t_quantile(double p, double df);

struct krp_welch {
	double diff; /* mean(a) - mean(b) */
	double se;   /* sqrt(va/na + vb/nb) */
	double t, df, p;
	int zero_var; /* both variances 0: t is +-inf (or 0), p is 0 or 1 */
};
/* Welch's unequal-variance t-test of a against b; needs na, nb >= 2.
 * Returns 0, or -1 if a side has fewer than 2 samples. */
int krp_welch(const double *a, size_t na, const double *b, size_t nb, struct krp_welch *w);

/* 0-day number formats (lkp compare): avg "%.2f" if |v| < 1000, "%.4g" if
 * |v| > 1e8, else rounded "%d". */
void krp_fmt_avg(char *out, size_t outsz, double v);
/* Change: "%+.1f" (or "%+.2g" if |v| >= 100000), followed by "%" when
 * percent is nonzero. */
void krp_fmt_change(char *out, size_t outsz, double v, int percent);

#endif
