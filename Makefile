# rentop: GNU make, hand-written.
#
#   make                  build rentop and rentop-sim (VARIANT=release)
#   make demo             install missing deps, build, run rentop against a seeded rentop-sim
#   make check            install missing deps, build (-Werror) and run every suite,
#                         then the AddressSanitizer and ThreadSanitizer runs
#   make bench            build and run the benchmarks, printing figures
#   make soak             the dashboard's resident memory over 30 minutes (SOAK_S),
#                         then the 10,000-instance fleet over five minutes with no 429
#   make screenshots      regenerate screenshots/*.png from the real binary
#   make coverage         unit, contract and integ suites under gcov (build/coverage):
#                         line and branch coverage per src/ file, HTML report
#   make install          PREFIX=/usr/local DESTDIR=
#   make deps | clean
#
# VARIANT=release|debug|asan|tsan|coverage builds into build/<variant>/ (override with O=dir).

VERSION   := 0.1.0
VARIANT   ?= release
O         ?= build/$(VARIANT)
PREFIX    ?= /usr/local
BINDIR    ?= $(PREFIX)/bin
MANDIR    ?= $(PREFIX)/share/man
DATADIR   ?= $(PREFIX)/share/rentop
WERROR    ?= -Werror
CC        ?= cc
PKG_CONFIG ?= pkg-config

# Recursive (=) on purpose: pkg-config runs when a recipe needs it, after `deps`.
PKGS_CORE  = libcurl jansson yajl libcrypto zlib
PKGS_UI    = ncursesw libqrencode inih
PKGS_SIM   = libmicrohttpd jansson liboath
pc_cflags  = $(shell $(PKG_CONFIG) --cflags $(1))
pc_libs    = $(shell $(PKG_CONFIG) --libs $(1))

WARN := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
        -Wformat=2 -Wvla -Wpointer-arith -Wundef -Wcast-align -Wnull-dereference \
        -Wimplicit-fallthrough -Wold-style-definition -Wswitch-enum

ifeq ($(VARIANT),release)
  OPT := -O2 -g -D_FORTIFY_SOURCE=2 -fstack-protector-strong
else ifeq ($(VARIANT),debug)
  OPT := -O0 -g3
else ifeq ($(VARIANT),asan)
  OPT := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
  SAN_LD := -fsanitize=address,undefined
else ifeq ($(VARIANT),tsan)
  OPT := -O1 -g -fno-omit-frame-pointer -fsanitize=thread
  SAN_LD := -fsanitize=thread
else ifeq ($(VARIANT),coverage)
  OPT := -O0 -g --coverage
  SAN_LD := --coverage
else
  $(error VARIANT must be release, debug, asan, tsan or coverage)
endif

CPPFLAGS_ALL = -D_GNU_SOURCE -DRENTOP_VERSION='"$(VERSION)"' -DRENTOP_DATADIR='"$(DATADIR)"' -Isrc -Iui
CFLAGS_ALL   = -std=c11 $(OPT) $(WARN) $(WERROR) -pthread -MMD -MP
LDFLAGS_ALL  = -pthread $(SAN_LD)

CORE_SRC := $(sort $(wildcard src/*/*.c))
UI_SRC   := $(filter-out ui/main.c,$(sort $(wildcard ui/*.c ui/widgets/*.c ui/views/*/*.c)))
SIM_SRC  := $(wildcard tests/sim/*.c)
CORE_OBJ := $(CORE_SRC:%.c=$(O)/obj/%.o)
UI_OBJ   := $(UI_SRC:%.c=$(O)/obj/%.o)
SIM_OBJ  := $(SIM_SRC:%.c=$(O)/obj/%.o)
MAIN_OBJ := $(O)/obj/ui/main.o

# Test programs: every tests/<suite>/test_*.c is one binary, linked with the
# suite's other .c files (helpers).
test_bins    = $(patsubst tests/$(1)/%.c,$(O)/tests/$(1)/%,$(wildcard tests/$(1)/test_*.c))
test_helpers = $(patsubst %.c,$(O)/obj/%.o,$(filter-out tests/$(1)/test_%,$(wildcard tests/$(1)/*.c)))
UNIT_BINS     := $(call test_bins,unit)
CONTRACT_BINS := $(call test_bins,contract)
BENCH_BINS    := $(patsubst tests/bench/%.c,$(O)/tests/bench/%,$(wildcard tests/bench/bench_*.c))

RENTOP := $(O)/rentop
SIM    := $(O)/rentop-sim
CORE_LIB := $(O)/librentop-core.a
UI_LIB   := $(O)/librentop-ui.a

LIBS_CLIENT = $(call pc_libs,$(PKGS_CORE) $(PKGS_UI)) -lm
LIBS_SIM    = $(call pc_libs,$(PKGS_SIM)) -lm

.PHONY: all demo check test bench soak screenshots install uninstall deps clean \
        tests unit-bins contract-bins bench-bins check-layering fuzz coverage
.DEFAULT_GOAL := all

all: $(RENTOP) $(SIM)

# ---- objects ---------------------------------------------------------------
$(O)/obj/src/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) $(call pc_cflags,$(PKGS_CORE)) -c $< -o $@

$(O)/obj/ui/%.o: ui/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) $(CFLAGS_ALL) $(call pc_cflags,$(PKGS_CORE) $(PKGS_UI)) -c $< -o $@

$(O)/obj/tests/sim/%.o: tests/sim/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) -Itests/sim $(CFLAGS_ALL) $(call pc_cflags,$(PKGS_SIM)) -c $< -o $@

$(O)/obj/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS_ALL) -Itests $(CFLAGS_ALL) $(call pc_cflags,$(PKGS_CORE) $(PKGS_UI) cmocka) -c $< -o $@

# ---- programs --------------------------------------------------------------
$(CORE_LIB): $(CORE_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(UI_LIB): $(UI_OBJ)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

$(RENTOP): $(MAIN_OBJ) $(UI_LIB) $(CORE_LIB)
	$(CC) $(LDFLAGS_ALL) -o $@ $(MAIN_OBJ) $(UI_LIB) $(CORE_LIB) $(LIBS_CLIENT)

$(SIM): $(SIM_OBJ)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS_ALL) -o $@ $(SIM_OBJ) $(LIBS_SIM)

.SECONDEXPANSION:
$(O)/tests/unit/%: $(O)/obj/tests/unit/%.o $$(call test_helpers,unit) $(UI_LIB) $(CORE_LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS_ALL) -o $@ $< $(call test_helpers,unit) $(UI_LIB) $(CORE_LIB) $(LIBS_CLIENT) $(call pc_libs,cmocka)

$(O)/tests/contract/%: $(O)/obj/tests/contract/%.o $$(call test_helpers,contract)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS_ALL) -o $@ $< $(call test_helpers,contract) $(call pc_libs,libcurl jansson cmocka) -lm

$(O)/tests/bench/%: $(O)/obj/tests/bench/%.o $(UI_LIB) $(CORE_LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS_ALL) -o $@ $< $(UI_LIB) $(CORE_LIB) $(LIBS_CLIENT)

unit-bins: $(UNIT_BINS)
contract-bins: $(CONTRACT_BINS)
bench-bins: $(BENCH_BINS)
tests: all unit-bins contract-bins

# src/ is the core: curses belongs to ui/ alone.
# src/ draws nothing; the layers of mk/layering.sh, no include cycle.
check-layering:
	@if grep -rlE '#include *[<"](n?curses|ncursesw/|term\.h|panel\.h)' src; then \
	    echo "layering: the files above include curses; drawing belongs in ui/" >&2; exit 1; fi
	@sh mk/layering.sh .

# ---- the two commands ------------------------------------------------------
deps:
	@sh mk/deps.sh

demo: deps
	@$(MAKE) --no-print-directory all
	@sh mk/demo.sh $(O)

# Builds everything with -Werror, runs every suite, then the sanitizer runs.
# Ends with "N passed, N failed".
check: deps
	@sh tests/check.sh

test: tests
	@sh tests/run.sh $(O)

bench: deps
	@$(MAKE) --no-print-directory all bench-bins
	@sh tests/bench/run.sh $(O)

# resident memory of the dashboard over a long run (SOAK_S, default 30 min)
soak: deps
	@$(MAKE) --no-print-directory all
	@sh tests/bench/soak.sh $(O)
	@FLEET_WINDOW_S=300 BUILD_DIR=$(abspath $(O)) RENTOP=$(abspath $(O))/rentop \
	    RENTOP_SIM=$(abspath $(O))/rentop-sim sh tests/e2e/test_fleet.sh

screenshots: deps
	@$(MAKE) --no-print-directory all
	@sh tests/e2e/screenshots.sh $(O)

fuzz:
	@sh tests/fuzz/run.sh

# Not part of check: its own build (build/coverage), its own dependency (gcovr).
coverage:
	@sh mk/deps.sh coverage
	@sh tests/coverage.sh

# ---- install ---------------------------------------------------------------
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(DATADIR)/themes
	install -m 755 $(RENTOP) $(DESTDIR)$(BINDIR)/rentop
	install -m 644 rentop.1 $(DESTDIR)$(MANDIR)/man1/rentop.1
	install -m 644 themes/*.theme $(DESTDIR)$(DATADIR)/themes/

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/rentop $(DESTDIR)$(MANDIR)/man1/rentop.1
	rm -rf $(DESTDIR)$(DATADIR)

clean:
	rm -rf build

-include $(shell find $(O) -name '*.d' 2>/dev/null)
