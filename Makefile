# krepro: host tools, guest tools, tests.
# Host tools: cc with warnings as errors.  Guest tools: musl-gcc -static with
# pinned flags (never -march=native) so two builds give the same bytes.

OUT        ?= out
CC         ?= cc
MUSL_CC    ?= musl-gcc
CSTD        = -std=c11 -D_GNU_SOURCE
WARN        = -Wall -Wextra -Werror
HOST_CFLAGS = $(CSTD) $(WARN) -O2 -g
HOST_LIBS   = -ljansson -lyaml -lm
GUEST_STRIP = -s
GUEST_CFLAGS = $(CSTD) $(WARN) -O2 -static $(GUEST_STRIP) '-ffile-prefix-map=$(CURDIR)=.' \
               -Itools/common -Itools/guest
# UAPI: Linux UAPI headers from the reference tree (build.sh passes them).
ifneq ($(UAPI),)
GUEST_CFLAGS += -isystem $(UAPI)
endif
GUEST_LIBS  = -lm -lpthread
SAN         = -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all

COMMON_SRC = $(sort $(wildcard tools/common/*.c))
# Host C library in layers, each a static archive: core -> input -> parse ->
# analyze -> render.  A layer is compiled with the include paths of itself and
# the layers below only, so an upward #include does not compile.  The
# parsers beside each suite and monitor (suites/<name>/parse.c,
# monitors/<name>/parse.c) go into the parse archive but see only core and
# input; the parse layer's table reaches their parse.h as "<name>/parse.h".
# A suite's rules of reading a report email (suites/<name>/report.c) go into
# the input archive and see only core and input (report_params.h).
HOSTLIB = tools/host/lib
LAYERS = common core input parse analyze render
UNITS = $(LAYERS) parsers
common_SRC = $(COMMON_SRC)
core_SRC = $(sort $(wildcard $(HOSTLIB)/core/*.c)) $(MEANING_C)
input_SRC = $(sort $(wildcard $(HOSTLIB)/input/*.c)) $(sort $(wildcard suites/*/report.c))
parse_SRC = $(sort $(wildcard $(HOSTLIB)/parse/*.c))
parsers_SRC = $(sort $(wildcard suites/*/parse.c monitors/*/parse.c))
analyze_SRC = $(sort $(wildcard $(HOSTLIB)/analyze/*.c))
render_SRC = $(sort $(wildcard $(HOSTLIB)/render/*.c))
common_INC = -Itools/common -I$(GEN)
core_INC = $(common_INC) -I$(HOSTLIB)/core
input_INC = $(core_INC) -I$(HOSTLIB)/input
parse_INC = $(input_INC) -I$(HOSTLIB)/parse -Isuites -Imonitors
parsers_INC = $(input_INC)
parse_WITH = parsers
analyze_INC = $(parse_INC) -I$(HOSTLIB)/analyze
render_INC = $(analyze_INC) -I$(HOSTLIB)/render
HOST_HDRS = $(HDRS) $(wildcard $(HOSTLIB)/*/*.h) $(META_TABLES)
# The tables the folders declare in their meta files (tools/meta-tables.awk):
# the monitors krepro-monitor runs, the raw files' parsers and their headers,
# the suites' lkp-tests names (krepro-lkpjob), the report reader's rules.
GEN = $(OUT)/gen
MONITOR_META = $(sort $(wildcard monitors/*/meta))
SUITE_META = $(sort $(wildcard suites/*/meta))
META_TABLES = $(GEN)/monitors.def $(GEN)/raw_files.def $(GEN)/parse_headers.h $(GEN)/lkp_suites.def \
              $(GEN)/report_rules.def
# What metrics mean (core/meaning.h): every monitor's and suite's meta file
# (its meaning lines), monitors first, as one C string in the core archive,
# written by tools/meta-tables.awk (which refuses two meanings of one metric).
MEANING_FILES = $(sort $(wildcard monitors/*/meta)) $(sort $(wildcard suites/*/meta))
MEANING_C = $(OUT)/gen/meaning_text.c
# Three builds of the archives: host tools, unit tests (sanitizers) and
# fuzzers (clang, libFuzzer's coverage); a tool links the top layer first.
host_CC = $(CC)
host_CFLAGS = $(HOST_CFLAGS)
san_CC = $(CC)
san_CFLAGS = $(HOST_CFLAGS) $(SAN)
fuzz_CC = clang
fuzz_CFLAGS = $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link,address,undefined
FUZZ_CFLAGS = $(CSTD) $(WARN) -g -O1
LIBS_OF = $(foreach l,render analyze parse input core common,$(OUT)/lib/$(1)/libkrp-$(l).a)
HOST_TOOLS = $(patsubst tools/host/%.c,$(OUT)/host/%,$(sort $(wildcard tools/host/*.c)))
# will-it-scale: the runner, what its testcases share and one file a
# testcase in tests/; the runner's table is generated from that folder
# (WIS_LIST), so adding a testcase is adding its file.
WIS = suites/will-it-scale
WIS_TEST_SRC = $(sort $(wildcard $(WIS)/tests/*.c))
WIS_SRC = $(WIS)/will-it-scale.c $(WIS)/testcase.c $(WIS_TEST_SRC)
WIS_LIST = $(OUT)/gen/wis_tests.h
# A suite's guest programs: every suites/<name>/*.c but its host parser,
# its report rules and will-it-scale's (built from WIS_SRC below).
SUITE_GUEST_SRC = $(sort $(filter-out %/parse.c %/report.c $(WIS_SRC),$(wildcard suites/*/*.c)))
GUEST_TOOLS = $(patsubst tools/guest/%.c,$(OUT)/guest/%,$(sort $(wildcard tools/guest/krepro-*.c))) \
              $(foreach s,$(SUITE_GUEST_SRC),$(OUT)/guest/$(basename $(notdir $(s)))) \
              $(OUT)/guest/will-it-scale $(OUT)/guest/will-it-scale-threads
UNIT_TESTS = $(patsubst tests/unit/%.c,$(OUT)/unit/%,$(sort $(wildcard tests/unit/*_test.c)))
FUZZERS = $(patsubst tests/fuzz/%.c,$(OUT)/fuzz/%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
HDRS = $(wildcard tools/common/*.h tools/host/lib/*.h tools/guest/*.h suites/*/*.h)

.PHONY: all host guest guest-syms unit fuzz check check-quick clean format docs docs-check model-plugin FORCE
all: host guest

host: $(HOST_TOOLS) $(TEST_LISTS)
guest: $(GUEST_TOOLS)
# The guest programs again with their symbols, in $(OUT)/syms/guest: the
# same text and layout (-s only drops the symbol table; the image keeps
# the stripped ones), for the memory model's profile to name user
# functions (tools/qemu-plugin/uprogs.h).
guest-syms:
	@$(MAKE) -s OUT=$(OUT)/syms GUEST_STRIP= UAPI='$(UAPI)' guest
unit: $(UNIT_TESTS)
fuzz: $(FUZZERS)

OBJS_OF = $(patsubst %.c,$(OUT)/lib/$(1)/$(2)/%.o,$($(2)_SRC))
define obj_rule
$(OUT)/lib/$(1)/$(2)/%.o: %.c $$(HOST_HDRS)
	@mkdir -p $$(@D)
	$$($(1)_CC) $$($(1)_CFLAGS) $$($(2)_INC) -c -o $$@ $$<
endef
$(MEANING_C): $(MEANING_FILES) tools/meta-tables.awk
	@mkdir -p $(@D)
	LC_ALL=C awk -v table=meaning -f tools/meta-tables.awk $(MEANING_FILES) >$@.tmp && mv $@.tmp $@

$(GEN)/monitors.def: $(MONITOR_META) tools/meta-tables.awk
	@mkdir -p $(@D)
	awk -v table=monitors -f tools/meta-tables.awk $(MONITOR_META) >$@.tmp && mv $@.tmp $@
$(GEN)/raw_files.def: $(SUITE_META) $(MONITOR_META) tools/meta-tables.awk
	@mkdir -p $(@D)
	awk -v table=parsers -f tools/meta-tables.awk $(SUITE_META) $(MONITOR_META) >$@.tmp && mv $@.tmp $@
$(GEN)/parse_headers.h: $(SUITE_META) $(MONITOR_META) tools/meta-tables.awk
	@mkdir -p $(@D)
	awk -v table=parse_headers -f tools/meta-tables.awk $(SUITE_META) $(MONITOR_META) >$@.tmp && mv $@.tmp $@
$(GEN)/lkp_suites.def: $(SUITE_META) tools/meta-tables.awk
	@mkdir -p $(@D)
	awk -v table=lkp_suites -f tools/meta-tables.awk $(SUITE_META) >$@.tmp && mv $@.tmp $@
$(GEN)/report_rules.def: $(SUITE_META) tools/meta-tables.awk
	@mkdir -p $(@D)
	awk -v table=report_rules -f tools/meta-tables.awk $(SUITE_META) >$@.tmp && mv $@.tmp $@

# Each suite's test names, read from its guest programs by its meta's
# "tests" line (tools/meta-tables.awk says how): out/gen/<suite>.tests, one
# name a line.  The key table (lib/shared/cells.sh) reads the same generator, so
# a "param test enum:@tests" check, --keys, docs/KEYS.md and the guest's
# /etc/krepro/keys hold this list; adding a testcase is adding its file.
TEST_SUITES = $(patsubst suites/%/meta,%,$(shell grep -l '^tests ' $(SUITE_META)))
TEST_LISTS = $(foreach s,$(TEST_SUITES),$(GEN)/$(s).tests)
SUITE_SOURCES = $(wildcard suites/$(1)/*.c suites/$(1)/*.h suites/$(1)/run.sh suites/$(1)/tests suites/$(1)/tests/*.c)
define tests_rule
$(GEN)/$(1).tests: suites/$(1)/meta $(call SUITE_SOURCES,$(1)) tools/meta-tables.awk
	@mkdir -p $$(@D)
	awk -v table=tests -f tools/meta-tables.awk suites/$(1)/meta | sed 's/^[^ ]* //' >$$@.tmp && \
	  test -s $$@.tmp && mv $$@.tmp $$@
endef
$(foreach s,$(TEST_SUITES),$(eval $(call tests_rule,$(s))))

# The generated docs: docs/MONITORS.md's table from the monitors' "doc"
# lines, docs/KEYS.md from the key table (./run-matrix.sh --keys-md).  make
# docs writes both; make docs-check fails naming the one that differs.
$(GEN)/MONITORS.md: docs/MONITORS.md $(MONITOR_META) tools/meta-tables.awk
	@mkdir -p $(@D)
	awk -v table=monitors_md -f tools/meta-tables.awk $(MONITOR_META) >$@.rows
	awk -v rows=$@.rows '/^<!-- end: make docs/ { skip = 0 } !skip { print } \
	  /^<!-- begin: make docs/ { while ((getline l < rows) > 0) print l; skip = 1 }' docs/MONITORS.md >$@
$(GEN)/KEYS.md: lib/shared/matrix-keys $(MONITOR_META) $(SUITE_META) lib/shared/cells.sh $(TEST_LISTS)
	@mkdir -p $(@D)
	./run-matrix.sh --keys-md >$@.tmp && mv $@.tmp $@
docs: $(GEN)/MONITORS.md $(GEN)/KEYS.md
	cp $(GEN)/MONITORS.md docs/MONITORS.md
	cp $(GEN)/KEYS.md docs/KEYS.md
docs-check: $(GEN)/MONITORS.md $(GEN)/KEYS.md
	@for f in MONITORS.md KEYS.md; do cmp -s $(GEN)/$$f docs/$$f || \
	  { echo "docs/$$f is not what the folders' meta files make: run make docs"; exit 1; }; done

define archive_rule
$(OUT)/lib/$(1)/libkrp-$(2).a: $$(call OBJS_OF,$(1),$(2)) $$(foreach u,$$($(2)_WITH),$$(call OBJS_OF,$(1),$$(u)))
	@rm -f $$@
	$$(AR) rcs $$@ $$^
endef
$(foreach f,host san fuzz,$(foreach u,$(UNITS),$(eval $(call obj_rule,$(f),$(u)))))
$(foreach f,host san fuzz,$(foreach l,$(LAYERS),$(eval $(call archive_rule,$(f),$(l)))))

$(OUT)/host/%: tools/host/%.c $(call LIBS_OF,host) $(HOST_HDRS)
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) $(render_INC) -o $@ $< $(call LIBS_OF,host) $(HOST_LIBS)

# The guest toolchain as a file: its compiler's version line and the hash
# of a static program it links (musl's startup code and libc in it).
# Every guest program depends on it, so programs another toolchain built
# (the host's, or the pinned root's: docs/REPRODUCIBLE.md) are rebuilt,
# never mixed into an image; it changes only when the toolchain does.
GUEST_TC = $(OUT)/guest.toolchain
$(GUEST_TC): FORCE
	@mkdir -p $(@D)
	@echo 'int main(void) { return 0; }' | $(MUSL_CC) -O2 -static -s -x c - -o $@.bin && \
	  { $(MUSL_CC) --version | head -n 1; sha256sum <$@.bin | cut -c1-64; } >$@.tmp && rm -f $@.bin && \
	  if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
FORCE:

$(OUT)/guest/%: tools/guest/%.c $(COMMON_SRC) $(HDRS) $(GUEST_TC)
	@mkdir -p $(@D)
	$(MUSL_CC) $(GUEST_CFLAGS) -o $@ $< $(COMMON_SRC) $(GUEST_LIBS)

# krepro-monitor: the loop, and every monitor family's sampler (monitors/
# <family>/sample.c) through the table their meta files declare.
MONITOR_SAMPLERS = tools/guest/sampler.c $(sort $(wildcard monitors/*/sample.c))
$(OUT)/guest/krepro-monitor: tools/guest/krepro-monitor.c $(MONITOR_SAMPLERS) $(GEN)/monitors.def $(COMMON_SRC) $(HDRS) $(GUEST_TC)
	@mkdir -p $(@D)
	$(MUSL_CC) $(GUEST_CFLAGS) -I$(GEN) -o $@ $< $(MONITOR_SAMPLERS) $(COMMON_SRC) $(GUEST_LIBS)

# PROG_COMMON: the tools/common sources PROG links if not all of them.
# unixbench-loop: only diag.c, so its code is as many pages as upstream's
# spawn (unixbench-loop.c says why that counts).
unixbench-loop_COMMON = tools/common/diag.c
define suite_guest_rule
$(OUT)/guest/$(basename $(notdir $(1))): $(1) $(COMMON_SRC) $(HDRS) $(GUEST_TC)
	@mkdir -p $$(@D)
	$$(MUSL_CC) $$(GUEST_CFLAGS) -o $$@ $$< $$(or $$($(basename $(notdir $(1)))_COMMON),$$(COMMON_SRC)) $$(GUEST_LIBS)
endef
$(foreach s,$(SUITE_GUEST_SRC),$(eval $(call suite_guest_rule,$(s))))

# The runner's table: WIS_TEST(NAME) for each tests/NAME.c, in name order.
# On the folder too, so that a removed file regenerates it.
$(WIS_LIST): $(WIS_TEST_SRC) $(WIS)/tests Makefile
	@mkdir -p $(@D)
	@{ echo '/* Generated by the Makefile from $(WIS)/tests/. */'; \
	  $(foreach f,$(WIS_TEST_SRC),echo 'WIS_TEST($(basename $(notdir $(f))))';) } >$@.tmp && mv $@.tmp $@

# will-it-scale's process and thread builds (will-it-scale.c says why two).
define wis_rule
$(OUT)/guest/$(1): $(WIS_SRC) $(WIS_LIST) $(COMMON_SRC) $(HDRS) $(GUEST_TC)
	@mkdir -p $$(@D)
	$$(MUSL_CC) $$(GUEST_CFLAGS) $(2) -I$(WIS) -I$(OUT)/gen -o $$@ $(WIS_SRC) $$(COMMON_SRC) $$(GUEST_LIBS)
endef
$(eval $(call wis_rule,will-it-scale,))
$(eval $(call wis_rule,will-it-scale-threads,-DWIS_THREAD_BUILD))

# Unit tests run under AddressSanitizer and UBSan.
$(OUT)/unit/%: tests/unit/%.c $(call LIBS_OF,san) $(HOST_HDRS) tests/unit/unit.h
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) $(SAN) $(render_INC) -Itests/unit -o $@ $< $(call LIBS_OF,san) $(HOST_LIBS)

# The memory model of the QEMU plugin (tools/qemu-plugin): its core,
# model.c, knows nothing of QEMU and is unit-tested alone; the plugin,
# krepro-model.so, needs QEMU's plugin header (QEMU_PLUGIN_INC, the folder
# holding qemu-plugin.h: ./build.sh model-plugin fetches it and calls this).
MODEL_SRC = tools/qemu-plugin/model.c tools/qemu-plugin/config.c tools/qemu-plugin/ksyms.c tools/qemu-plugin/xlat.c tools/qemu-plugin/uprogs.c \
	tools/host/lib/core/util.c tools/common/io.c
MODEL_HDRS = $(wildcard tools/qemu-plugin/*.h) tools/common/model_mark.h tools/common/model_format.h tools/common/value.h \
	tools/host/lib/core/util.h
$(OUT)/unit/model_test $(OUT)/unit/model_nodes_test: $(OUT)/unit/%: tests/unit/%.c $(MODEL_SRC) $(MODEL_HDRS) tests/unit/unit.h tests/unit/model_fixture.h
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) $(SAN) -Itools/common -Itools/host/lib/core -Itests/unit -o $@ $< $(MODEL_SRC) -lm
PLUGIN_CFLAGS = $(CSTD) $(WARN) -O2 -shared -fPIC
$(OUT)/qemu-plugin/krepro-model.so: tools/qemu-plugin/krepro-model.c $(MODEL_SRC) $(MODEL_HDRS)
	@test -f '$(QEMU_PLUGIN_INC)/qemu-plugin.h' || \
	  { echo 'krepro-model.so: set QEMU_PLUGIN_INC to the folder of qemu-plugin.h (./build.sh model-plugin)'; exit 2; }
	@mkdir -p $(@D)
	$(CC) $(PLUGIN_CFLAGS) -Itools/common -Itools/host/lib/core '-I$(QEMU_PLUGIN_INC)' -o $@ tools/qemu-plugin/krepro-model.c $(MODEL_SRC) -lm
model-plugin: $(OUT)/qemu-plugin/krepro-model.so

# Fuzz targets: libFuzzer (clang); the tests replay the committed corpora.
$(OUT)/fuzz/%: tests/fuzz/%.c $(call LIBS_OF,fuzz) $(HOST_HDRS)
	@mkdir -p $(@D)
	clang $(FUZZ_CFLAGS) $(render_INC) -fsanitize=fuzzer,address,undefined -o $@ $< \
	  $(call LIBS_OF,fuzz) $(HOST_LIBS)

check-quick:
	sh tests/run.sh --quick

check:
	sh tests/run.sh

format:
	clang-format -i tools/*/*.c tools/*/*.h tools/host/lib/*/*.[ch] suites/*/*.[ch] suites/*/tests/*.c monitors/*/*.[ch] tests/unit/*.[ch] tests/fuzz/*.c

clean:
	rm -rf $(OUT)
