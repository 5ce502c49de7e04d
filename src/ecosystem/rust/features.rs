//! The features a package's tests are compiled with, as cargo resolves them (issue 39, item 3): recorded at the
//! baseline and compared before each promise's run, so that a feature the sealed tests read is judged by whether
//! it is on, not by which manifest's text turned it on.
//!
//! The manifest reading (`closure::cargo_manifest`) follows one `Cargo.toml`'s `[features]` and dependency tables.
//! Cargo turns a feature on by more paths than that file: another member's manifest depending back on the package
//! with the feature (unified into the test build through a dev-dependency), a `[patch]` or
//! `[workspace.dependencies]` entry, a `default-features` flip in a member, a `[target.'cfg(…)']` table — and a
//! build script printing `cargo:rustc-cfg=feature="…"` (or `cargo::rustc-cfg=`), which reaches every target of the
//! package at build time. Rather than follow each, the oracle asks cargo, for the class: what moves is **the set of
//! features the test units are compiled with**, whatever path turned one on.
//!
//! **What is read.** For each workspace member, the features its test build is compiled with as cargo resolves
//! them for the verify's own selection (`cargo tree --offline -f '{p}|{f}|'` with the call's `-p` / `--workspace`
//! / `--features` flags: it follows dev-dependencies and unifies what every selected package's graph turns on;
//! `cargo metadata`'s own `resolve` unifies the whole workspace with every member's default features, which a
//! `cargo test` of one package does not build), and, for a member with a build script, the `cfgs` cargo reports
//! for it (`cargo check --tests --message-format=json`'s `build-script-executed` messages) that name
//! `feature="…"`. Of those, only the features the baseline's test side names count (`feature:` among
//! `cargo_manifest::test_side`'s names: `cfg(feature = …)` in inline tests, files under `tests/`, doc comments): a
//! feature the sealed tests do not read changes only the code under test, the agent's. A new member, a new
//! feature, a dev-dependency, a build script that generates code: none changes which of those features are on, so
//! none is named. `rustflags` (`--cfg feature="…"` from `.cargo/config.toml`) are not read here: the configuration
//! is sealed key by key (`closure::derive::cargo`), and the run's environment is the baseline's.
//!
//! **What the build scripts tell rustc** besides features (`build_output`): the custom cfgs, the `rustc-env`
//! variables and the `OUT_DIR` files the baseline's test side reads (`#[cfg(lenient)]`, `cfg!(lenient)`,
//! `#[cfg_attr(lenient, should_panic)]`, `env!("CALC_SLACK")`, `include!(concat!(env!("OUT_DIR"), "/cases.rs"))`),
//! as cargo reports each member's script telling them for the test build, against the baseline's.
//!
//! **When it runs, and what it costs.** Only where the verify runs cargo's tests and the baseline's tests read a
//! feature, a custom cfg, a compile-time variable or a generated file: for any other project nothing is recorded
//! and no promise pays for it. `cargo metadata --no-deps` and `cargo tree` resolve from the manifests, the
//! lockfile and the local registry, never the network (`--offline`), in some 100 ms. The build scripts' reading
//! (`cargo check --tests`, which runs them) is taken at every promise where a member has a build script, changed
//! or not: a script's output moves with what it reads (`build.conf`, a variable `.cargo/config.toml`'s `[env]`
//! sets, a file it `include_str!`s, a dependency's `links` metadata), and cargo reruns it exactly when one of
//! those moved, so what cargo reports is what the test build is compiled with. Where no member has one, the
//! reading is not taken.
//!
//! **Where it runs.** Like `closure::make_plan`'s dry run: a build script is code, so the reading runs exactly where
//! the verify command runs — the oracle's room, its environment, tree, mount namespace and plane — untraced, just
//! before the run. It executes nothing the verify command would not.
//!
//! **Accepted by a person.** `loopgate allow` naming a manifest, `Cargo.lock` or a `build.rs` (or `--all`) takes the
//! reading afresh at the next promise, where its run stands ([`Features::retake`]); later promises are held to it.
//!
//! **When cargo cannot answer.** At setup (no cargo on the path, a dependency missing from the offline registry):
//! nothing is recorded, setup says so in one line, and the manifest reading judges the text alone as before — a
//! machine without a working `cargo metadata` must not have its honest work rejected. At a promise, a reading that
//! fails moves nothing: cargo's own run fails the same way where the manifest is broken, and a dependency that
//! needs the network is the agent's to add (the limit is named in `docs/threat-model.md`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::closure::parts::{self, Scope, WHOLE};

mod build_output;
use crate::closure::{Closure, MovedPart, PartChange, Runner, Why};
use crate::verify::VerifyRequest;
use build_output::{TestReads, Told};

/// The longest a reading may take: `cargo metadata` reads manifests; the build scripts' check compiles.
const READ_LIMIT: Duration = Duration::from_secs(600);
/// Marks the reading's own lines among whatever cargo (or a build script) prints.
const DATA: &str = "D";
const TREE: &str = "T";
const OUT: &str = "O";
const ERROR: &str = "E";

/// The features the baseline's tests were compiled with, where they read any (see the module doc).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Features {
    /// The feature names the baseline's test side reads (`cfg(feature = …)`).
    pub(crate) tested: BTreeSet<String>,
    /// Each workspace member at the baseline, by package name → the features of [`Features::tested`] it was
    /// compiled with (by the resolution or a build script's printed cfg).
    pub(crate) on: BTreeMap<String, BTreeSet<String>>,
    /// Each member's build script at the baseline, by package name → the digest of its source.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) build_scripts: BTreeMap<String, String>,
    /// The tested features each member's build script printed as cfgs at the baseline: what an unchanged script
    /// prints at a promise, where its reading is not taken again.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) printed: BTreeMap<String, BTreeSet<String>>,
    /// What the baseline's test side reads that a build script can set: custom cfgs, `env!` names, generated
    /// files (`build_output`).
    #[serde(default, skip_serializing_if = "TestReads::is_empty")]
    pub(crate) reads: TestReads,
    /// Each member at the baseline, by package name → what its build script told rustc of [`Features::reads`]
    /// (`build_output::Told`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) told: BTreeMap<String, BTreeSet<String>>,
    /// Each member's manifest at the baseline (absolute paths): where no member had a build script and the tests
    /// read no feature, a promise looks there for one before it asks cargo anything.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) manifests: Vec<String>,
    /// The user accepted a change to a manifest or a build script (`loopgate allow`): the next promise takes the
    /// reading afresh, where its run stands, and later promises are held to it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) retake: bool,
}

impl Features {
    /// Whether accepting `path` (project-relative) takes this reading afresh: a manifest or a build script.
    pub(crate) fn retaken_by(path: &str) -> bool {
        let name = Path::new(path).file_name().and_then(|n| n.to_str()).unwrap_or_default();
        name == "Cargo.toml" || name == "Cargo.lock" || name == "build.rs"
    }

    /// The reading taken afresh where and as `request` runs, held to the same tested features; `None` where cargo
    /// cannot answer.
    pub(crate) fn retaken(&self, request: &VerifyRequest) -> Option<Features> {
        take(self.tested.clone(), self.reads.clone(), request).ok()
    }
}

/// What one reading found: per member, the features it resolves and the digest of its build script.
#[derive(Debug, Default)]
struct Found {
    features: BTreeMap<String, BTreeSet<String>>,
    build_scripts: BTreeMap<String, String>,
    manifests: Vec<String>,
}

/// At the baseline: the tested features each member is compiled with, read where and as `request` runs the
/// verify command. `Ok(None)` where there is nothing to judge (not a cargo test run, or tests reading no
/// feature); `Err` with the one line setup prints where cargo could not answer (its reason, and what judges
/// instead).
pub(crate) fn record(closure: &Closure, root: &Path, request: &VerifyRequest) -> Result<Option<Features>, String> {
    if !closure.runners.contains(&Runner::Cargo) {
        return Ok(None);
    }
    let tested: BTreeSet<String> = crate::closure::cargo_manifest::test_side(root)
        .iter()
        .filter_map(|name| name.strip_prefix("feature:"))
        .map(str::to_string)
        .collect();
    let reads = build_output::test_reads(root);
    if tested.is_empty() && reads.is_empty() {
        return Ok(None);
    }
    take(tested, reads, request).map(Some).map_err(|why| {
        format!(
            "the features cargo builds the tests with were not recorded ({why}); the manifests' text alone judges them"
        )
    })
}

/// The reading of the members' features among `tested`, and of what their build scripts tell rustc among
/// `reads`, where and as `request` runs.
fn take(tested: BTreeSet<String>, reads: TestReads, request: &VerifyRequest) -> Result<Features, String> {
    let found = resolve(request)?;
    let mut on = found.features;
    let Output {
        features: mut printed,
        told,
    } = if found.build_scripts.is_empty() {
        Output::default()
    } else {
        build_script_output(request, &reads)?
    };
    for (package, features) in &mut printed {
        features.retain(|f| tested.contains(f));
        on.entry(package.clone()).or_default().extend(features.iter().cloned());
    }
    printed.retain(|_, features| !features.is_empty());
    for features in on.values_mut() {
        features.retain(|f| tested.contains(f));
    }
    Ok(Features {
        tested,
        on,
        build_scripts: found.build_scripts,
        printed,
        reads,
        told,
        manifests: found.manifests,
        retake: false,
    })
}

/// At a promise: every baseline member whose tested features differ from the baseline's, read where and as
/// `request` runs the verify command. A reading that fails names nothing (see the module doc).
pub(crate) fn check(sealed: &Features, request: &VerifyRequest) -> Vec<MovedPart> {
    if sealed.tested.is_empty() && sealed.build_scripts.is_empty() && !sealed.manifests.iter().any(|m| builds(m)) {
        // Tests reading only what a build script sets, in members that had none and have none: nothing can have
        // set it, and the promise pays for no cargo process (a new member's build script reaches only its own
        // targets, whose tests are new).
        return Vec::new();
    }
    let Ok(found) = resolve(request) else {
        return Vec::new();
    };
    let mut now = found.features;
    // Every member's build script is read as cargo runs it for this build, changed or not: an unchanged script's
    // output moves with what it reads (`build.conf`, a variable, a `rerun-if-changed` file), and cargo reruns it
    // exactly then. No build script: nothing to run, nothing told.
    let mut told = BTreeMap::new();
    if !found.build_scripts.is_empty() {
        match build_script_output(request, &sealed.reads) {
            Ok(output) => {
                for (package, features) in output.features {
                    now.entry(package).or_default().extend(features);
                }
                told = output.told;
            }
            // cargo's own run fails the same way (see the module doc): what the scripts told before stands.
            Err(_) => {
                for (package, features) in &sealed.printed {
                    now.entry(package.clone()).or_default().extend(features.iter().cloned());
                }
                told.clone_from(&sealed.told);
            }
        }
    }
    let mut out = moved(sealed, &now);
    out.extend(told_moved(sealed, &told));
    out
}

/// What the baseline's members' build scripts told rustc, of what the sealed tests read, that differs in `now`:
/// one part per line gone or new.
fn told_moved(sealed: &Features, now: &BTreeMap<String, BTreeSet<String>>) -> Vec<MovedPart> {
    let empty = BTreeSet::new();
    let mut out = Vec::new();
    for package in sealed.on.keys() {
        let was = sealed.told.get(package).unwrap_or(&empty);
        let is = now.get(package).unwrap_or(&empty);
        for line in was.symmetric_difference(is) {
            let (state, change) = if is.contains(line) {
                ("now told", PartChange::Added)
            } else {
                ("no longer told", PartChange::Removed)
            };
            out.push(MovedPart {
                path: "build.rs".to_string(),
                part: format!(
                    "{} of `{package}`, which the sealed tests read, {state} to rustc by a build script as cargo runs it for the test build (its source, or a file or variable it reads, changed; undo that change)",
                    Told::describe(line)
                ),
                change,
                why: Why::Configures("cargo".to_string()),
            });
        }
    }
    out
}

/// The members (of the baseline) whose tested features in `now` differ from `sealed`'s, one part each.
fn moved(sealed: &Features, now: &BTreeMap<String, BTreeSet<String>>) -> Vec<MovedPart> {
    let mut out = Vec::new();
    for (package, was) in &sealed.on {
        let Some(is) = now.get(package) else {
            // A member gone: its tests are gone too, which the per-test verdict finds by name.
            continue;
        };
        let is: BTreeSet<&String> = is.iter().filter(|f| sealed.tested.contains(*f)).collect();
        let was: BTreeSet<&String> = was.iter().collect();
        for feature in is.symmetric_difference(&was) {
            let (state, change) = if is.contains(feature) {
                ("on", PartChange::Added)
            } else {
                ("off", PartChange::Removed)
            };
            out.push(MovedPart {
                path: "Cargo.toml".to_string(),
                part: format!(
                    "feature `{feature}` of `{package}`, which the sealed tests read, now {state} as cargo resolves the test build (a manifest, a member or a build script turned it {state}; undo that change)"
                ),
                change,
                why: Why::Configures("cargo".to_string()),
            });
        }
    }
    out
}

/// Runs `command` where and as `request` runs the verify command; its lines that start with [`DATA`], [`TREE`] or [`OUT`]
/// (marks kept), and, where it printed any, the last line that starts with [`ERROR`] (its reason).
fn lines_of(request: &VerifyRequest, command: &str, what: &str) -> (Vec<String>, Option<String>) {
    let mut data = Vec::new();
    let mut error = None;
    let outcome = crate::verify::run_beside(request, command, what, READ_LIMIT, &mut |line| {
        let line = String::from_utf8_lossy(line);
        if line.starts_with(DATA) || line.starts_with(TREE) || line.starts_with(OUT) {
            data.push(line.into_owned());
        } else if let Some(text) = line.strip_prefix(ERROR)
            && !text.trim().is_empty()
        {
            error = Some(text.trim().to_string());
        }
    });
    if let Err(e) = outcome {
        error = Some(e.to_string());
    }
    (data, error)
}

/// The shell text that runs `cargo ARGS` with its output lines marked [`DATA`] and its errors marked [`ERROR`].
fn marked(args: &str) -> String {
    format!(
        "e=$(mktemp) || exit 125; cargo {args} 2>\"$e\" | sed 's/^/{DATA}/'; sed 's/^/{ERROR}/' \"$e\"; rm -f \"$e\""
    )
}

/// The flags of the verify's cargo call that select the packages and features the tests are built with, each
/// with its value where it takes one: `cargo tree` resolves for the same selection.
const SELECTION: &[(&str, bool)] = &[
    ("--workspace", false),
    ("--all", false),
    ("-p", true),
    ("--package", true),
    ("--exclude", true),
    ("-F", true),
    ("--features", true),
    ("--all-features", false),
    ("--no-default-features", false),
    ("--manifest-path", true),
];

/// The selection flags of the first `cargo` call in `command` (see [`SELECTION`]), quoted for the shell.
fn selection(command: &str) -> String {
    let words: Vec<&str> = command.split_whitespace().collect();
    let Some(at) = words.iter().position(|w| *w == "cargo" || w.ends_with("/cargo")) else {
        return String::new();
    };
    let mut out = Vec::new();
    let mut words = words[at + 1..]
        .iter()
        .take_while(|w| !matches!(**w, "--" | "&&" | "||" | ";" | "|"));
    while let Some(word) = words.next() {
        let (flag, inline) = word.split_once('=').map_or((*word, None), |(f, v)| (f, Some(v)));
        let Some((_, takes)) = SELECTION.iter().find(|(name, _)| *name == flag) else {
            continue;
        };
        out.push(crate::confine::rewrite::quote(flag));
        if *takes && let Some(value) = inline.or_else(|| words.next().copied()) {
            out.push(crate::confine::rewrite::quote(value));
        }
    }
    out.join(" ")
}

/// Cargo's resolution for the verify's selection: per workspace member, the features its test build is compiled
/// with (`cargo tree`, which resolves for the selected packages with their dev-dependencies, as `cargo test`
/// builds them; `cargo metadata`'s own resolution unifies the whole workspace, every member with its default
/// features, which the test build does not) and its build script's digest (`cargo metadata --no-deps`).
fn resolve(request: &VerifyRequest) -> Result<Found, String> {
    let select = selection(request.command);
    // `cargo metadata` prints one line of JSON, cut here at `,` so no line outgrows the runner's line limit (the
    // reading joins them back: a JSON text holds no raw line break).
    let command = format!(
        "e=$(mktemp) || exit 125; cargo metadata --no-deps --offline --format-version 1 --color never 2>\"$e\" | tr , '\\n' | sed 's/^/{DATA}/'; cargo tree --offline --color never --prefix none -f '{{p}}|{{f}}|' {select} 2>>\"$e\" | sed 's/^/{TREE}/'; sed 's/^/{ERROR}/' \"$e\"; rm -f \"$e\""
    );
    let (lines, error) = lines_of(request, &command, "cargo-features");
    let data: Vec<&str> = lines.iter().filter_map(|l| l.strip_prefix(DATA)).collect();
    let tree: Vec<&str> = lines.iter().filter_map(|l| l.strip_prefix(TREE)).collect();
    let reason = || {
        error
            .clone()
            .unwrap_or_else(|| "cargo printed no resolution".to_string())
    };
    let metadata: Metadata = serde_json::from_str(&data.join(",")).map_err(|_| reason())?;
    if tree.is_empty() {
        return Err(reason());
    }
    let members: BTreeSet<&str> = metadata.packages.iter().map(|p| p.name.as_str()).collect();
    let mut found = Found::default();
    for line in tree {
        let mut fields = line.split('|');
        let (Some(package), Some(features)) = (fields.next(), fields.next()) else {
            continue;
        };
        let Some(name) = package.split_whitespace().next().filter(|n| members.contains(n)) else {
            continue;
        };
        found
            .features
            .entry(name.to_string())
            .or_default()
            .extend(features.split(',').filter(|f| !f.is_empty()).map(str::to_string));
    }
    found.manifests = metadata.packages.iter().map(|p| p.manifest_path.clone()).collect();
    for package in &metadata.packages {
        if let Some(script) = package
            .targets
            .iter()
            .find(|t| t.kind.iter().any(|k| k == "custom-build"))
        {
            found
                .build_scripts
                .insert(package.name.clone(), digest(Path::new(&script.src_path)));
        }
    }
    Ok(found)
}

/// What the members' build scripts told rustc, as cargo reports it when it runs them for the test build.
#[derive(Debug, Default)]
struct Output {
    /// Per package, the features printed as cfgs (`cargo:rustc-cfg=feature="NAME"`).
    features: BTreeMap<String, BTreeSet<String>>,
    /// Per package, what of `reads` it told (`build_output::Told`).
    told: BTreeMap<String, BTreeSet<String>>,
}

/// The members' build scripts' output, as cargo reports it when it runs them for the test build, of what
/// `reads` reads.
fn build_script_output(request: &VerifyRequest, reads: &TestReads) -> Result<Output, String> {
    let check = format!(
        "check --offline --tests --quiet --color never --message-format=json {}",
        selection(request.command)
    );
    // The generated files are read where the run stands (its target directory is the room's), each output
    // directory cargo reports listed with its files' checksums, marked [`OUT`]: only where the tests include one.
    let command = if reads.outs.is_empty() {
        marked(&check)
    } else {
        format!(
            "e=$(mktemp) || exit 125; j=$(mktemp) || exit 125; cargo {check} 2>\"$e\" >\"$j\"; sed 's/^/{DATA}/' \"$j\"; sed -n 's/.*\"out_dir\":\"\\([^\"]*\\)\".*/\\1/p' \"$j\" | while IFS= read -r d; do find \"$d\" -type f -exec cksum {{}} + | sed 's/^/{OUT}/'; done; sed 's/^/{ERROR}/' \"$e\"; rm -f \"$e\" \"$j\""
        )
    };
    let (data, error) = lines_of(request, &command, "cargo-build-scripts");
    // Each generated file by its path → `CRC SIZE`.
    let files: BTreeMap<String, String> = data
        .iter()
        .filter_map(|l| l.strip_prefix(OUT))
        .filter_map(|l| {
            let mut fields = l.splitn(3, ' ');
            let (crc, size, path) = (fields.next()?, fields.next()?, fields.next()?);
            Some((path.to_string(), format!("{crc}:{size}")))
        })
        .collect();
    let mut out = Output::default();
    let mut any = false;
    for line in data.iter().filter_map(|l| l.strip_prefix(DATA)) {
        let Ok(message) = serde_json::from_str::<Message>(line) else {
            continue;
        };
        any = true;
        if message.reason != "build-script-executed" {
            continue;
        }
        let Some(name) = package_name(&message.package_id) else {
            continue;
        };
        out.features
            .entry(name.clone())
            .or_default()
            .extend(message.cfgs.iter().filter_map(|cfg| feature_of(cfg)));
        let told = Told::of(reads, &message.cfgs, &message.env, &message.out_dir, &files);
        if !told.is_empty() {
            out.told.entry(name).or_default().extend(told);
        }
    }
    if any {
        Ok(out)
    } else {
        Err(error.unwrap_or_else(|| "`cargo check` reported nothing".to_string()))
    }
}

/// Whether the package of the manifest at `path` has a build script: a `build.rs` beside it, or a `package.build`
/// naming one (anything but `false`). A manifest that cannot be read is taken to have one, so cargo is asked.
fn builds(path: &str) -> bool {
    let path = Path::new(path);
    let Ok(text) = std::fs::read_to_string(path) else {
        return true;
    };
    let Ok(doc) = text.parse::<toml::Table>() else {
        return true;
    };
    match doc.get("package").and_then(|p| p.get("build")) {
        Some(toml::Value::Boolean(false)) => false,
        Some(_) => true,
        None => path.with_file_name("build.rs").is_file(),
    }
}

/// `approx` of the cfg `feature="approx"` (spaces allowed around `=`); `None` for any other cfg.
fn feature_of(cfg: &str) -> Option<String> {
    let value = cfg.strip_prefix("feature")?.trim_start().strip_prefix('=')?.trim();
    Some(value.strip_prefix('"')?.strip_suffix('"')?.to_string())
}

/// The package's name in a package id: `calc` of `path+file:///w/calc#0.1.0`, `calc 0.1.0 (path+file:///w/calc)`
/// and `path+file:///w/x#calc@0.1.0`.
fn package_name(id: &str) -> Option<String> {
    if let Some((name, _)) = id.split_once(' ') {
        return Some(name.to_string());
    }
    let (url, fragment) = id.rsplit_once('#')?;
    if let Some((name, _)) = fragment.split_once('@') {
        return Some(name.to_string());
    }
    url.trim_end_matches('/').rsplit('/').next().map(str::to_string)
}

/// The digest of a file's bytes; empty where it cannot be read.
fn digest(path: &Path) -> String {
    std::fs::read(path)
        .ok()
        .and_then(|bytes| parts::digests(&Scope::Whole, Some(&bytes)).remove(WHOLE))
        .unwrap_or_default()
}

#[derive(Deserialize)]
struct Metadata {
    packages: Vec<Package>,
}

#[derive(Deserialize)]
struct Package {
    name: String,
    #[serde(default)]
    targets: Vec<Target>,
    #[serde(default)]
    manifest_path: String,
}

#[derive(Deserialize)]
struct Target {
    kind: Vec<String>,
    src_path: String,
}

#[derive(Deserialize)]
struct Message {
    reason: String,
    #[serde(default)]
    package_id: String,
    #[serde(default)]
    cfgs: Vec<String>,
    #[serde(default)]
    env: Vec<(String, String)>,
    #[serde(default)]
    out_dir: String,
}

#[cfg(test)]
mod tests {
    use super::{Features, feature_of, moved, package_name, selection};

    /// The verify's own package and feature selection is the reading's; anything else of its call is not.
    #[test]
    fn the_reading_resolves_the_verifys_selection() {
        assert_eq!(selection("cargo test -q"), "");
        assert_eq!(
            selection("cargo test -q -p calc --features=fast --workspace -- --nocapture -p x"),
            "'-p' 'calc' '--features' 'fast' '--workspace'"
        );
        assert_eq!(
            selection("cd sub && cargo nextest run --all-features --exclude big"),
            "'--all-features' '--exclude' 'big'"
        );
        assert_eq!(selection("make test"), "");
    }
    use std::collections::{BTreeMap, BTreeSet};

    #[test]
    fn a_feature_cfg_is_read_and_any_other_cfg_is_not() {
        assert_eq!(feature_of("feature=\"approx\"").as_deref(), Some("approx"));
        assert_eq!(feature_of("feature = \"approx\"").as_deref(), Some("approx"));
        assert_eq!(feature_of("has_simd"), None);
        assert_eq!(feature_of("features=\"x\""), None);
    }

    #[test]
    fn a_package_id_names_its_package_in_every_spelling() {
        for (id, name) in [
            ("path+file:///w/calc#0.1.0", "calc"),
            ("calc 0.1.0 (path+file:///w/calc)", "calc"),
            ("path+file:///w/x#calc@0.1.0", "calc"),
            (
                "registry+https://github.com/rust-lang/crates.io-index#serde@1.0.0",
                "serde",
            ),
        ] {
            assert_eq!(package_name(id).as_deref(), Some(name), "{id}");
        }
    }

    /// A tested feature turned on or off moves; an untested one, a new member, a member gone: nothing.
    #[test]
    fn only_the_tested_features_of_the_baselines_members_count() {
        let set = |names: &[&str]| names.iter().map(|n| (*n).to_string()).collect::<BTreeSet<_>>();
        let sealed = Features {
            tested: set(&["approx", "strict"]),
            on: BTreeMap::from([("calc".to_string(), set(&["strict"]))]),
            build_scripts: BTreeMap::new(),
            printed: BTreeMap::new(),
            reads: super::TestReads::default(),
            told: BTreeMap::new(),
            manifests: Vec::new(),
            retake: false,
        };
        let now = |calc: &[&str]| {
            BTreeMap::from([
                ("calc".to_string(), set(calc)),
                ("testkit".to_string(), set(&["approx"])),
            ])
        };
        assert!(moved(&sealed, &now(&["strict", "fast"])).is_empty());
        assert_eq!(moved(&sealed, &now(&["strict", "approx"])).len(), 1);
        assert_eq!(moved(&sealed, &now(&[])).len(), 1);
        assert!(moved(&sealed, &BTreeMap::new()).is_empty());
    }
}
