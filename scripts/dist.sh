#!/bin/sh
# Release artifacts, cross-built on this Linux machine, into target/dist/:
#
#   bin/PLATFORM/loopgate                 the binary per platform (linux-x64, linux-arm64, darwin-x64, darwin-arm64)
#   loopgate-VERSION-TARGET.tar.gz        the same, as archives for a GitHub release (and `cargo binstall`)
#   npm/*.tgz                             the npm packages (`npm pack`): `loopgate` and one per platform
#   SHA256SUMS
#
#   scripts/dist.sh                                 all platforms
#   scripts/dist.sh --platforms linux-x64,linux-arm64
#   scripts/dist.sh --qemu-tests                    also run the unit tests of linux-arm64 under qemu
#   scripts/dist.sh --platforms … --qemu-tests=build
#                                                   build them (beside the release builds) but not run them
#   scripts/dist.sh --qemu-tests=run                only run them under qemu (built first if they are not),
#                                                   nothing else built or packed: CI runs this beside its tests
#   scripts/dist.sh --check-only --platforms darwin-arm64
#                                                   a quicker debug build, linked and checked like a release
#                                                   one, packed nowhere (target/dist is left alone): for CI
#   scripts/dist.sh --stamp                         only write Cargo.toml's version into the committed files
#                                                   that carry it (package.json, package-lock.json, plugin
#                                                   manifests), then exit
#
# Linux binaries are static (musl), so one runs on every distribution; macOS binaries link only the system's
# libraries. Needs: rustup (the standard library of each target: `rustup target add TARGET`), cargo-zigbuild
# and zig (`pip install cargo-zigbuild ziglang`: zig links every target, macOS included, with no SDK), node and
# npm, `file`, and qemu-user (`apt-get install qemu-user`) to run the arm64 binary on an x86_64 machine.
# Each binary is checked before it is packed: its architecture and linking (`file`, the Mach-O load commands),
# and `--version` run (natively, or under qemu for arm64 Linux).
set -eu
cd "$(dirname "$0")/.."
repo=$(pwd)

platforms=all
qemu_tests=no
check_only=no
while [ "$#" -gt 0 ]; do
    case $1 in
        --platforms) platforms=${2:?--platforms needs a comma-separated list}; shift 2 ;;
        --platforms=*) platforms=${1#*=}; shift ;;
        --qemu-tests) qemu_tests=yes; shift ;;
        --qemu-tests=yes | --qemu-tests=build | --qemu-tests=run) qemu_tests=${1#*=}; shift ;;
        --check-only) check_only=yes; shift ;;
        --stamp) exec node npm/pack.mjs stamp ;;
        *) echo "dist: unknown argument \`$1\` (see the header of scripts/dist.sh)" >&2; exit 2 ;;
    esac
done

die() {
    echo "dist: $*" >&2
    # The arm64 unit tests' build, when it runs in the background (below), ends with the script.
    [ -z "${test_build_pid-}" ] || kill "$test_build_pid" 2>/dev/null || true
    exit 1
}
command -v node >/dev/null 2>&1 || die "node and npm are needed to pack the npm packages (apt-get install nodejs npm)"
command -v file >/dev/null 2>&1 || die "\`file\` is needed to check the binaries (apt-get install file)"
command -v cargo-zigbuild >/dev/null 2>&1 || die "cargo-zigbuild is needed to cross-link (pip install cargo-zigbuild ziglang)"

# qemu-user links GLib, whose slice allocator (before GLib 2.76; Debian 12 has 2.74) is not safe across fork():
# a guest that forks while another of its threads is in qemu's code generator can leave the child waiting for
# ever on the allocator's lock, before it ever reaches exec (QEMU issue 285, GLib issue 1079). That was CI's
# "qemu hang": a unit test's child (`git`, or any other) stuck in `g_slice_alloc` under `tcg_tb_insert`, seen
# here with gdb (BENCHMARKS.md, "CI's time: the qemu hang found"). GLib's own switch sends the slices to malloc,
# which glibc keeps safe across fork.
export G_SLICE=always-malloc

# The unit tests, compiled for arm64 Linux and run under qemu (cargo runs each test binary through the runner;
# built first if they are not). Integration tests drive the host's Claude Code and tools, so they stay native.
qemu_unit_tests() { # LOG
    echo "== linux-arm64: unit tests under qemu" >&2
    log=$1
    started=$(date +%s)
    # A run that outlasts the limit fails, naming the tests still running: on an idle 2-core machine the run takes
    # about 80 s, half of it three tests that compute (the give-up patterns' two and the guard's garbage inputs);
    # beside other work (CI runs it beside scripts/test.sh) it takes as long as its share of the cores allows, so
    # the caller sets the limit, QEMU_TEST_LIMIT seconds. (A hang was qemu-user's, not a test's: G_SLICE above.)
    limit=${QEMU_TEST_LIMIT:-180}
    export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_MUSL_RUNNER=qemu-aarch64
    # qemu-user does not emulate Landlock's system calls: the confinement tests expect none there (and check
    # that none is reported), where on the host they require it.
    export LOOPGATE_TEST_NO_LANDLOCK=1
    # The one unit test that enters a user and mount namespace is left to the native run: under qemu-user those
    # system calls are the host kernel's, reached through an emulated fork (the native suite runs it).
    skip_under_qemu=a_run_in_the_mounted_tree_sees_the_copy_at_the_projects_path_and_not_loopgates_home
    # Built (or found built) first, outside the limit: cargo may wait for its build directory's lock while another
    # build holds it (beside scripts/test.sh, while that builds), and the limit is for the run alone.
    if ! cargo-zigbuild test --locked --lib --target aarch64-unknown-linux-musl --no-run >"$log" 2>&1; then
        cat "$log" >&2
        die "the unit tests did not build for linux-arm64 (output above)"
    fi
    started=$(date +%s)
    if ! timeout --kill-after=10 "$limit" cargo-zigbuild test --locked --lib --target aarch64-unknown-linux-musl -- --skip "$skip_under_qemu" >"$log" 2>&1; then
        cat "$log" >&2
        # libtest names each test still running after 60 s: a run that hung is among them.
        grep 'has been running for over' "$log" >&2 || true
        die "the unit tests failed under qemu on linux-arm64, or had no end after $limit s (output above)"
    fi
    unset CARGO_TARGET_AARCH64_UNKNOWN_LINUX_MUSL_RUNNER
    grep '^test result' "$log" >&2
    echo "  ran in $(($(date +%s) - started)) s" >&2
    rm -f "$log"
}
if [ "$qemu_tests" = run ]; then
    rustup target list --installed | grep -qx aarch64-unknown-linux-musl || rustup target add aarch64-unknown-linux-musl >&2
    command -v qemu-aarch64 >/dev/null 2>&1 || die "qemu-aarch64 is needed to run the arm64 unit tests (apt-get install qemu-user)"
    # Nothing else is built, and target/dist (what the last build packed) is left alone.
    qemu_log=$(mktemp)
    trap 'rm -f "$qemu_log"' EXIT
    qemu_unit_tests "$qemu_log"
    exit 0
fi

# The committed files must carry Cargo.toml's version before anything is built from it.
node npm/pack.mjs stamp --check
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
[ -n "$version" ] || die "no \`version = \"…\"\` line in Cargo.toml"

# The platform table lives in npm/pack.mjs (one list for the packages, the lockfile and this script).
selected=$(node npm/pack.mjs platforms | while read -r target name; do
    case ",$platforms," in
        ,all,|*",$name,"*) echo "$target $name" ;;
    esac
done)
[ -n "$selected" ] || die "--platforms \`$platforms\` names no known platform ($(node npm/pack.mjs platforms | cut -d' ' -f2 | tr '\n' ' '))"

target_dir=${CARGO_TARGET_DIR:-$repo/target}
if [ "$check_only" = yes ]; then
    # Debug binaries must never be packed: they go to a scratch directory that is removed at exit.
    profile=dev profile_dir=debug
    dist=$(mktemp -d)
    trap 'rm -rf "$dist"' EXIT
else
    profile=release profile_dir=release
    dist=$repo/target/dist
    rm -rf "$dist"
fi
mkdir -p "$dist/bin" "$dist/npm"

# Runs a binary built for PLATFORM on this machine: natively when the CPU matches, arm64 under qemu.
run_on_host() { # PLATFORM BINARY ARGS...
    platform=$1 binary=$2
    shift 2
    case "$platform:$(uname -m)" in
        linux-x64:x86_64 | linux-arm64:aarch64) "$binary" "$@" ;;
        linux-arm64:*)
            command -v qemu-aarch64 >/dev/null 2>&1 || die "qemu-aarch64 is needed to run the arm64 binary (apt-get install qemu-user)"
            qemu-aarch64 "$binary" "$@" ;;
        *) return 0 ;;
    esac
}

# What dyld checks before a Mach-O binary runs, read from its load commands (no Apple tools here): the CPU; the
# dynamic libraries, each of which must ship with every macOS (/usr/lib, /System/Library); the minimum macOS
# version (LC_BUILD_VERSION, or LC_VERSION_MIN_MACOSX before 10.14), at most MIN; and, on arm64, a code signature (Apple silicon runs no unsigned
# code; the linker signs ad hoc).
macho_check() { # BINARY CPU MIN
    python3 - "$1" "$2" "$3" <<'EOF'
import struct, sys
path, cpu, most = sys.argv[1], sys.argv[2], tuple(int(p) for p in sys.argv[3].split("."))
data = open(path, "rb").read()
magic, cputype, _, _, ncmds, _, _, _ = struct.unpack_from("<IiiIIIII", data, 0)
if magic != 0xFEEDFACF:
    sys.exit(f"{path}: not a 64-bit little-endian Mach-O file")
want = {"x64": 0x01000007, "arm64": 0x0100000C}[cpu]
if cputype != want:
    sys.exit(f"{path}: CPU type {cputype:#x}, expected {want:#x} ({cpu})")
offset, libs, minos, signed = 32, [], None, False
for _ in range(ncmds):
    cmd, size = struct.unpack_from("<II", data, offset)
    if cmd in (0xC, 0x80000018, 0x8000001F):  # LC_LOAD_DYLIB, LC_LOAD_WEAK_DYLIB, LC_REEXPORT_DYLIB
        name_at = struct.unpack_from("<I", data, offset + 8)[0]
        libs.append(data[offset + name_at:offset + size].split(b"\0")[0].decode())
    elif cmd in (0x32, 0x24):  # LC_BUILD_VERSION (platform, minos, sdk) or LC_VERSION_MIN_MACOSX (version, sdk)
        packed = struct.unpack_from("<I", data, offset + (12 if cmd == 0x32 else 8))[0]
        minos = (packed >> 16, (packed >> 8) & 0xFF)  # xxxx.yy.zz
    elif cmd == 0x1D:  # LC_CODE_SIGNATURE
        signed = True
    offset += size
foreign = [lib for lib in libs if not lib.startswith(("/usr/lib/", "/System/Library/"))]
if foreign or not libs:
    sys.exit(f"{path}: links libraries a clean macOS lacks: {foreign or 'none at all'}")
if minos is None or minos > most:
    sys.exit(f"{path}: needs macOS {minos}, expected at most {most} (MACOSX_DEPLOYMENT_TARGET)")
if cpu == "arm64" and not signed:
    sys.exit(f"{path}: has no code signature; Apple silicon refuses to run it")
print(f"  links {', '.join(libs)}; macOS {minos[0]}.{minos[1]}+{'; signed ad hoc' if signed else ''}")
EOF
}

# The oldest macOS each binary runs on, as rustc's own defaults: without it zig stamps its newest SDK's version as
# the minimum, and dyld would refuse the binary on every older macOS. Empty for Linux.
deployment_target() { # NAME
    case $1 in
        darwin-x64) echo 10.12 ;;
        darwin-arm64) echo 11.0 ;;
        *) echo ;;
    esac
}

# The arm64 unit tests build in the background while the binaries do: a debug build for another target locks
# other artifact directories than the release builds (cargo makes a second build in the same ones wait), and it
# fills the cores the release builds leave idle while each links its one codegen unit with fat LTO.
test_build_pid=
# The standard library of TARGET, added where it is missing (a fresh machine has only the host's).
ensure_target() { rustup target list --installed | grep -qx "$1" || rustup target add "$1" >&2; }
if [ "$qemu_tests" != no ]; then
    # Before the background build starts: the release builds below would add it too, but after this build began.
    ensure_target aarch64-unknown-linux-musl
    test_build_log=$dist/test-build-linux-arm64.log
    cargo-zigbuild test --locked --lib --target aarch64-unknown-linux-musl --no-run >"$test_build_log" 2>&1 &
    test_build_pid=$!
fi

# One cargo run per distinct minimum macOS version (in practice: the Linux targets together, each macOS target on
# its own), so that cargo builds the targets of a run side by side, each one's last, single-threaded step
# (`codegen-units = 1`, fat LTO) beside the other's instead of after it.
build_group() { # DEPLOYMENT_TARGET TARGET:NAME...
    MACOSX_DEPLOYMENT_TARGET=$1
    export MACOSX_DEPLOYMENT_TARGET
    shift
    targets= names=
    for pair in "$@"; do
        targets="$targets --target ${pair%%:*}"
        names="$names ${pair#*:}"
        ensure_target "${pair%%:*}"
    done
    echo "== $names: cargo zigbuild --profile $profile$targets" >&2
    log=$dist/build.log
    started=$(date +%s)
    # shellcheck disable=SC2086 # $targets is a list of `--target TRIPLE` words
    if ! cargo zigbuild --locked --quiet --profile "$profile" $targets >"$log" 2>&1; then
        cat "$log" >&2
        die "building$names failed (output above)"
    fi
    # rustc warns that it cannot find a macOS SDK through xcrun; zig brings the system library stubs it links.
    grep -v -e 'xcrun' -e 'the SDK is needed' -e 'pass the path of an Xcode' -e '^ *|$' -e '^ *= note' \
        -e '^ *= help' -e 'generated 1 warning' -e '^$' "$log" >&2 || true
    rm -f "$log"
    echo "  built in $(($(date +%s) - started)) s" >&2
}
# Each line: the minimum macOS version (`-` for none), then the TARGET:NAME pairs built with it.
groups=$(echo "$selected" | while read -r target name; do
    minimum=$(deployment_target "$name")
    echo "${minimum:--} $target:$name"
done | sort -k1,1 | awk '$1 != last { if (line) print line; line = $1; last = $1 } { line = line " " $2 } END { if (line) print line }')
echo "$groups" | while read -r minimum pairs; do
    [ "$minimum" != - ] || minimum=
    # shellcheck disable=SC2086 # pairs are words without spaces
    build_group "$minimum" $pairs
done

echo "$selected" | while read -r target name; do
    echo "== $name: checked" >&2
    MACOSX_DEPLOYMENT_TARGET=$(deployment_target "$name")
    built=$target_dir/$target/$profile_dir/loopgate
    [ -x "$built" ] || die "cargo zigbuild produced no $built"
    mkdir -p "$dist/bin/$name"
    cp "$built" "$dist/bin/$name/loopgate"
    bin=$dist/bin/$name/loopgate

    what=$(file -b "$bin")
    echo "  $what" >&2
    case $name in
        linux-x64) expect="ELF 64-bit*x86-64*static*" ;;
        linux-arm64) expect="ELF 64-bit*ARM aarch64*static*" ;;
        darwin-x64) expect="Mach-O 64-bit*x86_64*" ;;
        darwin-arm64) expect="Mach-O 64-bit*arm64*" ;;
    esac
    # shellcheck disable=SC2254 # the pattern is meant to glob
    case $what in $expect) ;; *) die "$bin is not what $name needs ($expect): $what" ;; esac
    case $name in
        darwin-*) macho_check "$bin" "${name#darwin-}" "$MACOSX_DEPLOYMENT_TARGET" >&2 ;;
        *)
            got=$(run_on_host "$name" "$bin" --version)
            [ "$got" = "loopgate $version" ] || die "$bin --version printed \`$got\`, expected \`loopgate $version\`"
            echo "  runs: $got" >&2 ;;
    esac

    [ "$check_only" = yes ] && continue
    archive=loopgate-$version-$target
    mkdir -p "$dist/$archive"
    cp "$bin" README.md LICENSE "$dist/$archive/"
    tar -C "$dist" -czf "$dist/$archive.tar.gz" "$archive"
    rm -rf "${dist:?}/$archive"
done

if [ "$qemu_tests" = yes ] || [ "$qemu_tests" = build ]; then
    if ! wait "$test_build_pid"; then
        cat "$test_build_log" >&2
        die "the unit tests did not build for linux-arm64 (output above)"
    fi
    test_build_pid=
    rm -f "$test_build_log"
    if [ "$qemu_tests" = yes ]; then
        qemu_unit_tests "$dist/test-linux-arm64.log"
    else
        echo "== linux-arm64: unit tests built (run them with scripts/dist.sh --qemu-tests=run)" >&2
    fi
fi

[ "$check_only" = no ] || exit 0
echo "== npm pack" >&2
node npm/pack.mjs pack "$dist/bin" "$dist/npm"
(cd "$dist" && sha256sum ./*.tar.gz npm/*.tgz > SHA256SUMS)
ls -l "$dist"/*.tar.gz "$dist"/npm/*.tgz | awk '{print $5, $9}' >&2
