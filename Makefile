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
GUEST_CFLAGS = $(CSTD) $(WARN) -O2 -static -s '-ffile-prefix-map=$(CURDIR)=.' \
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
HOSTLIB = tools/host/lib
LAYERS = common core input parse analyze render
UNITS = $(LAYERS) parsers
common_SRC = $(COMMON_SRC)
core_SRC = $(sort $(wildcard $(HOSTLIB)/core/*.c))
input_SRC = $(sort $(wildcard $(HOSTLIB)/input/*.c))
parse_SRC = $(sort $(wildcard $(HOSTLIB)/parse/*.c))
parsers_SRC = $(sort $(wildcard suites/*/parse.c monitors/*/parse.c))
analyze_SRC = $(sort $(wildcard $(HOSTLIB)/analyze/*.c))
render_SRC = $(sort $(wildcard $(HOSTLIB)/render/*.c))
common_INC = -Itools/common
core_INC = $(common_INC) -I$(HOSTLIB)/core
input_INC = $(core_INC) -I$(HOSTLIB)/input
parse_INC = $(input_INC) -I$(HOSTLIB)/parse -Isuites -Imonitors
parsers_INC = $(input_INC)
parse_WITH = parsers
analyze_INC = $(parse_INC) -I$(HOSTLIB)/analyze
render_INC = $(analyze_INC) -I$(HOSTLIB)/render
HOST_HDRS = $(HDRS) $(wildcard $(HOSTLIB)/*/*.h)
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
# A suite's guest programs: every suites/<name>/*.c but its host parser.
SUITE_GUEST_SRC = $(sort $(filter-out %/parse.c,$(wildcard suites/*/*.c)))
GUEST_TOOLS = $(patsubst tools/guest/%.c,$(OUT)/guest/%,$(sort $(wildcard tools/guest/*.c))) \
              $(foreach s,$(SUITE_GUEST_SRC),$(OUT)/guest/$(basename $(notdir $(s)))) \
              $(OUT)/guest/will-it-scale-threads
UNIT_TESTS = $(patsubst tests/unit/%.c,$(OUT)/unit/%,$(sort $(wildcard tests/unit/test_*.c)))
FUZZERS = $(patsubst tests/fuzz/%.c,$(OUT)/fuzz/%,$(sort $(wildcard tests/fuzz/fuzz_*.c)))
HDRS = $(wildcard tools/common/*.h tools/host/lib/*.h tools/guest/*.h suites/*/*.h)

.PHONY: all host guest unit fuzz check check-quick clean format
all: host guest

host: $(HOST_TOOLS)
guest: $(GUEST_TOOLS)
unit: $(UNIT_TESTS)
fuzz: $(FUZZERS)

OBJS_OF = $(patsubst %.c,$(OUT)/lib/$(1)/$(2)/%.o,$($(2)_SRC))
define obj_rule
$(OUT)/lib/$(1)/$(2)/%.o: %.c $$(HOST_HDRS)
	@mkdir -p $$(@D)
	$$($(1)_CC) $$($(1)_CFLAGS) $$($(2)_INC) -c -o $$@ $$<
endef
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

$(OUT)/guest/%: tools/guest/%.c $(COMMON_SRC) $(HDRS)
	@mkdir -p $(@D)
	$(MUSL_CC) $(GUEST_CFLAGS) -o $@ $< $(COMMON_SRC) $(GUEST_LIBS)

define suite_guest_rule
$(OUT)/guest/$(basename $(notdir $(1))): $(1) $(COMMON_SRC) $(HDRS)
	@mkdir -p $$(@D)
	$$(MUSL_CC) $$(GUEST_CFLAGS) -o $$@ $$< $$(COMMON_SRC) $$(GUEST_LIBS)
endef
$(foreach s,$(SUITE_GUEST_SRC),$(eval $(call suite_guest_rule,$(s))))

# will-it-scale's thread build (suites/will-it-scale/will-it-scale.c says why two).
$(OUT)/guest/will-it-scale-threads: suites/will-it-scale/will-it-scale.c $(COMMON_SRC) $(HDRS)
	@mkdir -p $(@D)
	$(MUSL_CC) $(GUEST_CFLAGS) -DWIS_THREAD_BUILD -o $@ $< $(COMMON_SRC) $(GUEST_LIBS)

# Unit tests run under AddressSanitizer and UBSan.
$(OUT)/unit/%: tests/unit/%.c $(call LIBS_OF,san) $(HOST_HDRS) tests/unit/unit.h
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) $(SAN) $(render_INC) -Itests/unit -o $@ $< $(call LIBS_OF,san) $(HOST_LIBS)

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
	clang-format -i tools/*/*.c tools/*/*.h tools/host/lib/*/*.[ch] suites/*/*.[ch] monitors/*/*.[ch] tests/unit/*.[ch] tests/fuzz/*.c

clean:
	rm -rf $(OUT)
