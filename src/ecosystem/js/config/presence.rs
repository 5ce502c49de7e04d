//! Whether a runner has any configuration to resolve, so that a promise of a project with none skips the reading
//! (issue 39, speed: the reading runs the installed runner, some 150–250 ms of CPU, at every promise).
//!
//! **Why a skip is sound.** A reading is a function of its inputs: the configuration files the runner finds, the
//! runner's own code and the modules its defaults name (held by content in the oracle's room, which the reading
//! runs in), and the recorded environment. Where the baseline found no configuration anywhere the runner looks,
//! and none is there now, the inputs that can move are the same as at the baseline, so the reading would answer
//! as it did: taking it again cannot change the verdict. Any file that appears (created, linked, renamed in) is
//! taken as configuration and the reading runs as before.
//!
//! **What counts as "any".** A class, not a list: every directory entry whose name starts with one of the
//! runner's stems and a dot (`jest.config.` under any extension, a directory or a link of that name too), in the
//! runner's directory and every directory above it up to the root (Vitest searches up; Jest traverses up to the
//! first `package.json`, and going further only reads more); for Jest also a `package.json` on the way with a
//! `jest` key (its configuration written inline), or one that cannot be read or parsed. A directory that cannot
//! be listed counts as holding configuration. Every doubt runs the reading.

use std::path::Path;

use crate::runner::Runner;

/// Whether no configuration of `runner` (whose file stems are `stems`) is found from `dir` up to the root (see the
/// module doc): `false` on any doubt. Both the path as given and the one it resolves to are walked: the runner
/// searches up from its working directory as the kernel gives it (links resolved), whose parents a linked
/// project's path does not name.
pub(super) fn none_from(runner: Runner, stems: &[&str], dir: &Path) -> bool {
    let Ok(real) = dir.canonicalize() else {
        return false;
    };
    [dir, real.as_path()]
        .iter()
        .all(|from| from.ancestors().all(|place| none_in(runner, stems, place)))
}

/// Whether `place` itself holds no configuration of `runner`.
fn none_in(runner: Runner, stems: &[&str], place: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(place) else {
        return false;
    };
    for entry in entries {
        let Ok(entry) = entry else {
            return false;
        };
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if stems
            .iter()
            .any(|stem| name.strip_prefix(stem).is_some_and(|rest| rest.starts_with('.')))
        {
            return false;
        }
        if runner == Runner::Jest && name == "package.json" && !without_jest_key(&entry.path()) {
            return false;
        }
    }
    true
}

/// Whether the `package.json` at `path` reads as a JSON object with no `jest` key.
fn without_jest_key(path: &Path) -> bool {
    std::fs::read(path)
        .ok()
        .and_then(|bytes| serde_json::from_slice::<serde_json::Value>(&bytes).ok())
        .and_then(|value| value.as_object().map(|object| !object.contains_key("jest")))
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;

    const JEST: &[&str] = &["jest.config"];
    const VITEST: &[&str] = &["vitest.config", "vite.config"];

    /// A project nested two levels inside a scratch directory, so that what is above it is the test's to write.
    fn nested() -> (tempfile::TempDir, std::path::PathBuf) {
        let scratch = tempfile::tempdir().expect("tempdir");
        let project = scratch.path().join("outer").join("project");
        std::fs::create_dir_all(&project).expect("create the project");
        std::fs::write(
            project.join("package.json"),
            r#"{"name": "p", "scripts": {"test": "jest"}}"#,
        )
        .expect("write");
        (scratch, project)
    }

    /// Whether anything above the scratch directory (the machine's own `/tmp`, `/`) already holds a configuration,
    /// in which case a test of "none" cannot hold here.
    fn clean_above(scratch: &Path, runner: Runner, stems: &[&str]) -> bool {
        let clean = scratch.parent().is_some_and(|above| none_from(runner, stems, above));
        if !clean {
            eprintln!(
                "skipped: a configuration of {runner:?} stands above {}",
                scratch.display()
            );
        }
        clean
    }

    /// With none anywhere, none is found; a file under any name of the class — in the directory or any above it,
    /// by an extension nobody listed, as a directory — is found, for both runners.
    #[test]
    fn a_configuration_anywhere_the_runner_looks_is_found() {
        for (runner, stems) in [(Runner::Jest, JEST), (Runner::Vitest, VITEST)] {
            for stem in stems {
                for (place, name) in [("", "js"), ("", "mts"), ("", "json5"), ("..", "cjs"), ("../..", "ts")] {
                    let (scratch, project) = nested();
                    if !clean_above(scratch.path(), runner, stems) {
                        return;
                    }
                    assert!(none_from(runner, stems, &project), "{stem}: found where there is none");
                    std::fs::write(
                        project.join(place).join(format!("{stem}.{name}")),
                        "export default {};\n",
                    )
                    .expect("write");
                    assert!(
                        !none_from(runner, stems, &project),
                        "{stem}.{name} in `{place}` was not found"
                    );
                }
                let (_scratch, project) = nested();
                std::fs::create_dir(project.join(format!("{stem}.d"))).expect("create");
                assert!(
                    !none_from(runner, stems, &project),
                    "a directory `{stem}.d` was not found"
                );
            }
        }
    }

    /// A name that only begins like a stem (`jest.configure.js`, `vite.config` with no extension) is not one.
    #[test]
    fn a_name_that_only_begins_like_a_stem_is_not_found() {
        let (scratch, project) = nested();
        if !clean_above(scratch.path(), Runner::Vitest, VITEST) {
            return;
        }
        std::fs::write(project.join("vite.configure.js"), "").expect("write");
        std::fs::write(project.join("vite.config"), "").expect("write");
        assert!(none_from(Runner::Vitest, VITEST, &project));
    }

    /// Jest's inline configuration (`package.json`'s `jest` key), here or above, counts for Jest only; a
    /// `package.json` that does not parse is a doubt.
    #[test]
    fn a_package_json_jest_key_or_a_broken_one_counts_for_jest() {
        for (place, text) in [
            ("", r#"{"name": "p", "jest": {"testTimeout": 1}}"#),
            ("..", r#"{"jest": {}}"#),
            ("", "{ not json"),
            ("", "[]"),
        ] {
            let (scratch, project) = nested();
            if !clean_above(scratch.path(), Runner::Jest, JEST) {
                return;
            }
            std::fs::write(project.join(place).join("package.json"), text).expect("write");
            assert!(!none_from(Runner::Jest, JEST, &project), "{place}/package.json {text}");
            if text.contains("jest") {
                assert!(
                    none_from(Runner::Vitest, VITEST, &project),
                    "vitest reads no `jest` key"
                );
            }
        }
    }

    /// A project reached through a link is searched up from where it resolves too, as the runner searches.
    #[test]
    fn a_linked_project_is_searched_up_from_where_it_resolves() {
        let (scratch, project) = nested();
        if !clean_above(scratch.path(), Runner::Vitest, VITEST) {
            return;
        }
        let link = scratch.path().join("link");
        std::os::unix::fs::symlink(&project, &link).expect("link the project");
        assert!(none_from(Runner::Vitest, VITEST, &link));
        std::fs::write(scratch.path().join("outer").join("vite.config.ts"), "").expect("write");
        assert!(
            !none_from(Runner::Vitest, VITEST, &link),
            "a configuration above the link's target was not found"
        );
    }

    /// A directory that is gone (or cannot be listed) is a doubt.
    #[test]
    fn a_directory_that_cannot_be_listed_is_a_doubt() {
        let (_scratch, project) = nested();
        assert!(!none_from(Runner::Vitest, VITEST, &project.join("gone")));
    }
}
