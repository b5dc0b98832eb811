/* What a metric means, as data: the suites/<name>/meta and
 * monitors/<name>/meta files, built into the tools by the Makefile
 * (krp_meaning_text).  One rule a line, "PATTERN WORD...", '#' comments;
 * "param" lines are matrix parameters, read by lib/shared/cells.sh, not here:
 *
 *   PATTERN   a metric name, '*' matching any run of characters (fnmatch)
 *   higher | lower | none   its direction (a bigger value is better, worse,
 *             or neither); a name takes the first matching lower rule, else
 *             the first matching rule with a direction
 *   headline  a benchmark's main metric, the one the summary and the plot
 *             show and the memory model restates (model.<name>): a name,
 *             or a pattern starting with its suite's name
 *             (autonuma-benchmark.*.seconds), never with '*'; earlier
 *             lines are preferred
 *   monitor   a monitor's metric, not a benchmark result
 *   rusage    the benchmark's own rusage (<bench>.time.*): a monitor too,
 *             grouped by benchmark
 *   counter   an event counter: a run's value is last - first sample
 *             (others are gauges, the mean of the samples)
 *   absolute  a change is shown as the difference, not in percent
 *   failure   a failure count: shown whenever it is not zero
 *   share     a share of a profile: a run (of any variant compared) whose
 *             profile lacks the name had none of it, 0, as 0-day's
 *             perf-profile rows read
 *
 * A rule the tools cannot read stops them, naming the file and line: the
 * unit tests read every rule.  The build (tools/meta-tables.awk, which
 * writes krp_meaning_text) stops at a line that is not safe in a C string
 * and at two lines giving one metric two directions (one pattern twice, or
 * a plain name and another folder's pattern), naming both files and lines,
 * and at a line for another folder's metrics (a pattern's name, up to its
 * first '.' or '*', is its folder's own: its name, monitor, parser, lkp
 * NAME or "metrics NAME..." lines; a pattern without one is no headline). */
#ifndef KREPRO_MEANING_H
#define KREPRO_MEANING_H
#include <stddef.h>

/* The prefix of a benchmark's headline in the memory model's time
 * (model.<headline>, analyze/model_rate.h): it means what the headline
 * means. */
#define KRP_MODEL_RATE_PREFIX "model."

/* 1 (higher is better), -1 (lower is better) or 0 (unknown or neither);
 * model.<name> without a rule of its own: <name>'s. */
int krp_meaning_direction(const char *name);

/* 1 if a monitor rule (not rusage) matches name. */
int krp_meaning_monitor(const char *name);

/* 1 if a rusage rule matches name. */
int krp_meaning_rusage(const char *name);

/* 1 if a counter, absolute or failure rule matches name. */
int krp_meaning_counter(const char *name);
int krp_meaning_absolute(const char *name);
int krp_meaning_failure(const char *name);
int krp_meaning_share(const char *name);

/* The i-th headline name or pattern in order of preference, NULL past the
 * last. */
const char *krp_meaning_headline(size_t i);

/* The rank i of the first headline rule name matches, -1 if none does, if
 * name has no direction (a headline is better one way) or is a model.
 * metric. */
long krp_meaning_headline_rank(const char *name);

/* The number of rules read (for tests). */
size_t krp_meaning_rules(void);

/* The rules' text (generated from the files). */
extern const char krp_meaning_text[];

#endif
