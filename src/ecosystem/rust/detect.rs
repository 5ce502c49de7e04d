//! `--verify auto` for Rust: `cargo test`, or `cargo nextest run` where nextest is configured and installed.

use std::path::Path;

use super::{Candidate, Detector, Fact};

pub(super) const DETECTOR: Detector = Detector {
    looks_for: "Cargo.toml",
    detect: |probe| cargo(probe.root, (probe.read)("Cargo.toml"), probe.installed),
};

fn cargo(root: &Path, manifest: Option<String>, installed: &dyn Fn(&str) -> bool) -> Option<Candidate> {
    let manifest = manifest?;
    let workspace = manifest.lines().any(|l| l.trim() == "[workspace]");
    let scope = if workspace { " --workspace" } else { "" };
    let mut why = vec![Fact::Cargo { workspace }];
    if crate::runner::Runner::Nextest
        .row()
        .config
        .files
        .iter()
        .any(|file| root.join(file).is_file())
    {
        let nextest = installed("cargo-nextest");
        why.push(Fact::Nextest { installed: nextest });
        if nextest {
            return Some((format!("cargo nextest run{scope}"), why));
        }
    }
    Some((format!("cargo test{scope}"), why))
}
