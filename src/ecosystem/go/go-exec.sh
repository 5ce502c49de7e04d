#!/bin/sh
# loopgate's start hook for `go test` (issue 29, item 2; see `room::hook`), named by `GOFLAGS=-exec=…` in the
# oracle's runs: go runs every test binary through it. It finds the events file from where it stands
# (`report/events.jsonl`, two directories up), takes itself out of the binary's `GOFLAGS` (the code under test
# sees the user's, and a `go test` it runs is not hooked), asks the binary for a memory profile (`-test.memprofile`, which the testing package writes only
# once `M.Run` has run every test, and never from the tests' own flags), and appends one JSON line when the
# binary starts and one when it ends: `end` only where that profile was written, and `fail` where the binary
# exited non-zero. A binary that ends before its tests have all run (an `os.Exit(0)` in an `init`, a
# `syscall.Exit(0)` inside a test) leaves a `begin` without its `end`. Anything that is not a test binary (`go
# run` reads `-exec` too) runs as it would have.
bin=$1
shift
report=$(dirname "$0")/../../report/events.jsonl
flags=
for flag in $GOFLAGS; do
    [ "$flag" = "-exec=$0" ] || flags=${flags:+$flags }$flag
done
if [ -n "$flags" ]; then GOFLAGS=$flags; else unset GOFLAGS; fi
case $bin in
*.test) ;;
*) exec "$bin" "$@" ;;
esac
profile=$(mktemp) || exit 125
rm -f "$profile"
name=$(basename "$bin")
printf '{"runner":"go test","pid":%s,"event":"begin","name":"%s"}\n' "$$" "$name" >>"$report"
"$bin" "$@" -test.memprofile="$profile"
status=$?
if [ -s "$profile" ]; then
    [ "$status" -eq 0 ] || printf '{"runner":"go test","pid":%s,"event":"fail","name":"%s"}\n' "$$" "$name" >>"$report"
    printf '{"runner":"go test","pid":%s,"event":"end","name":"%s"}\n' "$$" "$name" >>"$report"
fi
rm -f "$profile"
exit "$status"
