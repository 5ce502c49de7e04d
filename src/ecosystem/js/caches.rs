//! The room's caches of JavaScript's tools (`room::caches`): `@babel/register`'s compiled files, and Node's
//! compile cache where the baseline turned it on (setting its variable would turn it on).

use super::{Cache, How};

/// Holds @babel/register's compiled files.
pub(super) const BABEL: Cache = Cache {
    vars: &["BABEL_CACHE_PATH"],
    place: "babel/cache.json",
    file: true,
    how: How::Var,
};

/// Holds Node's compile cache.
pub(super) const COMPILE: Cache = Cache {
    vars: &["NODE_COMPILE_CACHE"],
    place: "node-compile",
    file: false,
    how: How::WhereSet,
};
