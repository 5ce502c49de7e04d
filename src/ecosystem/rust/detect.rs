//! `--verify auto` for Rust: `cargo test`, or `cargo nextest run` where nextest is configured and installed.

use std::path::Path;

use super::{Candidate, Detector, Fact};

pub(super) const DETECTOR: Detector = Detector {
    looks_for: "Cargo.toml",
    detect: |probe| cargo(probe.root, (probe.read)("Cargo.toml"), probe.installed),
};

/// What its rule found (`detect::Fact::Own`), worded in `messages::rust`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    /// A root `Cargo.toml`; `workspace`: it is a workspace.
    Cargo { workspace: bool },
    /// `.config/nextest.toml` configures nextest; whether `cargo-nextest` is installed.
    Nextest { installed: bool },
}

fn cargo(root: &Path, manifest: Option<String>, installed: &dyn Fn(&str) -> bool) -> Option<Candidate> {
    let manifest = manifest?;
    let workspace = manifest.lines().any(|l| l.trim() == "[workspace]");
    let scope = if workspace { " --workspace" } else { "" };
    let mut why = vec![Fact::own(Found::Cargo { workspace })];
    if crate::runner::Runner::Nextest
        .row()
        .config
        .files
        .iter()
        .any(|file| root.join(file).is_file())
    {
        let nextest = installed("cargo-nextest");
        why.push(Fact::own(Found::Nextest { installed: nextest }));
        if nextest {
            return Some((format!("cargo nextest run{scope}"), why));
        }
    }
    Some((format!("cargo test{scope}"), why))
}
