//! A `Cargo.toml` read for what `cargo test` builds and runs as a test (`closure::READERS`: stored as
//! `cargo-manifest`): the parts [`PATHS`] names, after taking out what only spells a target cargo makes anyway.
//!
//! A manifest that names its library's default path (`[lib] path = "src/lib.rs"`) or declares an integration test
//! autodiscovery finds anyway (`[[test]] name = "api"`, `path = "tests/api.rs"`, that path only) builds and runs
//! the same tests as one that does not: the key says what cargo does without it, so it is as if absent, as a
//! toolchain pin equal to the toolchain in effect is. So what is judged is the target cargo resolves, not the
//! table's text: the same `[lib] path` naming another file (a copy of the library whose inline tests keep their
//! names), a `[[test]]` pointing a name at another file, or one declared where autodiscovery is off
//! (`autotests = false`, or edition 2015, where declaring one target turns discovery off) counts as before.

use super::parts::{BEHAVIOUR, Reading, TEST_SETTINGS, Texts, UNPARSABLE, toml_texts};

/// A `Cargo.toml` read for its test side (`closure::READERS`): stored as `cargo-manifest`, never renamed.
pub(crate) const READING: Reading = Reading {
    kind: "cargo-manifest",
    parts: |text, profiles| parts(text, profiles),
    labels: |profiles| paths(profiles).iter().map(|p| p.join(".")).collect(),
    resolves: None,
};

/// The parts of a `Cargo.toml` that decide what `cargo test` builds and runs: the target tables (`[lib]`,
/// `[[test]]`, the test settings of `[[bin]]` / `[[example]]` / `[[bench]]`), the `auto*` switches, the build
/// script, the default features and the workspace's default members; then (in [`paths`]) the behaviour of the
/// build profiles the tests are built with.
const PATHS: [&str; 10] = [
    "lib",
    "test",
    "features.default",
    "package.autotests",
    "package.autobins",
    "package.autolib",
    "package.autobenches",
    "package.autoexamples",
    "package.build",
    "workspace.default-members",
];

/// [`PATHS`] as key paths, then the test settings of the other target arrays, then what of the `test` profile,
/// the `dev` profile it inherits and each of `profiles` (the ones the command names: `--release`, `--profile
/// NAME`) changes how the code behaves (`parts::BEHAVIOUR`: `overflow-checks`, `debug-assertions`, `panic`; not
/// how fast it builds).
fn paths(profiles: &[String]) -> Vec<Vec<String>> {
    let mut paths: Vec<Vec<String>> = PATHS
        .iter()
        .map(|t| t.split('.').map(str::to_string).collect())
        .collect();
    for targets in ["bin", "example", "bench"] {
        paths.push(vec![targets.to_string(), TEST_SETTINGS.to_string()]);
    }
    for profile in ["test", "dev"].into_iter().chain(profiles.iter().map(String::as_str)) {
        let path = vec!["profile".to_string(), profile.to_string(), BEHAVIOUR.to_string()];
        if !paths.contains(&path) {
            paths.push(path);
        }
    }
    paths
}

fn parts(text: &str, profiles: &[String]) -> Texts {
    let Ok(mut doc) = text.parse::<toml::Table>() else {
        return vec![(UNPARSABLE.to_string(), text.to_string())];
    };
    without_restated_defaults(&mut doc);
    toml_texts(&doc, &paths(profiles))
}

/// Takes out of `doc` what cargo does without it: the library's keys set to their defaults (its path
/// `src/lib.rs`, its name the package's with `_` for `-`, `test`, `doctest` and `harness` on), a `[lib]` left
/// empty, and, where autodiscovery is on, each `[[test]]` that only names a test it discovers (its path, if any,
/// `tests/NAME.rs` or `tests/NAME/main.rs`; `test` and `harness` on), and a `[[test]]` array left empty.
fn without_restated_defaults(doc: &mut toml::Table) {
    let package = doc.get("package").and_then(toml::Value::as_table);
    let crate_name = package
        .and_then(|p| p.get("name"))
        .and_then(toml::Value::as_str)
        .map(|name| name.replace('-', "_"));
    let edition = package.and_then(|p| p.get("edition")).and_then(toml::Value::as_str);
    let autotests = package
        .and_then(|p| p.get("autotests"))
        .and_then(toml::Value::as_bool)
        .unwrap_or(edition.is_some_and(|e| e != "2015"));
    if let Some(lib) = doc.get_mut("lib").and_then(toml::Value::as_table_mut) {
        lib.retain(|key, value| match key {
            "path" => value.as_str() != Some("src/lib.rs"),
            "name" => crate_name.is_none() || value.as_str() != crate_name.as_deref(),
            "test" | "doctest" | "harness" => value.as_bool() != Some(true),
            _ => true,
        });
        if lib.is_empty() {
            doc.remove("lib");
        }
    }
    if !autotests {
        return;
    }
    if let Some(tests) = doc.get_mut("test").and_then(toml::Value::as_array_mut) {
        tests.retain(|entry| !discovered(entry));
        if tests.is_empty() {
            doc.remove("test");
        }
    }
}

/// Whether a `[[test]]` entry only names a test autodiscovery makes: a name, its path `tests/NAME.rs`, and
/// `test` / `harness` on. Only that path: discovery also makes a test of `tests/NAME/main.rs`, and where both
/// files stand cargo refuses the duplicate unless an entry picks one — so an entry naming `tests/NAME/main.rs`
/// (or naming no path, which leaves cargo to pick) can choose a new copy over the sealed file, and counts.
fn discovered(entry: &toml::Value) -> bool {
    let Some(table) = entry.as_table() else {
        return false;
    };
    let Some(name) = table.get("name").and_then(toml::Value::as_str) else {
        return false;
    };
    table.get("path").and_then(toml::Value::as_str) == Some(format!("tests/{name}.rs").as_str())
        && table.iter().all(|(key, value)| match key.as_str() {
            "name" | "path" => true,
            "test" | "harness" => value.as_bool() == Some(true),
            _ => false,
        })
}

#[cfg(test)]
mod tests {
    use super::parts;

    const PACKAGE: &str = "[package]\nname = \"my-calc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n";

    fn sealed(text: &str) -> Vec<String> {
        parts(text, &[]).into_iter().map(|(label, _)| label).collect()
    }

    /// A manifest that spells what cargo does anyway reads as one that does not.
    #[test]
    fn restated_defaults_are_as_if_absent() {
        let spelled = format!(
            "{PACKAGE}\n[lib]\nname = \"my_calc\"\npath = \"src/lib.rs\"\ndoctest = true\n\n[[test]]\nname = \"api\"\npath = \"tests/api.rs\"\n\n[[test]]\nname = \"cli\"\npath = \"tests/cli.rs\"\nharness = true\n"
        );
        assert_eq!(parts(&spelled, &[]), parts(PACKAGE, &[]));
        assert!(sealed(&spelled).is_empty(), "{:?}", sealed(&spelled));
    }

    /// The same tables pointing at other files, switching a test off, or declared where discovery is off count.
    #[test]
    fn targets_resolved_elsewhere_or_switched_off_count() {
        for (text, part) in [
            (format!("{PACKAGE}\n[lib]\npath = \"src/calc.rs\"\n"), "lib"),
            (format!("{PACKAGE}\n[lib]\nname = \"other\"\n"), "lib"),
            (format!("{PACKAGE}\n[lib]\ntest = false\n"), "lib"),
            (
                format!("{PACKAGE}\n[[test]]\nname = \"api\"\npath = \"tests/v2/api.rs\"\n"),
                "test",
            ),
            (
                format!("{PACKAGE}\n[[test]]\nname = \"api\"\nharness = false\n"),
                "test",
            ),
            (
                format!("{PACKAGE}autotests = false\n\n[[test]]\nname = \"api\"\npath = \"tests/api.rs\"\n"),
                "test",
            ),
            (
                "[package]\nname = \"calc\"\n\n[[test]]\nname = \"api\"\npath = \"tests/api.rs\"\n".to_string(),
                "test",
            ),
        ] {
            assert!(sealed(&text).contains(&part.to_string()), "{text}: {:?}", sealed(&text));
        }
    }
}
