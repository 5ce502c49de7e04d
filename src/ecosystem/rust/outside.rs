//! Cargo's places outside the project (`room::outside`): its user configuration (`$CARGO_HOME/config.toml`,
//! `config`: build flags, a `runner`, patched sources).

use std::path::{Path, PathBuf};

pub(super) fn places(home: &Path, var: &dyn Fn(&str) -> Option<PathBuf>) -> Vec<PathBuf> {
    let cargo_home = var("CARGO_HOME").unwrap_or_else(|| home.join(".cargo"));
    vec![cargo_home.join("config.toml"), cargo_home.join("config")]
}
