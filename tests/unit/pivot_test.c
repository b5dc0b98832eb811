/* Matrix pivot: job.conf reader, cell means, and seed 003 (Srikar
 * Dronamraju, AutoNUMA27 specjbb, 2012): its printed improvements must come
 * out exactly from its printed values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "pivot.h"
#include "unit.h"

static const char *const rows[] = {"kernel", "vm"};
static const char *const cols[] = {"fit", "ksm", "thp"};
static const char *const kernels[] = {"mainline_v36", "autonuma27_"};
static const char *const vms[] = {"vm_1", "vm_2", "vm_3"};
static const char *const fits[] = {"nofit", "fit"};
static const char *const ksms[] = {"noksm", "ksm"};
static const char *const thps[] = {"nothp", "thp"};

#define NA -1
/* Seed 003, first table: [kernel][vm][column], columns nofit/noksm/nothp,
 * nofit/noksm/thp, nofit/ksm/nothp, ... fit/ksm/thp. */
static const double t1[2][3][8] = {
    {{136085, 188500, 133871, 163638, 133540, 178159, 132460, 164763},
     {61549, 80496, 61420, 74864, 63777, 80573, 60479, 73416},
     {60688, 79349, 62244, 73289, 64394, 80803, 61040, 74258}},
    {{143261, 186080, 127420, 178505, 141080, 201436, 143216, 183710},
     {72224, 94368, 71309, 89576, 59098, 83750, 63813, 90862},
     {61215, 94213, 71539, 89594, 76269, 99637, 72412, 91191}},
};
static const char *const imp1[3][8] = {
    {"5.27%", "-1.28%", "-4.82%", "9.09%", "5.65%", "13.07%", "8.12%", "11.50%"},
    {"17.34%", "17.23%", "16.10%", "19.65%", "-7.34%", "3.94%", "5.51%", "23.76%"},
    {"0.87%", "18.73%", "14.93%", "22.25%", "18.44%", "23.31%", "18.63%", "22.80%"},
};
/* Second table ("suggested tweaks"), with na cells. */
static const double t2[2][3][8] = {
    {{136142, 178362, 132493, 166169, 131774, 179340, 133058, 164637},
     {61143, 81943, 60998, 74195, 63725, 79530, 61916, 73183},
     {61599, 79058, 61448, 73248, 62563, 80815, 61381, 74669}},
    {{142023, NA, 142808, 177880, NA, 197244, 145165, 174175},
     {61071, NA, 61008, 91184, NA, 78893, 71675, 80471},
     {72646, NA, 72855, 92167, NA, 99080, 64758, 91831}},
};
static const char *const imp2[3][8] = {
    {"4.32%", "na", "7.79%", "7.05%", "na", "9.98%", "9.10%", "5.79%"},
    {"-0.12%", "na", "0.02%", "22.90%", "na", "-0.80%", "15.76%", "9.96%"},
    {"17.93%", "na", "18.56%", "25.83%", "na", "22.60%", "5.50%", "22.98%"},
};

static void build(struct krp_pivot *p, const double t[2][3][8])
{
	size_t k, v, c;

	krp_pivot_init(p, rows, 2, cols, 3);
	krp_pivot_order(p, "kernel", kernels, 2);
	krp_pivot_order(p, "vm", vms, 3);
	krp_pivot_order(p, "fit", fits, 2);
	krp_pivot_order(p, "ksm", ksms, 2);
	krp_pivot_order(p, "thp", thps, 2);
	for (k = 0; k < 2; k++)
		for (v = 0; v < 3; v++)
			for (c = 0; c < 8; c++) {
				const char *vals[5] = {kernels[k], vms[v], fits[c / 4],
						       ksms[(c / 2) % 2], thps[c % 2]};

				if (t[k][v][c] != NA)
					krp_pivot_add(p, vals, t[k][v][c]);
			}
}

/* Fields of line `idx` of the block after the second-to-last rule,
 * split at '|' and trimmed. */
static size_t fields(const char *line, char f[16][32])
{
	size_t n = 0;
	const char *p = line;

	while (*p && *p != '\n' && n < 16) {
		const char *e;
		size_t a, b;

		if (*p == '|')
			p++;
		e = p;
		while (*e && *e != '|' && *e != '\n')
			e++;
		if (*e != '|')
			break;
		for (a = 0; p + a < e && p[a] == ' '; a++)
			;
		for (b = (size_t)(e - p); b > a && p[b - 1] == ' '; b--)
			;
		snprintf(f[n++], 32, "%.*s", (int)(b - a), p + a);
		p = e;
	}
	return n;
}

static void check_seed(const char *name, const double t[2][3][8], const char *const imp[3][8])
{
	struct krp_pivot p;
	struct krp_buf out = {0};
	char err[KRP_ERR_MAX], f[16][32], cname[96];
	const char *l;
	size_t v, c, nf;
	int ok = 1;
	double m;

	build(&p, t);
	CHECK("pivot 6 rows 8 cols", krp_pivot_nrows(&p) == 6 && krp_pivot_ncols(&p) == 8);
	CHECK("pivot cell mean", krp_pivot_cell(&p, 3, 0, &m) == 0 && m == t[1][0][0]);
	CHECK("pivot text", krp_pivot_text(&p, "mainline_v36", &out, err, sizeof(err)) == 0);
	l = strstr(out.data, " improvement|");
	CHECK("pivot improvement block", l != NULL);
	while (l && l > out.data && l[-1] != '\n')
		l--;
	for (v = 0; l && v < 3; v++) {
		nf = fields(l, f);
		if (nf != 10 || strcmp(f[1], vms[v]) != 0)
			ok = 0;
		for (c = 0; c < 8 && nf == 10; c++) {
			if (strcmp(f[2 + c], imp[v][c]) != 0) {
				printf("  %s vm %zu col %zu: got %s want %s\n", name, v, c,
				       f[2 + c], imp[v][c]);
				ok = 0;
			}
		}
		l = strchr(l, '\n');
		l = l ? l + 1 : NULL;
	}
	snprintf(cname, sizeof(cname), "%s improvements exact", name);
	CHECK(cname, ok);
	krp_buf_free(&out);
	krp_pivot_free(&p);
}

static void test_layout(void)
{
	struct krp_pivot p;
	struct krp_buf out = {0};
	char err[KRP_ERR_MAX];

	build(&p, t2);
	krp_pivot_text(&p, NULL, &out, err, sizeof(err));
	CHECK("layout header 1", strstr(out.data, "|       kernel|   vm|") != NULL);
	CHECK("layout fit span",
	      strstr(out.data, "|       kernel|   vm|                          nofit|"
			       "                            fit|\n") != NULL);
	CHECK("layout first row",
	      strstr(out.data, "| mainline_v36| vm_1| 136142| 178362|") != NULL);
	CHECK("layout na",
	      strstr(out.data, "|  autonuma27_| vm_1| 142023|     na| 142808|") != NULL);
	CHECK("layout stacked label",
	      strstr(out.data, "|         from| vm_2| -0.12%|") != NULL &&
		  strstr(out.data, "| mainline_v36| vm_3| 17.93%|") != NULL);
	krp_buf_free(&out);
	CHECK("bad base", krp_pivot_text(&p, "nope", &out, err, sizeof(err)) == -1 &&
			      strstr(err, "not a value of kernel") != NULL);
	krp_buf_free(&out);
	krp_pivot_free(&p);
}

static void test_means_and_formulas(void)
{
	static const char *const r1[] = {"k"}, *const c1[] = {"c"};
	const char *a[] = {"base", "x"}, *b[] = {"new", "x"};
	struct krp_pivot p;
	double m;
	char s[32];

	krp_pivot_init(&p, r1, 1, c1, 1);
	krp_pivot_add(&p, a, 100);
	krp_pivot_add(&p, a, 110);
	krp_pivot_add(&p, b, 99);
	krp_pivot_sort(&p); /* base < new */
	CHECK("mean of 2 runs", krp_pivot_cell(&p, 0, 0, &m) == 0 && m == 105);
	CHECK("label sorted", strcmp(krp_pivot_label(&p, 0, 1), "new") == 0);
	krp_pivot_free(&p);
	{ /* seed 003's job: variants [base, autonuma]; autonuma sorts first but
	   * the improvement is from base without --base (it was inverted) */
		const char *an[] = {"autonuma", "x"};
		struct krp_buf out = {0};
		char err[KRP_ERR_MAX];

		krp_pivot_init(&p, r1, 1, c1, 1);
		krp_pivot_add(&p, a, 100);
		krp_pivot_add(&p, an, 110);
		krp_pivot_sort(&p);
		CHECK("autonuma sorts before base",
		      strcmp(krp_pivot_label(&p, 0, 0), "autonuma") == 0);
		CHECK("pivot without --base",
		      krp_pivot_text(&p, NULL, &out, err, sizeof(err)) == 0);
		CHECK("improvement from base by default",
		      strstr(out.data, "10.00%") != NULL && strstr(out.data, "-9.09%") == NULL);
		krp_buf_free(&out);
		krp_pivot_free(&p);
	}
	CHECK_NEAR("improvement 5.27", krp_pivot_improvement(143261, 136085),
		   100.0 * 7176.0 / 136085.0, 1e-12);
	krp_pivot_fmt(s, sizeof(s), 136085);
	CHECK_STR("fmt integer", s, "136085");
	krp_pivot_fmt(s, sizeof(s), 12.345);
	CHECK_STR("fmt fraction", s, "12.35");
	krp_pivot_fmt(s, sizeof(s), 1234.5);
	CHECK_STR("fmt >= 1000", s, "1234");
}

/* Values written as the matrix did sort by what they resolved to: 64M
 * before 1G, 30s before 2m (strverscmp alone put 1G and 2m first). */
static void test_sort_keys(void)
{
	static const char *const r1[] = {"k"}, *const c1[] = {"size", "runtime"};
	const char *g[] = {"base", "1G", "2m"}, *go[] = {NULL, "1073741824", "120"};
	const char *m[] = {"base", "64M", "30s"}, *mo[] = {NULL, "67108864", "30"};
	struct krp_pivot p;
	double v;

	krp_pivot_init(&p, r1, 1, c1, 2);
	krp_pivot_add_ordered(&p, g, go, 10);
	krp_pivot_add_ordered(&p, m, mo, 20);
	krp_pivot_sort(&p);
	CHECK_STR("64M before 1G", krp_pivot_label(&p, 1, 0), "64M");
	CHECK_STR("30s before 2m", krp_pivot_label(&p, 2, 0), "30s");
	CHECK("the cells follow their labels", krp_pivot_cell(&p, 0, 0, &v) == 0 && v == 20);
	krp_pivot_free(&p);
}

/* Runs on disk: a key A+B joins two job.conf values, and runs holding the
 * model's model.<metric> put a "model" row beside each "plain" one. */
static const char *const model_runs[][3] = {
    /* directory, job.conf, stats.json */
    {"a", "variant=base\nnuma_balancing=0\nsuite=s\n", "{\"s.ops\": 100, \"model.s.ops\": 80}\n"},
    {"b", "variant=base\nnuma_balancing=0\nsuite=s\n", "{\"s.ops\": 102}\n"},
    {"c", "variant=base\nnuma_balancing=1\nsuite=s\n", "{\"s.ops\": 98, \"model.s.ops\": 90}\n"},
    {"d", "variant=base\nsuite=s\n", "{\"s.ops\": 1, \"model.s.ops\": 1}\n"},
};

static void put(const char *root, const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/%s/%s", root, dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static void test_collect_model(void)
{
	char tmpl[] = "/tmp/krepro-test-pivot.XXXXXX", path[512], err[256];
	char rows_s[] = "variant+numa_balancing", cols_s[] = "suite";
	char *root = mkdtemp(tmpl);
	struct krp_pivot p;
	struct krp_buf out = {0};
	size_t i;
	double v;

	CHECK("mkdtemp", root != NULL);
	if (!root)
		return;
	for (i = 0; i < sizeof(model_runs) / sizeof(model_runs[0]); i++) {
		put(root, model_runs[i][0], "job.conf", model_runs[i][1]);
		put(root, model_runs[i][0], "stats.json", model_runs[i][2]);
	}
	CHECK("pivot with the model builds",
	      krp_pivot_build(&p, rows_s, cols_s, NULL, 0, root, "s.ops", err, sizeof(err)) == 0);
	CHECK("a run without a part of the key is left out", p.skipped == 1);
	CHECK("a last row key, measure", p.nrow == 2 && strcmp(p.ax[1].key, "measure") == 0);
	CHECK("two kernels, each plain and model", krp_pivot_nrows(&p) == 4);
	CHECK_STR("the joined value", krp_pivot_label(&p, 0, 0), "base+numa_balancing=0");
	CHECK_STR("plain first", krp_pivot_label(&p, 1, 0), "plain");
	CHECK_STR("then model", krp_pivot_label(&p, 1, 1), "model");
	CHECK("plain: the mean of both runs", krp_pivot_cell(&p, 0, 0, &v) == 0 && v == 101);
	CHECK("model: of the run that has it", krp_pivot_cell(&p, 1, 0, &v) == 0 && v == 80);
	CHECK("text", krp_pivot_text(&p, "base+numa_balancing=0", &out, err, sizeof(err)) == 0);
	CHECK("the model's improvement", out.data && strstr(out.data, "model| 12.50%|") != NULL);
	CHECK("the plain one's", out.data && strstr(out.data, "plain| -2.97%|") != NULL);
	krp_buf_free(&out);
	krp_pivot_free(&p);
	for (i = 0; i < sizeof(model_runs) / sizeof(model_runs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s/job.conf", root, model_runs[i][0]);
		unlink(path);
		snprintf(path, sizeof(path), "%s/%s/stats.json", root, model_runs[i][0]);
		unlink(path);
		snprintf(path, sizeof(path), "%s/%s", root, model_runs[i][0]);
		rmdir(path);
	}
	rmdir(root);
}

int main(void)
{
	test_collect_model();
	test_sort_keys();
	check_seed("seed003 table 1", t1, imp1);
	check_seed("seed003 table 2", t2, imp2);
	test_layout();
	test_means_and_formulas();
	UNIT_EXIT();
}
