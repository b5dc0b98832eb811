/* Kernel error lines of a run's kmsg as 0-day's dmesg.* stats (see
 * dmesg.h). */
#include "dmesg.h"

#include <ctype.h>
#include <string.h>

#include "textline.h"

#define ID_MAX 160

/* The message of a kmsg line: after a "[    1.234567] " stamp and a
 * "<4>" level, if any. */
static const char *message_start(const char *p, const char *end)
{
	if (p < end && *p == '<') {
		const char *q = memchr(p, '>', (size_t)(end - p));

		if (q && q - p <= 4)
			p = q + 1;
	}
	if (p < end && *p == '[') {
		const char *q = memchr(p, ']', (size_t)(end - p));

		if (q && q - p <= 20)
			p = q + 1;
	}
	while (p < end && *p == ' ')
		p++;
	return p;
}

/* Append text to the id the way 0-day spells error ids: a number (with the
 * blanks around it) becomes '#', " - " becomes '-', ": " becomes ':', a
 * blank after ',', '!' or ';' goes, other blanks become '_'; bytes a
 * metric name cannot hold are dropped. */
static void id_append(char *id, size_t *n, const char *p, const char *end)
{
	while (p < end && *n + 1 < ID_MAX) {
		unsigned char c = (unsigned char)*p;

		if (isdigit(c)) {
			while (*n > 0 && id[*n - 1] == '_')
				(*n)--;
			while (p < end && isdigit((unsigned char)*p))
				p++;
			while (p < end && *p == ' ')
				p++;
			id[(*n)++] = '#';
			continue;
		}
		if (c == ' ' && end - p >= 3 && p[1] == '-' && p[2] == ' ') {
			id[(*n)++] = '-';
			p += 3;
			continue;
		}
		if (c == ':' && p + 1 < end && p[1] == ' ') {
			id[(*n)++] = ':';
			p += 2;
			continue;
		}
		/* A blank after punctuation goes: "address: 8" -> "address". */
		if ((c == ' ' || c == '\t') && *n > 0 && strchr(",!;", id[*n - 1])) {
			p++;
			continue;
		}
		if (c == ' ' || c == '\t')
			c = '_';
		if (c > 0x20 && c < 0x7f && c != '"' && c != '\\')
			id[(*n)++] = (char)c;
		p++;
	}
	id[*n] = '\0';
}

static void id_put(char *id, size_t *n, const char *s)
{
	id_append(id, n, s, s + strlen(s));
}

static const char *find(const char *p, const char *end, const char *s)
{
	size_t n = strlen(s);

	for (; p + n <= end; p++)
		if (memcmp(p, s, n) == 0)
			return p;
	return NULL;
}

/* The end of a symbol: "+0x" offset, blank or line end. */
static const char *symbol_end(const char *p, const char *end)
{
	const char *q = p;

	while (q < end && *q != ' ' && *q != '+')
		q++;
	return q;
}

/* The 0-day error id of one message, or 0 when it is none. */
static int error_id(const char *p, const char *end, char *id)
{
	const char *q;
	size_t n = 0;

	id[0] = '\0';
	if ((q = find(p, end, "WARNING: ")) != NULL && (q = find(q, end, " at ")) != NULL) {
		/* "WARNING: CPU: 1 PID: 7 at mm/x.c:12 func+0x1/0x2" */
		const char *file = q + 4, *colon = memchr(file, ':', (size_t)(end - file));
		const char *sym;

		if (!colon)
			return 0;
		id_put(id, &n, "WARNING:at_");
		id_append(id, &n, file, colon + 1);
		sym = colon + 1;
		while (sym < end && *sym != ' ')
			sym++;
		while (sym < end && *sym == ' ')
			sym++;
		id_put(id, &n, "#");
		id_append(id, &n, sym, symbol_end(sym, end));
		return 1;
	}
	if ((q = find(p, end, "BUG: ")) != NULL) {
		/* The kind of BUG; an address or a value after a last ": " is
		 * what differs from boot to boot, not the error. */
		const char *stop = end, *c;

		for (c = q + 5; c + 1 < end; c++)
			if (c[0] == ':' && c[1] == ' ' && c + 2 < end &&
			    (isxdigit((unsigned char)c[2]) || c[2] == '('))
				stop = c;
		id_append(id, &n, q, stop);
		return 1;
	}
	if ((q = find(p, end, "Kernel panic - ")) != NULL) {
		id_append(id, &n, q, end);
		return 1;
	}
	if ((q = find(p, end, "Out of memory: Killed process")) != NULL) {
		id_put(id, &n, "Out_of_memory:Killed_process");
		return 1;
	}
	if ((q = find(p, end, " invoked oom-killer")) != NULL) {
		id_put(id, &n, "invoked_oom-killer");
		return 1;
	}
	if ((q = find(p, end, "INFO: task ")) != NULL && find(q, end, " blocked for more than")) {
		id_put(id, &n, "INFO:task_blocked_for_more_than#seconds");
		return 1;
	}
	if ((q = find(p, end, "Oops: ")) == p) {
		id_put(id, &n, "Oops");
		return 1;
	}
	if ((q = find(p, end, "RIP: ")) == p) {
		/* "RIP: 0010:func+0x1/0x2" */
		const char *sym = memchr(q + 5, ':', (size_t)(end - q - 5));

		sym = sym ? sym + 1 : q + 5;
		id_put(id, &n, "RIP:");
		id_append(id, &n, sym, symbol_end(sym, end));
		return 1;
	}
	return 0;
}

size_t krp_parse_dmesg(const char *buf, size_t len, struct krp_metrics *m)
{
	struct krp_line l;
	char id[ID_MAX], name[ID_MAX + 8];
	size_t pos = 0, found = 0;

	while (krp_next_line(buf, len, &pos, &l)) {
		const char *end, *p;

		krp_trim(&l);
		end = l.p + l.n;
		p = message_start(l.p, end);

		if (!error_id(p, end, id) || id[0] == '\0')
			continue;
		memcpy(name, "dmesg.", 6);
		memcpy(name + 6, id, strlen(id) + 1);
		/* LKP's stat: 1 when the run's log holds the error at all. */
		if (krp_metric_add(m, name, 1, KRP_SET) == 0)
			found++;
	}
	if (found)
		krp_metric_add(m, "dmesg.boot_failures", 1, KRP_SET);
	return found;
}
