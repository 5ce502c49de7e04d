//! Where Rust's package manager leaves loopgate when the user installed it that way (`cargo install loopgate`):
//! a path of the control plane (`plane::ROWS`). The guard denies a write to it; confinement does not close it,
//! since closing `~/.cargo/bin` would refuse every `cargo install` the agent runs.

/// The installed binary, below the home directory.
pub(super) const INSTALLED_BINARY: &str = ".cargo/bin/loopgate";
