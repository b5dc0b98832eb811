/* The guest's programs for the model's profile (uprogs.h says why). */
#include "uprogs.h"
#include "util.h"

#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ufn {
	uint64_t start, end;
	const char *name; /* in the program's string table */
};

struct useg {
	uint64_t vaddr;
	size_t len;
	const unsigned char *bytes; /* in the program's file image */
};

struct uprog {
	char name[64];
	unsigned char *file;
	size_t size;
	struct useg seg[8];
	size_t nseg;
	struct ufn *fn;
	size_t nfn;
};

struct krm_uprogs {
	struct uprog p[KRM_UPROGS_MAX];
	size_t n;
};

struct krm_uprogs *krm_uprogs_new(void)
{
	return calloc(1, sizeof(struct krm_uprogs));
}

size_t krm_uprogs_count(const struct krm_uprogs *u)
{
	return u ? u->n : 0;
}

static int fail(char *err, size_t errlen, const char *path, const char *why)
{
	snprintf(err, errlen, "%s: %s", path, why);
	return -1;
}

/* 1 when [off, off + len) lies inside a file of size bytes */
static int inside(uint64_t off, uint64_t len, size_t size)
{
	return off <= size && len <= size - off;
}

static int by_start(const void *a, const void *b)
{
	const struct ufn *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int load_symbols(struct uprog *p, const Elf64_Ehdr *eh)
{
	Elf64_Shdr sh, str;

	if (eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    !inside(eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr), p->size))
		return -1;
	for (size_t i = 0; i < eh->e_shnum; i++) {
		size_t nsym;

		memcpy(&sh, p->file + eh->e_shoff + i * sizeof(sh), sizeof(sh));
		if (sh.sh_type != SHT_SYMTAB)
			continue;
		if (sh.sh_entsize != sizeof(Elf64_Sym) || sh.sh_link >= eh->e_shnum ||
		    !inside(sh.sh_offset, sh.sh_size, p->size))
			return -1;
		memcpy(&str, p->file + eh->e_shoff + sh.sh_link * sizeof(str), sizeof(str));
		if (!inside(str.sh_offset, str.sh_size, p->size) || str.sh_size == 0 ||
		    p->file[str.sh_offset + str.sh_size - 1] != '\0')
			return -1;
		nsym = sh.sh_size / sizeof(Elf64_Sym);
		p->fn = calloc(nsym + 1, sizeof(*p->fn));
		if (!p->fn)
			return -1;
		for (size_t k = 0; k < nsym; k++) {
			Elf64_Sym s;

			memcpy(&s, p->file + sh.sh_offset + k * sizeof(s), sizeof(s));
			if (ELF64_ST_TYPE(s.st_info) != STT_FUNC || s.st_size == 0 ||
			    s.st_name >= str.sh_size || s.st_value + s.st_size < s.st_value)
				continue;
			p->fn[p->nfn].start = s.st_value;
			p->fn[p->nfn].end = s.st_value + s.st_size;
			p->fn[p->nfn].name = (const char *)p->file + str.sh_offset + s.st_name;
			p->nfn++;
		}
		qsort(p->fn, p->nfn, sizeof(*p->fn), by_start);
		return 0;
	}
	return 0; /* stripped: the program is still told apart, its functions are not */
}

int krm_uprogs_add(struct krm_uprogs *u, const char *path, char *err, size_t errlen)
{
	struct uprog *p;
	Elf64_Ehdr eh;
	const char *base = strrchr(path, '/');

	if (u->n == KRM_UPROGS_MAX)
		return fail(err, errlen, path, "too many programs");
	p = &u->p[u->n];
	memset(p, 0, sizeof(*p));
	base = base ? base + 1 : path;
	if (!*base || strlen(base) >= sizeof(p->name) || strpbrk(base, " \t\n:"))
		return fail(err, errlen, path, "a program's name: 1 to 63 bytes, no blank or ':'");
	strcpy(p->name, base);
	if (krp_read_file(path, KRM_UPROG_MAX_BYTES, (char **)&p->file, &p->size, err, errlen) != 0)
		return -1;
	memcpy(&eh, p->file, p->size < sizeof(eh) ? p->size : sizeof(eh));
	if (p->size < sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh.e_machine != EM_X86_64 || eh.e_type != ET_EXEC) {
		free(p->file);
		return fail(err, errlen, path, "not a static x86-64 executable (ELF64 EXEC)");
	}
	if (eh.e_phentsize != sizeof(Elf64_Phdr) ||
	    !inside(eh.e_phoff, (uint64_t)eh.e_phnum * sizeof(Elf64_Phdr), p->size))
		goto bad;
	for (size_t i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		memcpy(&ph, p->file + eh.e_phoff + i * sizeof(ph), sizeof(ph));
		if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X) || ph.p_filesz == 0)
			continue;
		if (!inside(ph.p_offset, ph.p_filesz, p->size) || p->nseg == 8 ||
		    ph.p_vaddr + ph.p_filesz < ph.p_vaddr)
			goto bad;
		p->seg[p->nseg].vaddr = ph.p_vaddr;
		p->seg[p->nseg].len = ph.p_filesz;
		p->seg[p->nseg].bytes = p->file + ph.p_offset;
		p->nseg++;
	}
	if (p->nseg == 0 || load_symbols(p, &eh) != 0)
		goto bad;
	u->n++;
	return 0;
bad:
	free(p->fn);
	free(p->file);
	return fail(err, errlen, path, "its ELF headers point outside it");
}

unsigned krm_uprogs_match(const struct krm_uprogs *u, uint64_t vaddr, const unsigned char *bytes,
			  size_t len)
{
	unsigned found = 0;

	if (!u || len == 0)
		return 0;
	for (size_t i = 0; i < u->n; i++)
		for (size_t s = 0; s < u->p[i].nseg; s++) {
			const struct useg *g = &u->p[i].seg[s];

			if (vaddr < g->vaddr || vaddr - g->vaddr > g->len ||
			    len > g->len - (vaddr - g->vaddr) ||
			    memcmp(g->bytes + (vaddr - g->vaddr), bytes, len) != 0)
				continue;
			if (found)
				return 0; /* two programs hold these bytes here */
			found = (unsigned)i + 1;
			break;
		}
	return found;
}

const char *krm_uprogs_name(const struct krm_uprogs *u, unsigned prog)
{
	return u && prog >= 1 && prog <= u->n ? u->p[prog - 1].name : NULL;
}

const char *krm_uprogs_function(const struct krm_uprogs *u, unsigned prog, uint64_t pc)
{
	const struct uprog *p;
	size_t lo = 0, hi;

	if (!u || prog < 1 || prog > u->n)
		return NULL;
	p = &u->p[prog - 1];
	hi = p->nfn;
	while (lo < hi) { /* the first function starting after pc */
		size_t mid = lo + (hi - lo) / 2;

		if (p->fn[mid].start <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && pc < p->fn[lo - 1].end ? p->fn[lo - 1].name : NULL;
}

void krm_uprogs_free(struct krm_uprogs *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->n; i++) {
		free(u->p[i].fn);
		free(u->p[i].file);
	}
	free(u);
}
