/* keycheck: the key table's value grammar, in the plan's wording
 * (lib/shared/cells.awk prints it after "FILE:LINE: ") and the guest's
 * (initramfs/knobs.sh). */
#include <string.h>

#include "keycheck.h"
#include "unit.h"

static char msg[2048];

static const char *plan(const char *check, const char *key, const char *val)
{
	if (!krp_check_plan(check, key, val, "will-it-scale", "|meminfo|proc-vmstat|uptime", msg,
			    sizeof(msg)))
		return "";
	return msg;
}

static const char TABLE[] = "suite word job kit - the suite\n"
			    "thp enum:always|madvise|never path kit - thp\n"
			    "interval int:1:3600 job kit 1 seconds\n"
			    "nr_task count:4096 path will-it-scale - tasks\n"
			    "test words:a|bb|ccc path hackbench - tests\n"
			    "iterations int:1:100000 path hackbench 10 loops\n"
			    "sched_debug_interval int:1:3600 job monitor:sched_debug 60 x\n"
			    "short\n";

static const char *guest(const struct krp_keys *t, const char *suite, const char *key,
			 const char *val)
{
	if (!krp_check_guest(t, "/etc/krepro/keys", suite, " variant clock ", key, val, msg,
			     sizeof(msg)))
		return "";
	return msg;
}

int main(void)
{
	struct krp_keys t;
	char near[64];

	/* the plan */
	CHECK_STR("word passes", plan("word", "board", "qemu-2node"), "");
	CHECK_STR(
	    "word refuses a slash", plan("word", "board", "a/b"),
	    "bad value 'a/b' for 'board': expected letters, digits, '_', '.', '-' (at most 64)");
	CHECK_STR(
	    "words refuses ++", plan("words", "w", "a++b"),
	    "bad value 'a++b' for 'w': expected words of letters, digits, '_', '.', '-' joined "
	    "by '+' (at most 64)");
	CHECK_STR("int in range", plan("int:1:99", "runs", "99"), "");
	CHECK_STR("int over", plan("int:1:99", "runs", "100"),
		  "bad value '100' for 'runs': expected a whole number from 1 to 99");
	CHECK_STR("int leading zero", plan("int:1:99", "runs", "08"),
		  "bad value '08' for 'runs': a number with a leading zero (write it without)");
	CHECK_STR("count N%", plan("count:4096", "nr_task", "100%"), "");
	CHECK_STR("count 0", plan("count:4096", "nr_task", "0"),
		  "bad value '0' for 'nr_task': expected N (1..4096) or N% of the board's CPUs");
	CHECK_STR("count %%", plan("count:4096", "nr_task", "5%%"),
		  "bad value '5%%' for 'nr_task': expected N (1..4096) or N% of the board's CPUs");
	CHECK_STR("duration 10s", plan("duration", "runtime", "10s"), "");
	CHECK_STR("duration 10d", plan("duration", "runtime", "10d"),
		  "bad value '10d' for 'runtime': expected a duration: N, Ns, Nm or Nh");
	CHECK_STR("size 1023T", plan("size", "size", "1023T"), "");
	CHECK_STR("size 1024T is 1P", plan("size", "size", "1024T"),
		  "bad value '1024T' for 'size': expected a size: N, NK, NM, NG or NT, below 1P");
	CHECK_STR("size 64m", plan("size", "size", "64m"), "");
	CHECK_STR("enum short list", plan("enum:on|off", "ksm", "maybe"),
		  "bad value 'maybe' for 'ksm': expected one of on, off");
	CHECK_STR("enum long list names the closest",
		  plan("enum:a1|b2|c3|d4|e5|f6|g7|page_fault3", "test", "page_fault"),
		  "unknown will-it-scale test 'page_fault' (did you mean 'page_fault3'? the list: "
		  "the check of 'test' in suites/will-it-scale/meta, docs/KEYS.md)");
	CHECK_STR("words: list", plan("words:a|bb|ccc", "test", "a+cc"),
		  "unknown will-it-scale test 'cc' in 'a+cc' (did you mean 'ccc'? the list: the "
		  "check of 'test' in suites/will-it-scale/meta, docs/KEYS.md)");
	CHECK_STR(
	    "monitors", plan("monitors", "monitors", "meminfo+uptme"),
	    "unknown monitor 'uptme' in 'meminfo+uptme' (did you mean 'uptime'? the list: the "
	    "monitor lines of monitors/*/meta, docs/MONITORS.md)");
	CHECK_STR("monitors none", plan("monitors", "monitors", "none"), "");
	CHECK_STR(
	    "variant", plan("variant", "variants", "base,a..b"),
	    "bad variant name 'a..b' (base, SERIES, SERIES@N, A+B, and with a git reference a "
	    "commit: an id, a tag, REF^, REF~N)");
	CHECK_STR("variant stack", plan("variant", "variants", "base,a+b@2"), "");
	CHECK_STR("variant commits by their ancestry",
		  plan("variant", "variants", "v6.13-rc1^,v6.13-rc1~2,0a1b2c^^,a+v6.13~1"), "");
	CHECK_STR("variant starting with ~", plan("variant", "variants", "base,~1"),
		  "bad variant name '~1' (base, SERIES, SERIES@N, A+B, and with a git reference a "
		  "commit: an id, a tag, REF^, REF~N)");
	CHECK_STR(
	    "variant part starting with ^", plan("variant", "variants", "a+^b"),
	    "bad variant name 'a+^b' (base, SERIES, SERIES@N, A+B, and with a git reference a "
	    "commit: an id, a tag, REF^, REF~N)");
	CHECK_STR("reference git", plan("reference", "reference", "git:/src/linux@v6.12~2"), "");
	CHECK_STR("reference tarball", plan("reference", "reference", "tarball:/t/l.tar.xz#0a1b"),
		  "");
	CHECK_STR("reference with a space", plan("reference", "reference", "git:/a b@x"),
		  "bad value 'git:/a b@x' for 'reference': expected tarball:PATH[#SHA256] or "
		  "git:REPO@REF (letters, digits and _.-+/:@#%=,~^, at most 1024)");
	CHECK_STR("reference without its kind", plan("reference", "reference", "/src/linux"),
		  "bad value '/src/linux' for 'reference': expected tarball:PATH[#SHA256] or "
		  "git:REPO@REF (letters, digits and _.-+/:@#%=,~^, at most 1024)");
	CHECK_STR("reference with a quote", plan("reference", "reference", "git:/a'b@x"),
		  "bad value 'git:/a'b@x' for 'reference': expected tarball:PATH[#SHA256] or "
		  "git:REPO@REF (letters, digits and _.-+/:@#%=,~^, at most 1024)");
	CHECK_STR("seeds range", plan("seeds", "seeds", "3-10"), "");
	CHECK_STR("seeds backwards", plan("seeds", "seeds", "10-3"),
		  "bad value '10-3' for 'seeds': expected a seed N or seeds N-M (whole numbers "
		  "1..999999 without leading zeros, N <= M)");
	CHECK_STR("cmdline is not a grammar here", plan("cmdline", "kernel_cmdline", "a b"), "");

	krp_closest("x", "", near, sizeof(near));
	CHECK_STR("closest of no names", near, "");
	krp_closest("ab", "abc|ab|a", near, sizeof(near));
	CHECK_STR("closest exact", near, "ab");

	/* the table and the guest */
	CHECK("table parses", krp_keys_parse(&t, TABLE, sizeof(TABLE) - 1) == 0);
	CHECK("short lines skipped", t.n == 7);
	CHECK_STR("check of a suite's key", krp_keys_check(&t, "test", "hackbench"),
		  "words:a|bb|ccc");
	CHECK("another suite's key has none", krp_keys_check(&t, "test", "will-it-scale") == NULL);
	CHECK_STR("sysctl is a path", krp_keys_check(&t, "sysctl.vm.x", "hackbench"), "path");
	CHECK_STR("guest enum", guest(&t, "hackbench", "thp", "sometimes"),
		  "thp must be one of always|madvise|never, not 'sometimes'");
	CHECK_STR("guest words", guest(&t, "hackbench", "test", "a+b"),
		  "test: 'b' is none of a|bb|ccc");
	CHECK_STR("guest int range", guest(&t, "hackbench", "iterations", "0"),
		  "iterations must be from 1 to 100000, not 0");
	CHECK_STR("guest number", guest(&t, "hackbench", "sched_debug_interval", "x"),
		  "sched_debug_interval must be a number, not 'x'");
	CHECK_STR("guest resolved size in K", guest(&t, "will-it-scale", "nr_task", "5K"), "");
	CHECK_STR("guest extra key", guest(&t, "hackbench", "clock", "exact"), "");
	CHECK_STR(
	    "guest unknown key", guest(&t, "will-it-scale", "iterations", "5"),
	    "unknown key 'iterations' for suite will-it-scale (/etc/krepro/keys: docs/KEYS.md)");
	CHECK_STR("guest empty key", guest(&t, "hackbench", "", "5"),
		  "unknown key '' for suite hackbench (/etc/krepro/keys: docs/KEYS.md)");
	krp_keys_free(&t);
	return unit_failed;
}
