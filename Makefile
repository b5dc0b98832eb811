# krepro: host tools, guest tools, tests.
# Host tools: cc with warnings as errors.  Guest tools: musl-gcc -static with
# pinned flags (never -march=native) so two builds give the same bytes.

OUT        ?= out
CC         ?= cc
MUSL_CC    ?= musl-gcc
CSTD        = -std=c11 -D_GNU_SOURCE
WARN        = -Wall -Wextra -Werror
HOST_CFLAGS = $(CSTD) $(WARN) -O2 -g -Itools/common -Itools/host/lib
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
HOSTLIB_SRC = $(sort $(wildcard tools/host/lib/*.c))
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

$(OUT)/host/%: tools/host/%.c $(COMMON_SRC) $(HOSTLIB_SRC) $(HDRS)
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) -o $@ $< $(COMMON_SRC) $(HOSTLIB_SRC) $(HOST_LIBS)

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
$(OUT)/unit/%: tests/unit/%.c $(COMMON_SRC) $(HOSTLIB_SRC) $(HDRS) tests/unit/unit.h
	@mkdir -p $(@D)
	$(CC) $(HOST_CFLAGS) $(SAN) -Itests/unit -o $@ $< $(COMMON_SRC) $(HOSTLIB_SRC) $(HOST_LIBS)

# Fuzz targets: libFuzzer (clang); the tests replay the committed corpora.
$(OUT)/fuzz/%: tests/fuzz/%.c $(COMMON_SRC) $(HOSTLIB_SRC) $(HDRS)
	@mkdir -p $(@D)
	clang $(CSTD) $(WARN) -g -O1 -Itools/common -Itools/host/lib \
	  -fsanitize=fuzzer,address,undefined -o $@ $< $(COMMON_SRC) $(HOSTLIB_SRC) $(HOST_LIBS)

check-quick:
	sh tests/run.sh --quick

check:
	sh tests/run.sh

format:
	clang-format -i tools/*/*.c tools/*/*.h tools/host/lib/*.[ch] suites/*/*.[ch] tests/unit/*.[ch] tests/fuzz/*.c

clean:
	rm -rf $(OUT)
