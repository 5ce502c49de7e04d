//! `--verify auto` for Go: a root `go.mod` → `go test ./...`.

use super::{Detector, Fact};

pub(super) const DETECTOR: Detector = Detector {
    looks_for: "go.mod",
    detect: |probe| (probe.read)("go.mod").map(|_| ("go test ./...".into(), vec![Fact::GoMod])),
};
