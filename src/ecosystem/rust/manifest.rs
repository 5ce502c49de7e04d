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
//!
//! **`[features] default` is read by its reach into the tests.** What a default feature changes on the test side
//! is what compiles into the baseline's tests: their own `cfg(feature = …)` / `cfg_attr` code (inline
//! `#[cfg(test)]` items, files under `tests/`, doc comments, which hold the doctests), the targets a feature gates
//! in or out (`required-features`), and the dependencies the tests name (`testkit::…`) turned on or given a
//! feature (`dep:testkit`, `testkit/lenient`, an optional dependency's implicit feature). Everything else it
//! switches is the code under test, the agent's anyway. So setup records which feature names and crate names the
//! test side holds ([`test_side`]), and the part `features.default` is the set of those the default features turn
//! on, followed through the `[features]` table as cargo does ([`default_reach`]): a default feature gating a new
//! module, or a new feature not default, moves nothing; one a baseline test is compiled differently under, or
//! one turning on a dependency the tests use, moves the part. The dependency tables are followed too, since
//! they turn features on as `default` does ([`dependency_entries`]): an entry for the package itself (a
//! dev-dependency on itself, `calc = { path = ".", features = ["lenient"] }`, in a `[target.'cfg(…)']` table as
//! well) turns on its own features. An entry for another crate stays free, the tests' crates included (its
//! features are everyday work for the code: `docs/threat-model.md`). A seal taken before this reading (no [`REACH`] marker among its names) keeps `[features] default`
//! sealed whole. Not read here: a build script's `cargo:rustc-cfg=feature="…"`, which reaches every target of
//! the package at build time, and its other cfgs, variables and generated files: those are judged as cargo
//! reports the scripts telling them (`closure::built_features`, over the same test side: [`test_regions`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::parts::{BEHAVIOUR, Reading, TEST_SETTINGS, Texts, UNPARSABLE, toml_texts};
use crate::schema::Lang;
use crate::testsig::lex::{Lexed, TokKind, lex};

/// Among a manifest reading's names: the features and crates below are the test side's, recorded at setup
/// ([`test_side`]), so `[features] default` is read by its reach ([`default_reach`]). Persisted in seals.
const REACH: &str = "features by their reach into the tests";
/// A feature name the test side's code holds (`feature:checked`).
const FEATURE: &str = "feature:";
/// A crate name the test side's code names at a path's start (`crate:testkit`).
const CRATE: &str = "crate:";
/// Every crate counts: the test side named more than [`MAX_CRATES`] (the seal stays small).
const EVERY_CRATE: &str = "crate:*";
/// The most crate names recorded before every crate counts.
const MAX_CRATES: usize = 300;
/// Crate names every test holds that no `[features]` entry can name.
const NOT_DEPENDENCIES: &[&str] = &["std", "core", "alloc", "crate", "self", "super", "test", "proc_macro"];

/// A `Cargo.toml` read for its test side (`closure::READERS`): stored as `cargo-manifest`, never renamed.
pub(crate) const READING: Reading = Reading {
    kind: "cargo-manifest",
    parts: |text, profiles| parts(text, profiles),
    labels: |names| {
        let mut labels: Vec<String> = paths(names).iter().map(|p| p.join(".")).collect();
        if names.iter().any(|n| n == REACH) {
            labels.insert(2, "features.default".to_string());
        }
        labels
    },
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
fn paths(names: &[String]) -> Vec<Vec<String>> {
    let by_reach = names.iter().any(|n| n == REACH);
    let profiles = names.iter().filter(|n| *n != REACH && !n.contains(':'));
    let mut paths: Vec<Vec<String>> = PATHS
        .iter()
        .filter(|t| !(by_reach && **t == "features.default"))
        .map(|t| t.split('.').map(str::to_string).collect())
        .collect();
    for targets in ["bin", "example", "bench"] {
        paths.push(vec![targets.to_string(), TEST_SETTINGS.to_string()]);
    }
    for profile in ["test", "dev"].into_iter().chain(profiles.map(String::as_str)) {
        let path = vec!["profile".to_string(), profile.to_string(), BEHAVIOUR.to_string()];
        if !paths.contains(&path) {
            paths.push(path);
        }
    }
    paths
}

fn parts(text: &str, names: &[String]) -> Texts {
    let Ok(mut doc) = text.parse::<toml::Table>() else {
        return vec![(UNPARSABLE.to_string(), text.to_string())];
    };
    let mut texts = if names.iter().any(|n| n == REACH) {
        default_reach(&doc, names)
            .map(|reach| ("features.default".to_string(), reach))
            .into_iter()
            .collect()
    } else {
        Vec::new()
    };
    without_restated_defaults(&mut doc);
    texts.extend(toml_texts(&doc, &paths(names)));
    texts
}

/// What the default features turn on that reaches the test side (see the module doc), one per line, sorted:
/// `feature NAME` for a feature the tests' code or a target's `required-features` names, `dependency NAME` and
/// `NAME/FEATURE` for a dependency the tests name (or any, under [`EVERY_CRATE`]). `None` when it reaches none of
/// them, so a manifest without default features and one whose defaults switch only the code under test read
/// alike.
fn default_reach(doc: &toml::Table, names: &[String]) -> Option<String> {
    let features: BTreeMap<&str, Vec<&str>> = doc
        .get("features")
        .and_then(toml::Value::as_table)
        .map(|table| {
            table
                .iter()
                .map(|(name, list)| {
                    let entries = list
                        .as_array()
                        .map_or_else(Vec::new, |l| l.iter().filter_map(toml::Value::as_str).collect());
                    (name.as_str(), entries)
                })
                .collect()
        })
        .unwrap_or_default();
    let mut tested: BTreeSet<String> = names
        .iter()
        .filter_map(|n| n.strip_prefix(FEATURE))
        .map(str::to_string)
        .collect();
    tested.extend(required_features(doc));
    let crates: BTreeSet<&str> = names.iter().filter_map(|n| n.strip_prefix(CRATE)).collect();
    let every_crate = names.iter().any(|n| n == EVERY_CRATE);
    let used = |dependency: &str| every_crate || crates.contains(dependency.replace('-', "_").as_str());
    let mut on: BTreeSet<String> = BTreeSet::new();
    let mut seen: BTreeSet<&str> = BTreeSet::new();
    let mut todo: Vec<&str> = features.get("default").cloned().unwrap_or_default();
    // A dependency table turns the package's own features on too, as `default` would, where an entry names the
    // package itself (a dev-dependency on itself, a known way to switch features on for the tests only; in a
    // `[target.'cfg(…)']` table as well). An entry for another crate stays free, even one the tests use: its
    // features are everyday work for the code (`tokio = { features = ["fs"] }` beside tests using
    // `tokio::test`; docs/threat-model.md).
    let own = doc
        .get("package")
        .and_then(|package| package.get("name"))
        .and_then(toml::Value::as_str);
    for (key, entry) in dependency_entries(doc) {
        let crate_name = entry.get("package").and_then(toml::Value::as_str).unwrap_or(key);
        let listed = entry
            .get("features")
            .and_then(toml::Value::as_array)
            .map_or_else(Vec::new, |l| l.iter().filter_map(toml::Value::as_str).collect());
        if Some(crate_name) == own && entry.get("path").is_some() {
            todo.extend(listed);
        }
    }
    while let Some(entry) = todo.pop() {
        if !seen.insert(entry) {
            continue;
        }
        if let Some(dependency) = entry.strip_prefix("dep:") {
            if used(dependency) {
                on.insert(format!("dependency {dependency}"));
            }
        } else if let Some((dependency, feature)) = entry.split_once('/') {
            let dependency = dependency.trim_end_matches('?');
            if used(dependency) {
                on.insert(format!("{dependency}/{feature}"));
            }
            // `dep/feature` also turns on the feature of that name, when the dependency is optional and named
            // like one (cargo's implicit feature), unless it is written `dep?/feature`.
            if !entry.contains('?') {
                todo.extend(features.get(dependency).cloned().unwrap_or_default());
            }
        } else {
            if tested.contains(entry) {
                on.insert(format!("feature {entry}"));
            }
            match features.get(entry) {
                Some(enabled) => todo.extend(enabled.iter().copied()),
                // No such feature: an optional dependency's implicit one.
                None if used(entry) => {
                    on.insert(format!("dependency {entry}"));
                }
                None => {}
            }
        }
    }
    (!on.is_empty()).then(|| on.into_iter().collect::<Vec<_>>().join("\n"))
}

/// Every dependency entry written as a table (`name = { … }`, `[dependencies.name]`), by its key: in
/// `[dependencies]`, `[dev-dependencies]` and `[build-dependencies]` (either spelling), top-level and under each
/// `[target.'…']`. A bare version string turns no feature on.
fn dependency_entries(doc: &toml::Table) -> Vec<(&str, &toml::Table)> {
    const TABLES: [&str; 5] = [
        "dependencies",
        "dev-dependencies",
        "dev_dependencies",
        "build-dependencies",
        "build_dependencies",
    ];
    let targets = doc
        .get("target")
        .and_then(toml::Value::as_table)
        .into_iter()
        .flat_map(|targets| targets.values().filter_map(toml::Value::as_table));
    std::iter::once(doc)
        .chain(targets)
        .flat_map(|scope| TABLES.iter().filter_map(|t| scope.get(*t)?.as_table()))
        .flat_map(|table| {
            table
                .iter()
                .filter_map(|(key, entry)| Some((key.as_str(), entry.as_table()?)))
        })
        .collect()
}

/// The features a target's `required-features` names (`[[test]]`, `[[bin]]`, `[[example]]`, `[[bench]]`): the
/// default features switch such a target in or out of the run.
fn required_features(doc: &toml::Table) -> Vec<String> {
    ["test", "bin", "example", "bench", "lib"]
        .iter()
        .filter_map(|kind| doc.get(*kind))
        .flat_map(|targets| match targets {
            toml::Value::Array(list) => list.iter().collect::<Vec<_>>(),
            other => vec![other],
        })
        .filter_map(|target| target.get("required-features")?.as_array())
        .flatten()
        .filter_map(toml::Value::as_str)
        .map(str::to_string)
        .collect()
}

/// The test side's reach, recorded at setup among the manifest reading's names (see the module doc): [`REACH`],
/// then `feature:NAME` for every feature the project's test code names (`feature = "NAME"` in an inline
/// `#[cfg(test)]` item, a file under `tests/` or `benches/`, a `tests.rs`, a doc comment) and `crate:NAME` for
/// every crate name such code puts at a path's start (`testkit::check`, `extern crate testkit`).
pub(crate) fn test_side(root: &Path) -> Vec<String> {
    let mut features = BTreeSet::new();
    let mut crates = BTreeSet::new();
    test_regions(root, |region| match region {
        Region::Doc(comment) => features.extend(named_features(comment)),
        Region::Code(lexed, range) => {
            let (start, end) = (lexed.toks[range.start].start, lexed.toks[range.end - 1].end);
            features.extend(named_features(&lexed.text[start..end]));
            crates.extend(path_starts(lexed, range));
        }
    });
    let mut names = vec![REACH.to_string()];
    names.extend(features.into_iter().map(|f| format!("{FEATURE}{f}")));
    if crates.len() > MAX_CRATES {
        names.push(EVERY_CRATE.to_string());
    } else {
        names.extend(crates.into_iter().map(|c| format!("{CRATE}{c}")));
    }
    names
}

/// A piece of the project's test side ([`test_regions`]): a doc comment (its doctests), or a range of tokens of
/// a file's code (a whole file under `tests/` or `benches/`, or an inline `#[cfg(test)]` item).
pub(crate) enum Region<'a> {
    Doc(&'a str),
    Code(&'a Lexed<'a>, std::ops::Range<usize>),
}

/// Calls `each` with every piece of the project's test side: in every `.rs` file, its doc comments, and the
/// whole file where it is a test file (`tests.rs`, `#![cfg(test)]`, under `tests/` or `benches/`), else its
/// inline `#[cfg(test)]` items.
pub(crate) fn test_regions(root: &Path, mut each: impl FnMut(Region)) {
    crate::walk::files(root, |relative, name| {
        let Some(stem) = name.strip_suffix(".rs") else {
            return;
        };
        let Ok(text) = std::fs::read_to_string(root.join(relative)) else {
            return;
        };
        let whole = stem == "tests"
            || text.contains("#![cfg(test)]")
            || relative.split('/').any(|dir| dir == "tests" || dir == "benches");
        let lexed = lex(Lang::Rust, &text);
        for comment in &lexed.comments {
            let comment = &text[comment.start..comment.end];
            if comment.starts_with("///") || comment.starts_with("//!") || comment.starts_with("/**") {
                each(Region::Doc(comment));
            }
        }
        let regions = if whole {
            std::iter::once(0..lexed.toks.len()).collect()
        } else {
            test_items(&lexed)
        };
        for region in regions.into_iter().filter(|r| !r.is_empty()) {
            each(Region::Code(&lexed, region));
        }
    });
}

/// The names in `text` written `feature = "NAME"` (in `cfg`, `cfg_attr`, `cfg!`, `doc(cfg(…))`).
fn named_features(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("feature") {
        rest = &rest[at + "feature".len()..];
        let Some(value) = rest.trim_start().strip_prefix('=').map(str::trim_start) else {
            continue;
        };
        let Some(quoted) = value.strip_prefix('"') else {
            continue;
        };
        if let Some((name, _)) = quoted.split_once('"') {
            out.push(name.to_string());
        }
    }
    out
}

/// The token ranges of the items under a `#[cfg(…test…)]` attribute: the attribute through the end of the item
/// (its brace group, or its `;`).
fn test_items(lx: &Lexed) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut i = 0;
    while i + 2 < lx.toks.len() {
        let attribute = lx.is(i, b'#') && lx.is(i + 1, b'[') && lx.s(i + 2) == "cfg";
        let Some(close) = attribute.then(|| lx.partner(i + 1)).flatten() else {
            i += 1;
            continue;
        };
        if !(i + 2..close).any(|j| lx.s(j) == "test" && lx.kind(j) == Some(TokKind::Ident)) {
            i = close + 1;
            continue;
        }
        let mut j = close + 1;
        let end = loop {
            match lx.toks.get(j) {
                None => break lx.toks.len(),
                Some(_) if lx.is(j, b';') => break j + 1,
                Some(_) if lx.is(j, b'{') => break lx.partner(j).map_or(lx.toks.len(), |p| p + 1),
                Some(_) => j += 1,
            }
        };
        out.push(i..end.max(i + 1));
        i = end.max(i + 1);
    }
    out
}

/// The crate names at a path's start in `region` (`testkit` of `testkit::check`, `::testkit::x`,
/// `extern crate testkit`), but [`NOT_DEPENDENCIES`].
fn path_starts(lx: &Lexed, region: std::ops::Range<usize>) -> Vec<String> {
    region
        .clone()
        .filter(|&i| lx.kind(i) == Some(TokKind::Ident))
        .filter(|&i| {
            let before_is_path = i >= 2
                && lx.is(i - 1, b':')
                && lx.is(i - 2, b':')
                && i - 2 > region.start
                && lx.kind(i - 3) == Some(TokKind::Ident);
            let starts_a_path = lx.is(i + 1, b':') && lx.is(i + 2, b':') && !before_is_path;
            let extern_crate = i >= 2 && lx.s(i - 1) == "crate" && lx.s(i - 2) == "extern";
            starts_a_path || extern_crate
        })
        .map(|i| lx.s(i))
        .filter(|name| !NOT_DEPENDENCIES.contains(name) && name.starts_with(|c: char| c.is_ascii_lowercase()))
        .map(str::to_string)
        .collect()
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
    use super::{REACH, parts, test_side};

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

    /// The names a reading by reach holds: the marker, then `feature:` and `crate:` entries.
    fn reach(entries: &[&str]) -> Vec<String> {
        std::iter::once(REACH.to_string())
            .chain(entries.iter().map(|e| (*e).to_string()))
            .collect()
    }

    /// `features.default`'s part, read by its reach.
    fn default_part(text: &str, names: &[String]) -> Option<String> {
        parts(text, names)
            .into_iter()
            .find(|(label, _)| label == "features.default")
            .map(|(_, text)| text)
    }

    /// A default feature the tests do not name, a new feature not default, a default turning on a dependency
    /// only the code uses: nothing reaches the tests. A feature the tests name, a feature gating a target in or
    /// out, a dependency the tests use turned on or given a feature, reached through other features: each counts.
    #[test]
    fn default_features_count_by_their_reach_into_the_tests() {
        let names = reach(&["feature:lenient", "crate:testkit"]);
        let with = |features: &str| {
            format!(
                "{PACKAGE}\n[dependencies]\nserde = {{ version = \"1\", optional = true }}\ntestkit = {{ path = \"testkit\", optional = true }}\n\n[features]\n{features}"
            )
        };
        let bare = default_part(&with(""), &names);
        assert_eq!(bare, None);
        for honest in [
            "default = [\"checked\"]\nchecked = []\n",
            "fast = []\n",
            "default = [\"serde\"]\n",
            "default = [\"dep:serde\", \"serde/std\"]\n",
            "default = [\"checked\"]\nchecked = [\"fast\"]\nfast = []\nlenient = []\n",
        ] {
            assert_eq!(default_part(&with(honest), &names), bare, "{honest}");
        }
        for gamed in [
            "default = [\"lenient\"]\nlenient = []\n",
            "default = [\"fast\"]\nfast = [\"lenient\"]\nlenient = []\n",
            "default = [\"testkit\"]\n",
            "default = [\"dep:testkit\"]\n",
            "default = [\"testkit/fake\"]\n",
            "default = [\"fast\"]\nfast = [\"testkit?/fake\"]\n",
        ] {
            assert_ne!(default_part(&with(gamed), &names), bare, "{gamed}");
        }
        // A target gated by a feature: the defaults switch it in or out.
        let gated = format!("{PACKAGE}\n[[test]]\nname = \"slow\"\nrequired-features = [\"slow\"]\n");
        assert_ne!(
            default_part(
                &format!("{gated}\n[features]\ndefault = [\"slow\"]\nslow = []\n"),
                &names
            ),
            default_part(&gated, &names)
        );
        // A dependency on the package itself turns its features on as `default` does (in a target table too); a
        // feature given to another crate, even one the tests use, or a dependency on itself with none, moves
        // nothing.
        let plain = with("lenient = []\n");
        let plain_part = default_part(&plain, &names);
        for honest in [
            "[dev-dependencies]\nserde = { version = \"1\", features = [\"derive\"] }\n",
            "[dev-dependencies]\nmy-calc = { path = \".\" }\n",
            "[dev-dependencies.testkit]\npath = \"testkit\"\nfeatures = [\"fake\"]\n",
        ] {
            assert_eq!(
                default_part(&format!("{plain}\n{honest}"), &names),
                plain_part,
                "{honest}"
            );
        }
        for gamed in [
            "[dev-dependencies]\nmy-calc = { path = \".\", features = [\"lenient\"] }\n",
            "[target.'cfg(unix)'.dev-dependencies]\nmy-calc = { path = \"../my-calc\", features = [\"lenient\"] }\n",
            "[dev-dependencies]\nself-again = { package = \"my-calc\", path = \".\", features = [\"lenient\"] }\n",
        ] {
            assert_ne!(
                default_part(&format!("{plain}\n{gamed}"), &names),
                plain_part,
                "{gamed}"
            );
        }
        // A seal taken before the reading by reach keeps the default features sealed whole.
        let old = parts(&with("default = [\"checked\"]\nchecked = []\n"), &[]);
        assert!(old.iter().any(|(label, _)| label == "features.default"), "{old:?}");
    }

    /// The test side's features and crates: inline `#[cfg(test)]` items, files under `tests/`, doc comments;
    /// not the code under test's own `cfg(feature)`.
    #[test]
    fn the_test_side_names_its_features_and_crates() {
        let dir = tempfile::tempdir().expect("temp dir");
        let write = |path: &str, text: &str| {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, text).expect("write");
        };
        write(
            "src/lib.rs",
            "/// ```\n/// #[cfg(feature = \"doc\")]\n/// calc::add(1, 2);\n/// ```\npub fn add(a: i32, b: i32) -> i32 { a + b }\n\n#[cfg(feature = \"code\")]\npub fn fast() {}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        #[cfg(not(feature = \"inline\"))]\n        assert_eq!(super::add(1, 2), 3);\n        testkit::check();\n        std::hint::black_box(1);\n    }\n}\n\n#[cfg(feature = \"after\")]\npub fn later() {}\n",
        );
        write(
            "tests/api.rs",
            "extern crate fakes;\n#[cfg_attr(feature = \"slow\", ignore)]\n#[test]\nfn api() { assert!(calc::add(1, 1) == 2); }\n",
        );
        let names = test_side(dir.path());
        for expected in [
            REACH,
            "feature:doc",
            "feature:inline",
            "feature:slow",
            "crate:testkit",
            "crate:fakes",
            "crate:calc",
        ] {
            assert!(names.iter().any(|n| n == expected), "{expected}: {names:?}");
        }
        for unexpected in [
            "feature:code",
            "feature:after",
            "crate:std",
            "crate:super",
            "crate:hint",
        ] {
            assert!(!names.iter().any(|n| n == unexpected), "{unexpected}: {names:?}");
        }
    }
}
