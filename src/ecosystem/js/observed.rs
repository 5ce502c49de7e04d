//! What the traced run's reading knows of JavaScript's files by name (`closure::observed::FILES`): its package
//! managers' manifests and lockfiles, and the configuration npm, Babel and Mocha pick up from a directory.

use super::Files;

pub(super) const FILES: Files = Files {
    manifest: |name| {
        matches!(
            name,
            "package.json" | "package-lock.json" | "npm-shrinkwrap.json" | "yarn.lock" | "pnpm-lock.yaml" | "bun.lockb"
        )
    },
    listed: &[".npmrc", ".babelrc"],
    listed_prefixes: &["babel.config.", ".babelrc.", ".mocharc."],
};
