//! `--verify auto` for JavaScript: `package.json`'s `test` script, through the package manager its lockfile names.

use std::path::Path;

use super::{Candidate, Detector, Fact};

pub(super) const DETECTOR: Detector = Detector {
    looks_for: "package.json with a `test` script",
    detect: |probe| node(probe.root, (probe.read)("package.json")),
};

/// What its rule found (`detect::Fact::Own`), worded in `messages::js`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Found {
    /// `package.json` has a real `test` script.
    NodeScript,
    /// This lockfile names this package manager.
    Lockfile { file: &'static str, manager: &'static str },
    /// `package.json`'s `packageManager` field names it.
    PackageManagerField { manager: &'static str },
    /// No lockfile names a package manager (npm).
    NoLockfile,
}

fn node(root: &Path, manifest: Option<String>) -> Option<Candidate> {
    let json: serde_json::Value = serde_json::from_str(&manifest?).ok()?;
    let script = json.get("scripts")?.get("test")?.as_str()?;
    // `npm init` writes a test script that only fails: it is no test command.
    if script.trim().is_empty() || script.contains("no test specified") {
        return None;
    }
    let locks = [
        ("pnpm-lock.yaml", "pnpm"),
        ("yarn.lock", "yarn"),
        ("bun.lock", "bun"),
        ("bun.lockb", "bun"),
        ("package-lock.json", "npm"),
        ("npm-shrinkwrap.json", "npm"),
    ];
    let (manager, fact) = match locks.into_iter().find(|(file, _)| root.join(file).is_file()) {
        Some((file, manager)) => (manager, Found::Lockfile { file, manager }),
        None => match json.get("packageManager").and_then(|v| v.as_str()) {
            Some(spec) => {
                let name = spec.split('@').next().unwrap_or("npm");
                let manager = ["pnpm", "yarn", "bun"]
                    .into_iter()
                    .find(|m| *m == name)
                    .unwrap_or("npm");
                (manager, Found::PackageManagerField { manager })
            }
            None => ("npm", Found::NoLockfile),
        },
    };
    // `bun test` is bun's own test runner; `bun run test` runs the script like the others.
    let command = if manager == "bun" {
        "bun run test".to_string()
    } else {
        format!("{manager} test")
    };
    Some((command, vec![Fact::own(Found::NodeScript), Fact::own(fact)]))
}
