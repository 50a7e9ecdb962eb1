# make run    start the player (installs what it needs, builds)
# make test   build and run every test
# make bench  measure abplayer against the reference tools, side by side
# make fuzz   fuzz the MP4 parser, then the sync journal's parser and merge, for FUZZ_SECONDS each
#             (default 60; findings land in Tests/Fuzz/regressions),
#             then mutated MP3/Opus/FLAC/Vorbis files through probe and decode for as long
# make release  the release build for everyday listening (scripts/build-release.sh: static Foundation,
#               lld, a symbol order traced from `play` and `listen`): .build/release/abplayer, plugins
# make install-sdk   install the plugin SDK (plugin.h, abplayer-plugin.pc; for Swift, PluginKit and the
#                    ABI module in share/abplayer/sdk) under PREFIX, DESTDIR honoured
# make install      install abplayer under PREFIX (default /usr/local), DESTDIR honoured: the stripped
#                   binary, its plugins, the Swift runtime it needs (private, in lib/abplayer), man pages,
#                   completions, the systemd user unit, the SDK (scripts/install.sh). The release build,
#                   made first when missing or older than the sources; BUILD_DIR=DIR installs that build instead
# make uninstall    remove exactly what `make install` installed under the same PREFIX and DESTDIR
# make docs         docs/commands.md again from the command tables (after changing a command or its help)
# make deb          the Debian package, with debhelper (dpkg-buildpackage -b): .build/deb/abplayer_VERSION_ARCH.deb
SWIFT ?= swift
BIN := .build/debug

# Libraries the plugins link against, and the tools the tests and benchmarks use to make and
# check real audio.
BUILD_PACKAGES := pkg-config libmpg123-dev libopusfile-dev libvorbis-dev libflac-dev libfaad-dev libsqlite3-dev \
	libsoxr-dev libsonic-dev libasound2-dev libpulse-dev libjack-jackd2-dev \
	libedit-dev libchafa-dev libturbojpeg0-dev libpng-dev libdbus-1-dev libebur128-dev \
	libavformat-dev libavcodec-dev libavutil-dev libswresample-dev
TEST_PACKAGES := ffmpeg lame opus-tools vorbis-tools flac sox gcc make sqlite3 espeak-ng \
	pulseaudio pulseaudio-utils jackd2 alsa-utils libasound2-plugins tmux dbus playerctl systemd \
	snapserver snapclient syncthing rsync curl gdb \
	patchelf man-db groff-base zsh fish
BENCH_PACKAGES := mpg123 time bc faad tmux cmus mpv chafa mpd mpc espeak-ng python3

.PHONY: all deps test-deps build run test test-run release bench fuzz install-sdk install install-tools uninstall deb clean

all: build

deps:
	@scripts/install-deps.sh $(BUILD_PACKAGES)

# Their system services are not for the tests or benchmarks (private servers): disabled when installed here.
NO_SERVICE := snapserver snapclient mpd

test-deps: deps
	@NO_SERVICE="$(NO_SERVICE)" scripts/install-deps.sh $(TEST_PACKAGES)

# `swift build` (without --product) also builds every plugin, a .dynamic product each. umask 022:
# the host refuses plugins its group can write (a umask of 002 would make the build's own so).
build: deps
	umask 022 && $(SWIFT) build

run: build
	$(BIN)/abplayer

# scripts/run-tests.sh: the tests (two processes side by side) with a watchdog that shows where a hung run stands, and the
# tests' scratch folders in /tmp removed after. scripts/test-with-release.sh runs it on the debug
# build while the release build is made beside it (in .build/test-release), then on the release:
# the release build (`make release`, what `make bench` measures and a listener runs): its link
# is not SwiftPM's usual one (static Foundation, a traced symbol order), so the end-to-end tests of
# the commands used most, and the decoder contract on its plugins, run against it too; on a
# toolchain without the static Foundation, against a plain `swift build -c release` (said in one line).
# Last, every bench script once on tiny inputs against that release build (`make bench-smoke`).
# scripts/check-test-sleeps.sh first (well under a second, no build): no test may use a fixed sleep
# as its time base; it waits for its condition with waitUntil(within:) (issue 29).
RELEASE_TESTS := EndToEndTests\.(MP3Tests|MP3FidelityTests|PlaySpeedVolumeTests|SeamlessFilesTests|ListenTests|LibraryCommandTests|SyncCommandTests|CommandLineTests|PluginDiscoveryTests|LazyLibrariesTests|InstallTests)/|PluginHostTests\.DecoderContract
test:
	@scripts/check-test-sleeps.sh
	@$(MAKE) --no-print-directory test-run

test-run: test-deps build
	@scripts/install-deps.sh lame
	@NO_SERVICE="$(NO_SERVICE)" scripts/install-deps.sh $(BENCH_PACKAGES)
	@SWIFT=$(SWIFT) scripts/test-with-release.sh '$(RELEASE_TESTS)'

# lame: the release link's symbol order is traced playing a short MP3 it encodes.
release: deps
	@scripts/install-deps.sh lame
	SWIFT=$(SWIFT) scripts/build-release.sh

bench: test-deps release
	@NO_SERVICE="$(NO_SERVICE)" scripts/install-deps.sh $(BENCH_PACKAGES)
	scripts/bench.sh .build/release

# docs/commands.md from the command tables (CommandsDocTests fails while it differs from them).
.PHONY: docs
docs: build
	$(BIN)/abplayer debug-commands-doc > docs/commands.md

# Every bench script once on tiny inputs (seconds of audio, a handful of books, this build as its own
# baseline), against the debug build; `make test` runs it on the release build. Its figures mean nothing:
# it fails when a bench script no longer runs to its end (scripts/bench-smoke.sh).
.PHONY: bench-smoke
bench-smoke: test-deps build
	@NO_SERVICE="$(NO_SERVICE)" scripts/install-deps.sh $(BENCH_PACKAGES)
	scripts/bench-smoke.sh $(BIN)

# Files nobody here made (mutagen's and pytaglib's test data, downloaded from PyPI at run time):
# a table of what abplayer and ffmpeg make of each, failing only on a crash or a hang. Not in `make test`.
.PHONY: test-peer
test-peer: test-deps build
	scripts/test-peer.sh $(BIN)

FUZZ_SECONDS ?= 60
fuzz: test-deps build
	scripts/fuzz-mp4.sh $(FUZZ_SECONDS)
	scripts/fuzz-journal.sh $(FUZZ_SECONDS)
	scripts/fuzz-files.sh $(BIN) $(FUZZ_SECONDS)

# The plugin SDK for out-of-tree plugins (plugin-sdk/README.md). For C: the header and a .pc
# (`cc -shared -fPIC $(pkg-config --cflags abplayer-plugin)`); the .pc's version is the ABI's
# (major.minor from plugin.h), its plugindir where an abplayer installed under the same PREFIX
# looks for plugins; header-only, so the .pc goes to share/. For Swift, in the .pc's sdkdir
# (share/abplayer/sdk): a SwiftPM package to depend on by path, whose ABPluginABI/include (the
# header again, with a module map) also serves `swiftc -I`, and PluginKit's sources.
PREFIX ?= /usr/local
SDK_HEADER := plugin-sdk/include/abplayer/plugin.h
ABI_VERSION = $(shell sed -n 's/^\#define ABP_ABI_MAJOR //p' $(SDK_HEADER)).$(shell sed -n 's/^\#define ABP_ABI_MINOR //p' $(SDK_HEADER))
SDK_DIR = $(DESTDIR)$(PREFIX)/share/abplayer/sdk

install-sdk:
	install -d -m 0755 $(DESTDIR)$(PREFIX)/include/abplayer $(DESTDIR)$(PREFIX)/share/pkgconfig \
		$(SDK_DIR)/ABPluginABI/include/abplayer $(SDK_DIR)/ABPluginABI/src $(SDK_DIR)/PluginKit
	install -m 0644 $(SDK_HEADER) $(DESTDIR)$(PREFIX)/include/abplayer/plugin.h
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(ABI_VERSION)|g' plugin-sdk/abplayer-plugin.pc.in \
		> $(DESTDIR)$(PREFIX)/share/pkgconfig/abplayer-plugin.pc
	chmod 0644 $(DESTDIR)$(PREFIX)/share/pkgconfig/abplayer-plugin.pc
	install -m 0644 plugin-sdk/swift/Package.swift $(SDK_DIR)/Package.swift
	install -m 0644 $(SDK_HEADER) $(SDK_DIR)/ABPluginABI/include/abplayer/plugin.h
	install -m 0644 plugin-sdk/swift/module.modulemap $(SDK_DIR)/ABPluginABI/include/module.modulemap
	install -m 0644 plugin-sdk/src/abi_check.c $(SDK_DIR)/ABPluginABI/src/abi_check.c
	install -m 0644 Plugins/PluginKit/*.swift $(SDK_DIR)/PluginKit/

# What `make install` runs besides the build: patchelf sets the installed files' RUNPATH,
# binutils strips them.
INSTALL_PACKAGES := patchelf binutils
install-tools:
	@scripts/install-deps.sh $(INSTALL_PACKAGES)

# BUILD_DIR empty: the release build, rebuilt when a source is newer (`make release` relinks
# twice even when nothing changed). BUILD_DIR=DIR: the build there as it is (the install test
# installs the debug build).
BUILD_DIR ?=
RELEASE_SOURCES := $(shell find Package.swift Sources Plugins plugin-sdk/include plugin-sdk/src -type f 2>/dev/null)
.build/release/abplayer: $(RELEASE_SOURCES)
	@$(MAKE) --no-print-directory release

install: install-tools $(if $(BUILD_DIR),,.build/release/abplayer)
	@PREFIX=$(PREFIX) DESTDIR=$(DESTDIR) scripts/install.sh $(or $(BUILD_DIR),.build/release)

uninstall:
	@PREFIX=$(PREFIX) DESTDIR=$(DESTDIR) scripts/uninstall.sh

# The Debian package (debian/: debhelper, compat 13): dpkg-buildpackage builds the release and
# installs it with `make install` into the package (debian/rules), then the .deb and its
# .buildinfo and .changes are moved from the parent folder, where dpkg puts them, to .build/deb.
# (build-essential: dpkg-checkbuilddeps requires it of every package build.)
DEB_PACKAGES := debhelper dpkg-dev build-essential lame $(INSTALL_PACKAGES)
deb: deps
	@scripts/install-deps.sh $(DEB_PACKAGES)
	scripts/build-deb.sh

clean:
	rm -rf .build
