//! Go's places outside the project (`room::outside`): its environment file (`$GOENV`, or `go/env` in the
//! user's configuration directory: what `go env -w` writes, `GOFLAGS` among it).

use std::path::{Path, PathBuf};

use crate::room::outside::At;

pub(super) fn places(home: &Path, var: &dyn Fn(&str) -> Option<PathBuf>) -> Vec<At> {
    let config = var("XDG_CONFIG_HOME").unwrap_or_else(|| home.join(".config"));
    vec![At::file(var("GOENV").unwrap_or_else(|| config.join("go").join("env")))]
}
