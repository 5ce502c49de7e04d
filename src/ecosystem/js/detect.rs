//! `--verify auto` for JavaScript: `package.json`'s `test` script, through the package manager its lockfile names.

use std::path::Path;

use super::{Candidate, Detector, Fact};

pub(super) const DETECTOR: Detector = Detector {
    looks_for: "package.json with a `test` script",
    detect: |probe| node(probe.root, (probe.read)("package.json")),
};

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
        Some((file, manager)) => (manager, Fact::Lockfile { file, manager }),
        None => match json.get("packageManager").and_then(|v| v.as_str()) {
            Some(spec) => {
                let name = spec.split('@').next().unwrap_or("npm");
                let manager = ["pnpm", "yarn", "bun"]
                    .into_iter()
                    .find(|m| *m == name)
                    .unwrap_or("npm");
                (manager, Fact::PackageManagerField { manager })
            }
            None => ("npm", Fact::NoLockfile),
        },
    };
    // `bun test` is bun's own test runner; `bun run test` runs the script like the others.
    let command = if manager == "bun" {
        "bun run test".to_string()
    } else {
        format!("{manager} test")
    };
    Some((command, vec![Fact::NodeScript, fact]))
}
