# dcbkit - plain GNU make. `make help` lists the targets.
#
#   make run                 bootstrap what running needs, build, run the main job
#   make check               bootstrap that and the test packages, build, run every test
#   make check SANITIZE=1    the same under ASan+UBSan
#   make CC=clang            build with clang
#   make bench | bench-diagnosis | fuzz | fuzz-long | install PREFIX=/usr/local | clean | ci-extra
#   make format-check        fail on C files scripts/format would change

CC       ?= cc
SANITIZE ?=
PREFIX   ?= /usr/local
DESTDIR  ?=
FUZZ_SECONDS ?= 60
PKG_CONFIG ?= pkg-config

CCNAME   := $(notdir $(firstword $(CC)))
BUILD    ?= build/$(CCNAME)$(if $(SANITIZE),-san)

VERSION  := $(shell git describe --always --dirty --tags 2>/dev/null || echo 0.1.0)

# Libraries come in through pkg-config only.
LIB_PKGS  := sqlite3 libcjson libpcap libcurl libprotobuf-c libmicrohttpd libcap zlib
TEST_PKGS := cmocka
pkg_cflags = $(if $(1),$(shell $(PKG_CONFIG) --cflags $(1)))
pkg_libs   = $(if $(1),$(shell $(PKG_CONFIG) --libs $(1)))

# CFLAGS/LDFLAGS are the user's (optimisation, debug); the rest is always added.
WARN      := -Wall -Wextra -Werror -Wshadow -Wformat=2 -Wvla
CFLAGS    ?= -O2 -g
EXTRA_CFLAGS ?=
SANITIZERS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
SAN_FLAGS := $(if $(SANITIZE),$(SANITIZERS))
ALL_CFLAGS = -std=gnu11 $(CFLAGS) $(WARN) $(SAN_FLAGS) $(EXTRA_CFLAGS)
ALL_CPPFLAGS = -D_GNU_SOURCE -Ilib -Idecoders -Idecoders/track -Icollectors -Icollectors/gnmi -I$(GEN) -Irules -Irules/replay -Ireport -DDCBKIT_VERSION='"$(VERSION)"' \
    -DDCBKIT_SOURCE_MAPS='"$(abspath collectors/maps)"' \
    -DDCBKIT_SOURCE_RULES='"$(abspath rules/catalog)"' -DDCBKIT_SOURCE_DOCS='"$(abspath docs)"' \
    $(call pkg_cflags,$(LIB_PKGS)) $(CPPFLAGS)
# The replay engine's event loop runs through most of its files (sim, pkt, port, switch, buffer,
# nic, evq).
# With gcc, -O3 and link-time optimisation make it one loop: +5 % events/s on bench_replay's
# all-to-all. Fat objects: a link without LTO still has their usual code. Not with clang (14
# cannot make fat objects) nor under the sanitizers.
REPLAY_LTO := $(if $(or $(findstring clang,$(CCNAME)),$(SANITIZE)),,-O3 -flto=auto -ffat-lto-objects)
ALL_LDFLAGS = $(LDFLAGS) $(SAN_FLAGS) $(if $(REPLAY_LTO),-flto=auto)
DEPFLAGS  = -MMD -MP
LIBS      = $(call pkg_libs,$(LIB_PKGS)) -lm $(LDLIBS)

# ---- sources -------------------------------------------------------------------------------
LIB_SRCS  := $(sort $(wildcard lib/*.c decoders/*.c decoders/track/*.c collectors/*.c \
                                collectors/*/*.c rules/*.c rules/*/*.c \
                                report/*.c))
# gNMI messages: collectors/gnmi/gnmi.proto compiled by protoc-c into the build tree.
GEN       = $(BUILD)/gen
GNMI_PB_C = $(GEN)/gnmi.pb-c.c
GNMI_PB_H = $(GEN)/gnmi.pb-c.h
LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/obj/%.o) $(BUILD)/obj/gen/gnmi.pb-c.o
LIBDCB    := $(BUILD)/libdcbkit.a

# cmd/cli: the command-line toolkit both binaries link (options, usage errors, help, man pages).
CLI_SRCS    := $(sort $(wildcard cmd/cli/*.c))
CLI_OBJS    := $(CLI_SRCS:%.c=$(BUILD)/obj/%.o)

DCBKIT_SRCS := $(sort $(wildcard cmd/dcbkit/*.c cmd/dcbkit/*/*.c))
DCBKIT_OBJS := $(DCBKIT_SRCS:%.c=$(BUILD)/obj/%.o)
DCBKIT      := $(BUILD)/bin/dcbkit

# dcbtop: the live TUI, a second binary on ncursesw.
DCBTOP_SRCS := $(sort $(wildcard cmd/dcbtop/*.c))
DCBTOP_OBJS := $(DCBTOP_SRCS:%.c=$(BUILD)/obj/%.o)
DCBTOP      := $(BUILD)/bin/dcbtop
CURSES_PKG  := ncursesw

UNIT_SRCS  := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS  := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/unit/%)
BENCH_SRCS := $(sort $(wildcard tests/bench/bench_*.c))
BENCH_BINS := $(BENCH_SRCS:tests/bench/%.c=$(BUILD)/tests/bench/%)
# gnmi_target.py is the gNMI test peer the tests start, not a test
INTEG_TESTS := $(sort $(filter-out tests/integration/gnmi_target.py,\
                   $(wildcard tests/integration/*.sh tests/integration/*.py)))
FUZZ_SRCS  := $(sort $(wildcard tests/fuzz/fuzz_*.c))

BINS := $(DCBKIT) $(DCBTOP)

.PHONY: all run check check-unit check-integration bench bench-diagnosis fuzz fuzz-long fuzz-build fuzz-bins install \
        uninstall clean ci-extra cppcheck format-check bootstrap bootstrap-run help build-tests
.DEFAULT_GOAL := all

COMPLETIONS := $(BUILD)/completion/dcbkit.bash $(BUILD)/completion/_dcbkit

all: $(BINS) $(BUILD)/dcbkit.1 $(BUILD)/dcbtop.1 $(COMPLETIONS)

# ---- compile and link ----------------------------------------------------------------------
$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(DEPFLAGS) -c $< -o $@
$(BUILD)/obj/rules/replay/%.o: ALL_CFLAGS += $(REPLAY_LTO)

$(GNMI_PB_H): collectors/gnmi/gnmi.proto
	@mkdir -p $(GEN)
	protoc-c --c_out=$(GEN) --proto_path=collectors/gnmi $<
$(GNMI_PB_C): $(GNMI_PB_H)

$(BUILD)/obj/gen/gnmi.pb-c.o: $(GNMI_PB_C)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CPPFLAGS) $(ALL_CFLAGS) $(DEPFLAGS) -c $< -o $@

# Everything may include the generated header, so it exists before anything compiles.
$(LIB_OBJS) $(CLI_OBJS) $(DCBKIT_OBJS) $(DCBTOP_OBJS): | $(GNMI_PB_H)

$(LIBDCB): $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@
	$(AR) rcs $@ $^

# dcbkit completion also completes dcbtop, from dcbtop's own documentation
DCBTOP_HELP_OBJ := $(BUILD)/obj/cmd/dcbtop/top_help.o
$(BUILD)/obj/cmd/dcbkit/cmd_completion.o: ALL_CPPFLAGS += -Icmd/dcbtop

$(DCBKIT): $(DCBKIT_OBJS) $(CLI_OBJS) $(DCBTOP_HELP_OBJ) $(LIBDCB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/dcbkit.1: $(DCBKIT)
	$(DCBKIT) help --man > $@.tmp && mv $@.tmp $@

# shell completion, made from the command table as the man page is
$(BUILD)/completion/dcbkit.bash: $(DCBKIT)
	@mkdir -p $(dir $@)
	$(DCBKIT) completion bash > $@.tmp && mv $@.tmp $@
$(BUILD)/completion/_dcbkit: $(DCBKIT)
	@mkdir -p $(dir $@)
	$(DCBKIT) completion zsh > $@.tmp && mv $@.tmp $@

# a command with more than two files has a folder of its own; its headers stay on top
$(DCBKIT_OBJS): ALL_CPPFLAGS += -Icmd/dcbkit -Icmd/cli
$(CLI_OBJS): ALL_CPPFLAGS += -Icmd/cli

# ncursesw's flags only where curses is used (its -D_XOPEN_SOURCE stays out of the library).
$(DCBTOP_OBJS): ALL_CPPFLAGS += -Icmd/dcbtop -Icmd/cli $(call pkg_cflags,$(CURSES_PKG))

$(DCBTOP): $(DCBTOP_OBJS) $(CLI_OBJS) $(LIBDCB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(call pkg_libs,$(CURSES_PKG)) $(LIBS)

$(BUILD)/dcbtop.1: $(DCBTOP)
	$(DCBTOP) --man > $@.tmp && mv $@.tmp $@

$(BUILD)/tests/unit/%: tests/unit/%.c tests/unit/unit.h $(LIBDCB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CPPFLAGS) -Itests/unit $(call pkg_cflags,$(TEST_PKGS)) $(ALL_CFLAGS) $(DEPFLAGS) \
	    $(ALL_LDFLAGS) -o $@ $< $(LIBDCB) $(call pkg_libs,$(TEST_PKGS)) $(LIBS)

$(BUILD)/tests/bench/%: tests/bench/%.c tests/bench/bench.h $(LIBDCB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CPPFLAGS) -Itests/bench $(ALL_CFLAGS) $(DEPFLAGS) $(ALL_LDFLAGS) -o $@ $< $(LIBDCB) $(LIBS)

build-tests: $(UNIT_BINS) $(BENCH_BINS)

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)

# ---- set-up, run, tests --------------------------------------------------------------------
# two sets (scripts/bootstrap --list): run's packages build and run dcbkit; check's add the
# test peers and tools (tshark, Chromium, Prometheus ...), which running does not need
bootstrap:
	@scripts/bootstrap check

bootstrap-run:
	@scripts/bootstrap run

# The main job: dcbtop, on this host when it has PFC-capable interfaces, else on the replay demo;
# interactive on a terminal, five batch frames otherwise.
run: bootstrap-run
	@$(MAKE) --no-print-directory all
	@if [ -t 1 ]; then $(DCBTOP) --auto; else $(DCBTOP) --auto -b -n 5; fi

check: bootstrap
	@$(MAKE) --no-print-directory all build-tests
	@DCBKIT=$(abspath $(DCBKIT)) DCBTOP=$(abspath $(DCBTOP)) BUILD=$(abspath $(BUILD)) tests/run $(UNIT_BINS) $(INTEG_TESTS)

check-unit: build-tests
	@tests/run $(UNIT_BINS)

check-integration: all
	@DCBKIT=$(abspath $(DCBKIT)) DCBTOP=$(abspath $(DCBTOP)) BUILD=$(abspath $(BUILD)) tests/run $(INTEG_TESTS)

BENCH_SCRIPTS := $(sort $(wildcard tests/bench/bench_*.py))
bench: $(BENCH_BINS) $(DCBKIT) $(DCBTOP)
	@for b in $(BENCH_BINS); do echo "== $$(basename $$b)"; $$b || exit 1; done
	@for b in $(BENCH_SCRIPTS); do echo "== $$(basename $$b .py)"; \
	    DCBKIT=$(abspath $(DCBKIT)) DCBTOP=$(abspath $(DCBTOP)) /usr/bin/python3 $$b || exit 1; done

# The diagnosis benchmark alone (tests/diagnosis/README.md): about 5 minutes on 2 cores.
bench-diagnosis: $(DCBKIT)
	@DCBKIT=$(abspath $(DCBKIT)) /usr/bin/python3 tests/bench/bench_diagnosis.py

# libFuzzer targets: clang only, in their own build tree; each runs FUZZ_SECONDS on a copy of
# its seed corpus (tests/fuzz/corpus/NAME). A crash leaves build/fuzz/NAME-crash-* and fails.
FUZZ_BUILD := build/fuzz
FUZZ_FLAGS := -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
FUZZ_BINS  := $(FUZZ_SRCS:tests/fuzz/%.c=$(FUZZ_BUILD)/bin/%)
fuzz-build:
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_BUILD) CC=clang SANITIZE= CFLAGS="-O1 -g" \
	    EXTRA_CFLAGS="$(FUZZ_FLAGS)" fuzz-bins

fuzz-bins: $(FUZZ_BINS)

$(FUZZ_BUILD)/bin/%: tests/fuzz/%.c $(LIBDCB)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CPPFLAGS) -std=gnu11 -O1 -g $(WARN) -fsanitize=fuzzer,address,undefined $(DEPFLAGS) \
	    -o $@ $< $(LIBDCB) $(LIBS)

fuzz: fuzz-build
	@tests/fuzz/run $(FUZZ_SECONDS) $(FUZZ_BUILD) $(FUZZ_BINS)

# Each target for ten minutes (about six hours in all); CI runs the short pass above.
fuzz-long:
	$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=600

CPPCHECK_FLAGS := --error-exitcode=1 --enable=warning,performance,portability --std=c11 \
    --inline-suppr --quiet -D__GNUC__ -D_GNU_SOURCE -Ilib --suppress=missingIncludeSystem -Idecoders -Idecoders/track -Icollectors -Icollectors/gnmi -Irules -Irules/replay -Ireport -Icmd/dcbtop -Icmd/cli -Icmd/dcbkit
cppcheck:
	cppcheck $(CPPCHECK_FLAGS) lib decoders collectors rules report cmd tests/unit tests/bench tests/fuzz

# Every tracked .c/.h as .clang-format lays it out; scripts/format fixes what this reports.
format-check:
	scripts/format --check

# What .ci/run adds after `make check`: the clang build, the ASan+UBSan unit tests, cppcheck,
# and a short fuzz run of every target.
ci-extra:
	$(MAKE) --no-print-directory format-check
	$(MAKE) --no-print-directory CC=clang all build-tests
	$(MAKE) --no-print-directory CC=clang SANITIZE=1 check-unit
	$(MAKE) --no-print-directory cppcheck
	$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=5

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0755 $(BINS) $(DESTDIR)$(PREFIX)/bin/
	install -m 0644 $(BUILD)/dcbkit.1 $(BUILD)/dcbtop.1 $(DESTDIR)$(PREFIX)/share/man/man1/
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions \
	    $(DESTDIR)$(PREFIX)/share/zsh/site-functions
	install -m 0644 $(BUILD)/completion/dcbkit.bash \
	    $(DESTDIR)$(PREFIX)/share/bash-completion/completions/dcbkit
	install -m 0644 $(BUILD)/completion/dcbkit.bash \
	    $(DESTDIR)$(PREFIX)/share/bash-completion/completions/dcbtop
	install -m 0644 $(BUILD)/completion/_dcbkit $(DESTDIR)$(PREFIX)/share/zsh/site-functions/
	install -d $(DESTDIR)$(PREFIX)/share/dcbkit/maps
	install -m 0644 collectors/maps/*.json $(DESTDIR)$(PREFIX)/share/dcbkit/maps/
	install -d $(DESTDIR)$(PREFIX)/share/dcbkit/rules
	install -m 0644 rules/catalog/*.rules $(DESTDIR)$(PREFIX)/share/dcbkit/rules/
	install -d $(DESTDIR)$(PREFIX)/share/dcbkit/docs/grafana \
	    $(DESTDIR)$(PREFIX)/share/dcbkit/docs/prometheus
	install -m 0644 README.md docs/*.md $(DESTDIR)$(PREFIX)/share/dcbkit/docs/
	install -m 0644 docs/grafana/* $(DESTDIR)$(PREFIX)/share/dcbkit/docs/grafana/
	install -m 0644 docs/prometheus/* $(DESTDIR)$(PREFIX)/share/dcbkit/docs/prometheus/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/dcbkit $(DESTDIR)$(PREFIX)/share/man/man1/dcbkit.1
	rm -f $(DESTDIR)$(PREFIX)/bin/dcbtop $(DESTDIR)$(PREFIX)/share/man/man1/dcbtop.1
	rm -f $(DESTDIR)$(PREFIX)/share/bash-completion/completions/dcbkit
	rm -f $(DESTDIR)$(PREFIX)/share/bash-completion/completions/dcbtop
	rm -f $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_dcbkit
	rm -rf $(DESTDIR)$(PREFIX)/share/dcbkit

clean:
	rm -rf build

help:
	@sed -n '2,8p' Makefile | sed 's/^# \{0,1\}//'
