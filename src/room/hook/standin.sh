#!/bin/bash -p
# loopgate's start channel at the binary (see `room::hook::binary`): in the oracle's runs this file is bound over
# a runner's binary (@TARGET@), so every start of it passes here — by name, by its full path, under a `PATH`
# without the room's entry, under `env -i`, from a wrapper script. `-p`: no `BASH_ENV` and no exported function
# is read here. It takes the room's own words (the room's `words/VARIABLE`) out of each of the runner's options
# variables wherever they stand and puts them back last, then runs the real binary, which the namespace shows
# only at a private path, under the name it was started by (Python finds its venv from that name).
words='@WORDS@'
for var in @VARS@; do
    [ -s "$words/$var" ] || continue
    ours=$(<"$words/$var")
    value=${!var-}
    while [[ $value == *"$ours"* ]]; do
        value=${value/"$ours"/}
    done
    if [[ $value == *[![:space:]]* ]]; then
        value="$value $ours"
    else
        value=$ours
    fi
    export "$var=$value"
done
@EXTRA@
# bash exports a `PWD` of its own; the runner sees one only where its caller gave one. (`SHLVL`: bash's `exec`
# gives back the count it took, and sets 0 where the caller had none; `_` names the real binary.)
had_pwd=
while IFS= read -r -d '' entry; do
    [[ $entry == PWD=* ]] && had_pwd=yes
done </proc/$$/environ
[[ -n $had_pwd ]] || export -n PWD
exec -a "$0" '@REAL@' "$@"
