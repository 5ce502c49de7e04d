//! The room's cache of Go (`room::caches`): its build and test-result cache, which lives under
//! `XDG_CACHE_HOME` by default and holds verdicts, so it has a row of its own.

use super::{Cache, How};

#[path = "seed.rs"]
mod seed;
pub(super) use seed::seed;

/// Holds Go's build and test-result cache.
pub(super) const BUILD: Cache = Cache {
    vars: &["GOCACHE"],
    place: "go-build",
    file: false,
    how: How::Var,
};

/// Go's programs that write its build cache: the `go` command and the tools it runs from `$GOROOT/pkg/tool`.
/// Each entry is named by a hash of everything its action read, so what these alone wrote is what the runner
/// would compute from the same inputs (`oracle::steps::Filled`). `cgo` runs the C compiler, which is none of
/// them: a step that builds a package with C code has no entry vouched for.
pub(super) const TOOLCHAIN: &[&str] = &["go", "compile", "vet", "asm", "link", "cgo", "cover", "buildid", "pack"];
