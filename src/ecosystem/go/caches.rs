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
