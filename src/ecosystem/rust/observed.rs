//! What the traced run's reading knows of cargo (`closure::observed`): its build output and its configuration in
//! the home directory.

use std::path::Path;

use super::Files;

/// Cargo's manifest and lockfile, and the toolchain pin rustup picks up from a directory.
pub(super) const FILES: Files = Files {
    manifest: |name| matches!(name, "Cargo.toml" | "Cargo.lock"),
    listed: &["rust-toolchain", "rust-toolchain.toml"],
    listed_prefixes: &[],
};

/// A cargo package's `target/` (its `Cargo.toml` at the root) is build output, never an input of the oracle.
pub(super) fn build_output(root: &Path) -> Option<&'static str> {
    root.join("Cargo.toml").is_file().then_some("target")
}

/// Cargo's configuration under the home directory (`$CARGO_HOME` by default): `~/.cargo/config.toml` and its
/// older name, `~/.cargo/config`.
pub(super) const HOME_CONFIG: &[&str] = &[".cargo/config.toml", ".cargo/config"];
