#!/bin/sh
# The cost of judging the features cargo builds the tests with (BENCHMARKS.md, branch h42c): setup, then one
# `loopgate verify`, three times, on a one-test crate whose test reads a feature. Usage: bench-built-features.sh BINARY
bin=$1
for i in 1 2 3; do
  d=$(mktemp -d); mkdir -p $d/p/src $d/p/tests $d/home
  printf '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n\n[features]\napprox = []\n\n[workspace]\n' > $d/p/Cargo.toml
  printf 'pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n' > $d/p/src/lib.rs
  printf '#[test]\nfn adds() {\n    if cfg!(feature = "approx") {\n        assert!((calc::add(1, 2) - 3).abs() <= 4);\n    } else {\n        assert_eq!(calc::add(1, 2), 3);\n    }\n}\n' > $d/p/tests/api.rs
  cd $d/p
  export LOOPGATE_HOME=$d/lg CLAUDE_PROJECT_DIR=$d/p
  /usr/bin/time -o $d/s -f "%e %U %S" $bin setup --verify "cargo test -q" fix it >/dev/null 2>&1; s=$(cat $d/s)
  /usr/bin/time -o $d/v -f "%e %U %S" $bin verify >/dev/null 2>&1; v=$(cat $d/v)
  echo "setup(wall user sys)=$s verify=$v"
  cd /; rm -rf $d
done
