//! What the traced run's reading knows of Go's files by name (`closure::observed::FILES`): its module and
//! workspace files.

use super::Files;

pub(super) const FILES: Files = Files {
    manifest: |name| matches!(name, "go.mod" | "go.sum" | "go.work" | "go.work.sum"),
    listed: &[],
    listed_prefixes: &[],
};
