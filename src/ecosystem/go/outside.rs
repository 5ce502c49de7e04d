//! Go's places outside the project (`room::outside`): its environment file (`$GOENV`, or `go/env` in the
//! user's configuration directory: what `go env -w` writes, `GOFLAGS` among it).

use std::path::{Path, PathBuf};

pub(super) fn places(home: &Path, var: &dyn Fn(&str) -> Option<PathBuf>) -> Vec<PathBuf> {
    let config = var("XDG_CONFIG_HOME").unwrap_or_else(|| home.join(".config"));
    vec![var("GOENV").unwrap_or_else(|| config.join("go").join("env"))]
}
