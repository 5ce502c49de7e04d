#!/bin/sh
# loopgate's start channel (see `room::hook`): in the oracle's runs this file stands first on `PATH` under the
# name of a runner's program (`node`, `go`), so every start of that program by name passes here, after whatever
# the process tree did to the program's options variable (a makefile's `=`, a recipe's `VAR=… cmd`, a script's
# `export`). It takes the room's own words (`../words/VARIABLE`, written by the room) out of the variable
# wherever they stand and puts them back last, then runs the program the name would have found without this
# file: the next one on `PATH`, by the path `PATH` gives, so a venv's or a version manager's stays theirs.
name=${0##*/}
here=${0%/*}
case $name in
node) var=NODE_OPTIONS ;;
go) var=GOFLAGS ;;
ruby) var=RUBYOPT ;;
*) var= ;;
esac
if [ -n "$var" ] && [ -s "$here/../words/$var" ]; then
    words=$(cat "$here/../words/$var")
    eval "value=\${$var-}"
    while :; do
        case $value in
        *"$words"*) value="${value%%"$words"*}${value#*"$words"}" ;;
        *) break ;;
        esac
    done
    case $value in
    *[![:space:]]*) value="$value $words" ;;
    *) value=$words ;;
    esac
    eval "$var=\$value; export $var"
fi
# The search starts after this file's own entry: a program met before it was either absent (this file was found
# by name) or one that called this file by its path (a wrapper in `node_modules/.bin` that runs `$(command -v
# node)`), which must not be run again, or the two would run each other for ever. Where `PATH` no longer holds
# this file's directory, every entry but it is searched.
set -f
old_ifs=$IFS
IFS=:
after=yes
for dir in $PATH; do
    [ "$dir" = "$here" ] && after=no
done
for dir in $PATH; do
    [ -n "$dir" ] || dir=.
    if [ "$dir" = "$here" ]; then
        after=yes
        continue
    fi
    [ "$after" = yes ] || continue
    if [ -f "$dir/$name" ] && [ -x "$dir/$name" ]; then
        IFS=$old_ifs
        set +f
        exec "$dir/$name" "$@"
    fi
done
echo "$name: not found" >&2
exit 127
