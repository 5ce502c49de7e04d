#!/usr/bin/env bash
# What asking make again after the run costs a promise (`closure::make_plan::Remade`): where the promise's dry run
# updated a target no goal reaches (a makefile make remakes), the oracle runs make's dry run once more after the
# verify's run, each such target assumed up to date (`-o`), and reads the makefiles it lists. Side by side in one
# hyperfine run: the promise's own dry run (`make -n -p --trace`, which remakes the include) and the dry run
# after the run (`-o .gen.mk`), on a Makefile of N phony targets with one remade include. A promise whose dry run
# remade nothing pays nothing.
#
#   scripts/bench-make-read-again.sh            # 50 targets
#   TARGETS=500 scripts/bench-make-read-again.sh
set -euo pipefail
TARGETS=${TARGETS:-50}
command -v hyperfine >/dev/null || { echo "bench-make-read-again: hyperfine is needed (apt-get install hyperfine)" >&2; exit 2; }
command -v make >/dev/null || { echo "bench-make-read-again: GNU make is needed (apt-get install make)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{
    printf '.PHONY: test'
    for i in $(seq "$TARGETS"); do printf ' t%d' "$i"; done
    printf '\ntest:'
    for i in $(seq "$TARGETS"); do printf ' t%d' "$i"; done
    printf '\n\t@echo testing\n'
    for i in $(seq "$TARGETS"); do printf 't%d:\n\t@echo step %d\n' "$i" "$i"; done
    printf -- '-include .gen.mk\n.gen.mk: FORCE\n\t@v="VERSION := 1"; [ "$$(cat $@ 2>/dev/null)" = "$$v" ] || echo "$$v" > $@\nFORCE:\n'
} > "$work/Makefile"
cd "$work"
hyperfine --warmup 3 --runs 30 -N \
    -n "dry run (remakes the include)" "make -n -p --trace -s test" \
    -n "asked again (-o .gen.mk)" "make -n -p --trace -o .gen.mk -s test"
