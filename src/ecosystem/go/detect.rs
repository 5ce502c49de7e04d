//! `--verify auto` for Go: a root `go.mod` → `go test ./...`.

use super::{Detector, Fact};

pub(super) const DETECTOR: Detector = Detector {
    looks_for: "go.mod",
    detect: |probe| (probe.read)("go.mod").map(|_| ("go test ./...".into(), vec![Fact::own(Found::GoMod)])),
};

/// What its rule found (`detect::Fact::Own`), worded in `messages::go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    /// A root `go.mod`.
    GoMod,
}
