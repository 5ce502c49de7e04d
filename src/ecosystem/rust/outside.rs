//! Cargo's places outside the project (`room::outside`): its user configuration (`$CARGO_HOME/config.toml`,
//! `config`: build flags, a `runner`, patched sources). Cargo reads the legacy `config` where both stand (and
//! warns), so where neither stands only `config` is made for a run, empty: a `config.toml` a process of the run
//! writes is then the one cargo passes over. Where `config.toml` stands and `config` does not, nothing is made
//! (an empty `config` would hide the user's `config.toml`).

use std::path::{Path, PathBuf};

use crate::room::outside::{Absent, At};

pub(super) fn places(home: &Path, var: &dyn Fn(&str) -> Option<PathBuf>) -> Vec<At> {
    let cargo_home = var("CARGO_HOME").unwrap_or_else(|| home.join(".cargo"));
    let toml = cargo_home.join("config.toml");
    let legacy = if toml.exists() { Absent::Left } else { Absent::File };
    vec![
        At {
            path: toml,
            absent: Absent::Left,
        },
        At {
            path: cargo_home.join("config"),
            absent: legacy,
        },
    ]
}
