#!/bin/sh
# loopgate's start hook for `cargo test` (issue 39, item 1; see `room::hook`), named by
# `CARGO_TARGET_<host>_RUNNER` in the oracle's runs: cargo runs every test binary (and `cargo run`'s program)
# through it. libtest has no stable structured report on stdout, but it writes one line per finished test to
# the file its `--logfile` names (`ok NAME`, `failed NAME`, `ignored NAME`): this hook gives each libtest
# binary of the target directory (`…/deps/NAME-HASH`) a log of its own, takes itself out of the binary's
# environment (the `CARGO_TARGET_<triple>_RUNNER` variables that name it: a `cargo test` the tests run is not
# hooked), finds the events file from where it stands (`report/events.jsonl`, two directories up), and once
# the binary has exited appends its tests to the events, named as loopgate's readout names them
# (`calc tests::adds`: the binary's name without its hash, then libtest's), between a `begin` and an `end`, the `end` only where every test libtest lists for the same arguments has ended. A binary
# that exits before its tests are done (`std::process::exit(0)` in the code under test, after printing a passing
# report) leaves its `begin` open: a run cut short. Everything else runs as it would have: a program outside
# `deps/` (`cargo run`, rustdoc's doctests), a binary that is not libtest's (`harness = false`: its own
# arguments), nextest's processes, and a command line that names a log itself. libtest (1.9x) prints that `--logfile` is deprecated;
# where a libtest drops it, its help text goes too, and the binary runs as it is.
bin=$1
shift
report=$(dirname "$0")/../../report/events.jsonl
for var in $(env | sed -n 's/^\(CARGO_TARGET_[A-Z0-9_]*_RUNNER\)=.*/\1/p'); do
    eval "value=\${$var}"
    [ "$value" != "$0" ] || unset "$var"
done
case $bin in
*/rustdoctest*/rust_out | */rustdoctest*/rust_out.exe)
    # rustdoc tells its merged doctests (edition 2024) where their binary is only where it runs them itself;
    # run through a runner without it, they all run in one process, with a warning. This is what it tells them.
    RUSTDOC_DOCTEST_BIN_PATH=$bin
    export RUSTDOC_DOCTEST_BIN_PATH
    exec "$bin" "$@"
    ;;
*/deps/*) ;;
*) exec "$bin" "$@" ;;
esac
# nextest runs the binaries through the same runner, one process per test: its results are its own (and a
# shim's cost per process would be paid once per test).
[ -z "$NEXTEST" ] || exec "$bin" "$@"
for arg in "$@"; do
    case $arg in
    --logfile | --logfile=*) exec "$bin" "$@" ;;
    esac
done
# libtest's own option table and variables, in its binary (`harness = false` binaries have neither).
grep -q -a -F 'RUST_TEST_THREADS' "$bin" && grep -q -a -F 'Write logs to the specified file' "$bin" || exec "$bin" "$@"
log=$(mktemp) || exit 125
list=$(mktemp) || exit 125
name=$(basename "$bin")
name=${name%.exe}
stem=${name%-*}
case ${name##*-} in
????????*) [ -n "$stem" ] && name=$stem ;;
esac
event() {
    # $1 the event, $2 the test's name: JSON-escaped (`\` and `"`; libtest names hold no control characters).
    escaped=$(printf '%s' "$2" | sed 's/\\/\\\\/g; s/"/\\"/g')
    printf '{"runner":"cargo test","pid":%s,"event":"%s","name":"%s"}\n' "$$" "$1" "$escaped" >>"$report"
}
# The tests this run will run, as libtest lists them for the same arguments (filters, `--ignored`, `--exact`):
# listing runs no test code.
"$bin" "$@" --list 2>/dev/null | sed -n -e 's/: test$//p' -e 's/: benchmark$//p' | LC_ALL=C sort >"$list"
event begin ""
"$bin" "$@" --logfile "$log"
status=$?
while IFS= read -r line || [ -n "$line" ]; do
    case $line in
    "ok "*) event pass "$name ${line#ok }" ;;
    "failed "*) event fail "$name ${line#failed }" ;;
    esac
done <"$log"
# `end` only where every listed test ended (ran, failed or was ignored): a binary that exited before its tests
# were done leaves its `begin` open, a run cut short.
if [ -z "$(cut -d' ' -f2- "$log" | LC_ALL=C sort | LC_ALL=C comm -23 "$list" -)" ]; then
    event end ""
fi
rm -f "$log" "$list"
exit "$status"
