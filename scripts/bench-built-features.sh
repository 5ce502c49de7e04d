#!/bin/sh
# The cost of judging what cargo builds the tests with (BENCHMARKS.md, branches h42c and h43c): setup, then one
# `loopgate verify`, three times, on a one-test crate whose test reads a feature. With `build` as the second
# argument the crate has a build script (printing a cfg of its own, read by the code under test) and its test
# reads a cfg and an `env!` the build script could set. Usage: bench-built-features.sh BINARY [build]
bin=$1
variant=${2:-plain}
for i in 1 2 3; do
  d=$(mktemp -d); mkdir -p $d/p/src $d/p/tests $d/home
  printf '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n\n[features]\napprox = []\n\n[workspace]\n' > $d/p/Cargo.toml
  printf 'pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n' > $d/p/src/lib.rs
  printf '#[test]\nfn adds() {\n    if cfg!(feature = "approx") {\n        assert!((calc::add(1, 2) - 3).abs() <= 4);\n    } else {\n        assert_eq!(calc::add(1, 2), 3);\n    }\n}\n' > $d/p/tests/api.rs
  if [ "$variant" = build ]; then
    printf 'fn main() {\n    println!("cargo:rustc-check-cfg=cfg(has_fast_path)");\n    println!("cargo:rustc-cfg=has_fast_path");\n}\n' > $d/p/build.rs
    printf '#[cfg(has_fast_path)]\npub const FAST: bool = true;\n' >> $d/p/src/lib.rs
    printf '\n#[cfg_attr(lenient, ignore)]\n#[test]\nfn named() {\n    assert_eq!(option_env!("CALC_MODE"), None);\n}\n' >> $d/p/tests/api.rs
  fi
  cd $d/p
  export LOOPGATE_HOME=$d/lg CLAUDE_PROJECT_DIR=$d/p
  /usr/bin/time -o $d/s -f "%e %U %S" $bin setup --verify "cargo test -q" fix it >/dev/null 2>&1; s=$(cat $d/s)
  /usr/bin/time -o $d/v -f "%e %U %S" $bin verify >/dev/null 2>&1; v=$(cat $d/v)
  echo "setup(wall user sys)=$s verify=$v"
  cd /; rm -rf $d
done
