/* The report reader's rule for specjbb (tools/host/lib/input/report_params.h,
 * named by this folder's meta): a tenant pivot table, "kernel | vm | nofit
 * fit | noksm ksm | nothp thp" (specjbb2005 under AutoNUMA, seed 003), is
 * its multi-tenant test over those three axes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_params.h"

krp_report_find krp_report_tenant_pivot;

static int digit(char c)
{
	return c >= '0' && c <= '9';
}

int krp_report_tenant_pivot(const struct tok *tok, size_t nt, const char *text, size_t len,
			    struct rtest *out)
{
	int fit = 0, ksm = 0, thp = 0, vms = 0;
	char kernels[TEXT_MAX] = "";

	(void)text, (void)len;
	for (size_t i = 0; i < nt; i++) {
		const struct tok *k = &tok[i];
		size_t n = k->n;

		while (n > 0 && k->p[n - 1] == '|')
			n--;
		if ((n == 5 && memcmp(k->p, "nofit", 5) == 0))
			fit = 1;
		if (n == 5 && memcmp(k->p, "noksm", 5) == 0)
			ksm = 1;
		if (n == 5 && memcmp(k->p, "nothp", 5) == 0)
			thp = 1;
		if (n >= 4 && n < 6 && memcmp(k->p, "vm_", 3) == 0 && digit(k->p[3]) &&
		    (n == 4 || digit(k->p[4]))) {
			int vm = atoi(k->p + 3);

			if (vm > vms)
				vms = vm;
			if (vm == 1 && i > 0 && tok[i - 1].n > 1 &&
			    tok[i - 1].p[tok[i - 1].n - 1] == '|') {
				char kname[64];

				rr_clean_text(kname, sizeof(kname), tok[i - 1].p, tok[i - 1].n - 1);
				if (kname[0] && !strstr(kernels, kname) &&
				    strlen(kernels) + strlen(kname) + 3 < sizeof(kernels)) {
					strcat(kernels, kernels[0] ? ", " : "");
					strcat(kernels, kname);
				}
			}
		}
	}
	if (!(fit && ksm && thp && vms >= 2))
		return 0;
	strcpy(out->testcase, "specjbb2005");
	{
		char n[8];

		snprintf(n, sizeof(n), "%d", vms > 99 ? 99 : vms);
		rr_add_param(out, "tenants", 7, n, strlen(n));
	}
	rr_add_param(out, "fit", 3, "[nofit, fit]", 12);
	rr_add_param(out, "ksm", 3, "[off, on]", 9);
	rr_add_param(out, "thp", 3, "[never, always]", 15);
	snprintf(out->comment, sizeof(out->comment), "kernels in the report's pivot: %s", kernels);
	return 1;
}
