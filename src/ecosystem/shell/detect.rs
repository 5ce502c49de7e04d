//! `--verify auto` for bats.

use std::path::Path;

use super::{Candidate, Detector, Fact};

pub(super) const DETECTOR: Detector = Detector {
    looks_for: "or bats tests (test/*.bats)",
    detect: |probe| bats(probe.root),
};

/// What its rule found (`detect::Fact::Own`), worded in `messages::shell`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    /// `dir/` holds bats test files (`*.bats`).
    BatsFiles { dir: &'static str },
}

/// bats, where `test/` or `tests/` holds `*.bats` files: `bats DIR` runs every one of them.
fn bats(root: &Path) -> Option<Candidate> {
    ["test", "tests"].into_iter().find_map(|dir| {
        let entries = std::fs::read_dir(root.join(dir)).ok()?;
        entries
            .flatten()
            .any(|e| e.file_name().to_string_lossy().ends_with(".bats"))
            .then(|| (format!("bats {dir}"), vec![Fact::own(Found::BatsFiles { dir })]))
    })
}
