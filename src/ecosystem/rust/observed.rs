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

/// Whether `program` is a build script as cargo runs it (`target/<profile>/build/<package>-<hash>/build-script-build`,
/// `build_script_build-<hash>` beside it): what it reads reaches the tests only through what it tells rustc and
/// writes into `OUT_DIR`, which `closure::built_features` judges at every promise (`build_output`), so a file in
/// the project only it reads (a `build.conf`, a `.proto` a code generator compiles) is the agent's to change.
pub(super) fn build_script(program: &Path) -> bool {
    let name = program.file_name().map(|n| n.to_string_lossy());
    name.is_some_and(|n| n.starts_with("build-script-") || n.starts_with("build_script_"))
        && program
            .parent()
            .and_then(Path::parent)
            .and_then(Path::file_name)
            .is_some_and(|dir| dir == "build")
}

/// Cargo's configuration under the home directory (`$CARGO_HOME` by default): `~/.cargo/config.toml` and its
/// older name, `~/.cargo/config`.
pub(super) const HOME_CONFIG: &[&str] = &[".cargo/config.toml", ".cargo/config"];
