//! Jest's and Vitest's configuration files judged by the configuration the runner resolves from them, key by key
//! (issue 39, item 3), instead of sealed whole.
//!
//! `jest.config.js` and `vitest.config.js` are code: sealed by their bytes, an everyday change (a longer
//! `testTimeout`, `verbose: true`, coverage settings) was rejected like a `testMatch` that drops the failing
//! test. What decides what runs is the configuration the runner resolves from the file, and that is what is held
//! here: at the baseline, and again before each promise's run, `resolve_config.cjs` loads it the way the runner
//! does (Jest's own `readConfigs`, what `jest --showConfig` prints with every default filled in; Vite's
//! `loadConfigFromFile` on the file Vitest picks, searching up from its directory) and prints it as plain JSON
//! (a function or a class instance as its source, marked as code). Each key is one part, compared with the
//! baseline's by the mechanism that judges `package.json`'s `jest` key (`closure::parts`, `Scope::JsonBut` with
//! its free keys and `IF_EQUAL` defaults): the keys that change only what is printed or how long a test may take
//! are free (the runner's row, `runner::Config::package_free`, and [`RESOLVED_FREE`]); everything else —
//! `testMatch`, `roots`, `testPathIgnorePatterns`, `setupFiles*`, `testEnvironment`, `transform`,
//! `moduleNameMapper`, `globalSetup`, `bail`, `passWithNoTests`, Vitest's `include` / `exclude`,
//! `plugins`, `resolve.alias`, and any key nobody listed — holds the baseline's value, absent standing for the
//! runner's default. The keys saying which files are tests (`roots`, `testMatch`, `testRegex`,
//! `testPathIgnorePatterns`; Vitest's `include`, `exclude`, `dir`, `root`) are one part per entry instead, and a
//! change of only those is judged by the files the two selections take (`config::selection`,
//! `closure::selection`): a widening by the agent's new tests is free.
//!
//! **Projects.** A reading is taken *as run* ([`Resolved::as_run`]): one document of settings per project, as the
//! runner resolves its projects — Jest's `projects` through its own `readConfigs`, each project's keys with the
//! global ones beside them; Vitest's `test.projects` (inline, `extends`, paths, globs of directories) and Vitest 3's
//! workspace file through `createVitest`, each project's resolved `test` options with what the main process reads
//! from the root, its aliases and user plugins; one document at the top level where there are no projects. A
//! moved reading is judged by the settings each file runs under (`config::runs`): free where every file but the
//! agent's new tests runs under the same set of settings as at the baseline, so a new project of new tests, a
//! project renamed and a configuration split into projects with each sealed test under its settings are free.
//! Seals from before hold Jest's projects entry by entry (`config::projects`) or whole, and are read so.
//!
//! **Reporters.** A reporter the runner ships (`default`, `summary`, `verbose`, …) only prints; a reporter that is
//! a path or a package is code that runs in the runner's process when the results are in, and could rewrite them
//! or end the process with status 0. So the built-in entries of `reporters` (and of coverage's reporters) are cut
//! before comparing, and what remains is sealed. **Coverage** settings are free: a threshold can fail a run whose
//! tests passed (the user's business) but cannot make a failing test pass, and instrumentation is the runner's
//! own transform.
//!
//! **Where it runs, and what it trusts.** Loading a configuration runs it: a config file is code, executed in the
//! runner's process at the verify too. So the reading runs exactly where the verify command runs — in the oracle's
//! room, with its environment, tree, mount namespace and plane, untraced, through `verify::run_with_lines` — never
//! in loopgate's own process (see `closure::make_plan`, whose dry run runs the same way). What a configuration
//! does when it loads (patch a module of the runner, lie to this reading from inside its process) is the trust of
//! the agent's code the tests import, and is named in `docs/threat-model.md`.
//!
//! **Fail closed.** A file is left to its resolution only when the baseline's reading succeeded and held no code
//! in a key that counts (a plugin, a function option: its source says nothing of the values it closes over); else
//! it stays sealed whole as before. At a promise, a configuration that no longer resolves is a moved part, named
//! with the runner's first line of error; a reading that answers twice (the configuration's code printing as the
//! reader, whose mark it can find in its own process) is not believed.
//!
//! **No configuration, no reading.** A project with no configuration file anywhere the runner looks (nor a `jest`
//! key in a `package.json`) at the baseline resolves the runner's defaults; while none appears, a reading at a
//! promise would answer the same, so it is not taken ([`Resolved::unconfigured`], `config::presence`). The
//! reading runs the runner (some 150–250 ms of CPU), which was most of what a promise of a small Jest or Vitest
//! project cost over its verify command (`BENCHMARKS.md`).

use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::closure::parts::{self, Parts, Scope, WHOLE};
use crate::closure::selection::{Members, entry_of};
use crate::closure::{Closure, MovedPart, PartChange, Why};
use crate::confine::rewrite::quote;
use crate::runner::Runner;
use crate::verify::VerifyRequest;

/// The reader, run by `node -e` in the runner's directory.
const READER: &str = include_str!("resolve_config.cjs");
/// The longest a reading may take: it loads a configuration, nothing more.
const READ_LIMIT: Duration = Duration::from_secs(60);
/// The error of a reading that answered more than once.
const TWO_ANSWERS: &str = "the configuration printed a second answer as loopgate's reading";
/// The most output lines kept from a reading (a configuration may print).
const MAX_LINES: usize = 10_000;

/// The runners read here, with the configuration stems each resolves (`jest.config` → `jest.config.js`, …).
const READ: &[(Runner, &[&str])] = &[
    (Runner::Jest, &["jest.config"]),
    (Runner::Vitest, &["vitest.config", "vite.config", "vitest.workspace"]),
];

/// What a runner resolved in one directory at the baseline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resolved {
    /// The runner's id (`jest`, `vitest`).
    pub(crate) runner: String,
    /// Where it runs, relative to the project root (empty: the root).
    pub(crate) dir: String,
    /// The configuration files left to this reading (project-relative), sealed whole before it.
    pub(crate) files: Vec<String>,
    /// Each key that counts → the digest of its value.
    pub(crate) parts: Parts,
    /// The user accepted a change to these files (`loopgate allow`): file → the digest of its bytes then (empty:
    /// absent). The next promise takes the reading afresh, where its run stands, if the files are still as
    /// accepted; else it compares as before. The reading itself is never taken outside the oracle's room.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub(crate) accepted: std::collections::BTreeMap<String, String>,
    /// No configuration stood anywhere the runner looks at the baseline (`config::presence`): a promise takes
    /// the reading again only once one does. Absent in a seal from before it: always read.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) unconfigured: bool,
    /// Jest's `projects` read entry by entry, each project its own configuration (`config::projects`). Absent in
    /// a seal from before it: the list is one part, read so at every promise.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) by_project: bool,
    /// Read as the runner runs each project's tests (`config::runs`): one document of settings per project, Vitest's
    /// projects as `createVitest` resolves them, and a moved reading judged by the settings each sealed test runs
    /// under. Absent in a seal from before it: read and judged as then.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) as_run: bool,
}

impl Resolved {
    /// Accepts the files of this reading as they are now in `root` (see [`Resolved::accepted`]). The reading taken
    /// afresh is the accepted configuration's, no longer the defaults': it is read at every promise from then on.
    pub(crate) fn accept(&mut self, root: &Path) {
        self.unconfigured = false;
        self.accepted = self
            .files
            .iter()
            .map(|f| (f.clone(), bytes_digest(&root.join(f))))
            .collect();
    }
}

/// The digest of a file's bytes; empty where it cannot be read (absent).
fn bytes_digest(path: &Path) -> String {
    std::fs::read(path)
        .map(|bytes| {
            parts::digests(&Scope::Whole, Some(&bytes))
                .remove(WHOLE)
                .unwrap_or_default()
        })
        .unwrap_or_default()
}

/// What a reading found: the file the runner resolved (project-relative where it is inside), the parts of its
/// configuration, and whether code stands in a part that counts.
struct Found {
    file: Option<String>,
    parts: Parts,
    code: bool,
}

/// One reading's answer, as the reader prints it.
#[derive(Deserialize)]
struct Reading {
    #[serde(default)]
    file: Option<String>,
    #[serde(default)]
    config: Map<String, Value>,
    #[serde(default)]
    error: Option<String>,
}

/// At the baseline: the configuration each Jest or Vitest run of the verify command resolves, read where and as
/// `request` runs the verify command, for every directory whose configuration files `closure` seals for it. A
/// directory whose reading fails, or holds code in a key that counts, is left out (its files stay sealed whole).
pub(crate) fn record(closure: &Closure, request: &VerifyRequest) -> Vec<Resolved> {
    let mut out = Vec::new();
    for (runner, dir, files) in left_to_reading(closure) {
        let Some(Ok(Found { file, parts, code })) = read(runner, &dir, request, Form::AsRun) else {
            continue;
        };
        if !code {
            let unconfigured = file.is_none() && unconfigured(runner, &dir, request);
            out.push(Resolved {
                runner: runner.row().id.to_string(),
                dir,
                files,
                parts,
                accepted: std::collections::BTreeMap::new(),
                unconfigured,
                by_project: true,
                as_run: true,
            });
        }
    }
    out
}

/// At a promise: every key whose resolved value moved since `sealed` was recorded, read where and as `request`
/// runs the verify command. A configuration that no longer resolves is named with the runner's error; a reading
/// that cannot start at all (node gone from the room) names nothing, and the run itself fails. A reading the user
/// accepted is taken afresh when its files are as accepted (`sealed` changes then: the caller saves it); a file
/// changed since is named. One accepted with code in a key that counts stays held to the accepted bytes, as its
/// reading cannot show what the code closes over.
///
/// Where only the test selection moved (`testMatch`, `roots`, Vitest's `include`, …: `config::selection`), it is
/// judged by the files it takes in the agent's tree under `root`: free where every file it adds or drops is one
/// `members` lets join or leave (`closure::selection`). Without `members` (new tests do not sit out) it counts.
pub(crate) fn check(
    sealed: &mut [Resolved],
    request: &VerifyRequest,
    root: &Path,
    members: Option<&Members<'_>>,
) -> Vec<MovedPart> {
    let mut moved = Vec::new();
    for resolved in sealed {
        let Some(runner) = Runner::by_id(&resolved.runner) else {
            continue;
        };
        if resolved.unconfigured && resolved.accepted.is_empty() && unconfigured(runner, &resolved.dir, request) {
            continue;
        }
        let name = runner.row().name;
        let why = Why::Configures(name.to_string());
        let form = if resolved.as_run {
            Form::AsRun
        } else if resolved.by_project {
            Form::ByProject
        } else {
            Form::Whole
        };
        let reading = read(runner, &resolved.dir, request, form);
        let changed: Vec<&String> = resolved
            .accepted
            .iter()
            .filter(|(file, digest)| bytes_digest(&request.cwd.join(file)) != **digest)
            .map(|(file, _)| file)
            .collect();
        if !resolved.accepted.is_empty()
            && changed.is_empty()
            && let Some(Ok(found)) = &reading
        {
            resolved.parts = found.parts.clone();
            if !found.code {
                resolved.accepted.clear();
            }
            continue;
        }
        moved.extend(changed.into_iter().map(|file| MovedPart {
            path: file.clone(),
            part: "its text, since you accepted it".to_string(),
            change: PartChange::Changed,
            why: why.clone(),
        }));
        let first = resolved.files.first().cloned().unwrap_or_else(|| resolved.dir.clone());
        match reading {
            None => {}
            Some(Err(error)) => moved.push(MovedPart {
                path: first,
                part: format!("the configuration {name} resolves (it does not resolve now: {error})"),
                change: PartChange::Changed,
                why,
            }),
            Some(Ok(found)) => {
                let path = found.file.unwrap_or(first);
                let mut changes = parts::compare(&resolved.parts, &found.parts);
                if resolved.as_run
                    && !changes.is_empty()
                    && let Some(members) = members
                {
                    let labels: Vec<String> = changes.iter().map(|(label, _)| label.clone()).collect();
                    let judged = runs::judge(
                        runner,
                        root,
                        &resolved.dir,
                        &resolved.parts,
                        &found.parts,
                        &labels,
                        members,
                    );
                    let Err(reasons) = judged else { continue };
                    // Within the same projects, what moved is named key by key, as before; where projects came or
                    // went (a configuration split, a project added), by the files whose settings it moved.
                    if !projects::same_projects(&resolved.parts, &found.parts) {
                        moved.extend(reasons.into_iter().map(|reason| MovedPart {
                            path: path.clone(),
                            part: reason,
                            change: PartChange::Changed,
                            why: why.clone(),
                        }));
                        continue;
                    }
                } else if let Some(members) = members {
                    let free = projects::free(
                        runner,
                        root,
                        &resolved.dir,
                        &resolved.parts,
                        &found.parts,
                        &changes,
                        members,
                    );
                    changes.retain(|(label, _)| !free.contains(label));
                }
                let changes = projects::told(&resolved.parts, &found.parts, changes);
                moved.extend(changes.into_iter().map(|(key, change)| MovedPart {
                    path: path.clone(),
                    part: named(&key, name),
                    change,
                    why: why.clone(),
                }));
            }
        }
    }
    moved
}

/// How a moved part of a reading is named: `bail as jest resolves it`; an entry of the test selection by its key
/// and itself (`testMatch as jest resolves it: **/extra.test.js`), the key alone where it was set or unset.
fn named(label: &str, runner: &str) -> String {
    match entry_of(label) {
        Some((key, selection::SET)) => format!("{key} as {runner} resolves it"),
        Some((key, entry)) => format!("{key} as {runner} resolves it: {entry}"),
        None => format!("{label} as {runner} resolves it"),
    }
}

impl Closure {
    /// Leaves the configuration files of each recorded reading to it: they keep their place in the derived
    /// closure, so no other reading (the observed closure, a shadow) seals them, but with no part of their own
    /// (`Scope::Code`): the reading judges them, key by key, before each promise's run.
    ///
    /// The test selection's keys in a runner's key of `package.json` beside them (`jest.roots`, `jest.testMatch`)
    /// are left to the reading too, which judges them by the files they take (`config::selection`); the rest of
    /// the key stays sealed as it was, re-read from `root`.
    pub(crate) fn leave_configs_to(&mut self, resolved: &[Resolved], root: &Path) {
        for file in &mut self.files {
            if resolved.iter().any(|r| r.files.contains(&file.path)) {
                file.scope = Scope::Code;
                file.parts = Parts::new();
                continue;
            }
            for reading in resolved {
                let Some(runner) = Runner::by_id(&reading.runner) else {
                    continue;
                };
                let Some(key) = runner.row().config.package_key else {
                    continue;
                };
                let manifest = Path::new(&reading.dir).join("package.json");
                // The manifest's scope is every sealed key of it merged (`scripts.test` beside `jest`).
                if Path::new(&file.path) != manifest {
                    continue;
                }
                if let Scope::JsonBut { paths, free } = &mut file.scope
                    && paths.iter().any(|path| path.len() == 1 && path[0] == key)
                {
                    // `projects` too where the reading judges it entry by entry (`config::projects`).
                    let projects = reading.by_project.then_some("projects");
                    free.extend(
                        selection::keys(runner)
                            .iter()
                            .copied()
                            .chain(projects)
                            .map(|option| vec![key.to_string(), option.to_string()]),
                    );
                    file.parts = crate::closure::read_parts(root, &file.path, &file.scope);
                }
            }
        }
    }
}

/// The (runner, directory, configuration files) the closure seals for Jest and Vitest: the files of the stems
/// each resolves, grouped by the directory the runner runs in.
fn left_to_reading(closure: &Closure) -> Vec<(Runner, String, Vec<String>)> {
    let mut out: Vec<(Runner, String, Vec<String>)> = Vec::new();
    for (runner, stems) in READ.iter().filter(|(r, _)| closure.runners.contains(r)) {
        let why = Why::Configures(runner.row().name.to_string());
        for file in closure.files.iter().filter(|f| f.why == why && f.scope == Scope::Whole) {
            let path = Path::new(&file.path);
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            let resolved_name = stems.iter().any(|stem| {
                name.strip_prefix(stem)
                    .and_then(|rest| rest.strip_prefix('.'))
                    .is_some_and(|ext| crate::runner::JS_EXTS.contains(&ext))
            });
            if !resolved_name || path.is_absolute() {
                continue;
            }
            let dir = path
                .parent()
                .map_or_else(String::new, |d| d.to_string_lossy().into_owned());
            match out.iter_mut().find(|(r, d, _)| r == runner && *d == dir) {
                Some((_, _, files)) => files.push(file.path.clone()),
                None => out.push((*runner, dir, vec![file.path.clone()])),
            }
        }
    }
    out
}

/// Whether no configuration of `runner` stands from `dir` (project-relative) up where `request` runs it (see
/// `config::presence`): the room's tree where it is a copy at a path of its own, else the project's path, which
/// loopgate sees as the agent's tree — all the room's tree holds and more (new files a runner would load on its
/// own stay out of it), so a file there the run would not see only costs a reading.
fn unconfigured(runner: Runner, dir: &str, request: &VerifyRequest) -> bool {
    READ.iter()
        .find(|(r, _)| *r == runner)
        .is_some_and(|(_, stems)| presence::none_from(runner, stems, &request.cwd.join(dir)))
}

/// The reading of `runner`'s configuration in `dir` (project-relative), run where and as `request` runs. `None`
/// when the reader could not start or said nothing; `Err` with the runner's first line of error.
/// How a reading is taken: the seal's `Resolved` says which its baseline was.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Form {
    /// One document, Jest's `projects` one part (a seal from before either flag).
    Whole,
    /// Jest's `projects` entry by entry (`Resolved::by_project`).
    ByProject,
    /// Each project as the runner runs its tests (`Resolved::as_run`).
    AsRun,
}

fn read(runner: Runner, dir: &str, request: &VerifyRequest, form: Form) -> Option<Result<Found, String>> {
    // The reader deletes the mark from its environment before it loads the configuration.
    let mark = crate::verify::unforeseeable_mark("config");
    let place = if dir.is_empty() { ".".to_string() } else { quote(dir) };
    let command = format!(
        "cd {place} && LOOPGATE_CONFIG_MARK={} LOOPGATE_CONFIG_RUNNER={} LOOPGATE_CONFIG_PROJECTS={} \
         LOOPGATE_CONFIG_FORM={} node -e {}",
        quote(&mark),
        runner.row().id,
        u8::from(form != Form::Whole),
        if form == Form::AsRun { "as-run" } else { "as-written" },
        quote(READER)
    );
    let mut answers: Vec<String> = Vec::new();
    let mut lines = 0;
    let outcome = crate::verify::run_beside(request, &command, "config", READ_LIMIT, &mut |line| {
        lines += 1;
        let line = String::from_utf8_lossy(line);
        if lines <= MAX_LINES
            && let Some(json) = line.trim_end().strip_prefix(&mark)
        {
            answers.push(json.trim_start().to_string());
        }
    });
    outcome.ok()?;
    // The reader answers once: a second answer is the configuration's code printing as the reader (it runs in the
    // reader's process and can find the mark), and no answer of it is trusted.
    let [answer] = answers.as_slice() else {
        return (!answers.is_empty()).then(|| Err(TWO_ANSWERS.to_string()));
    };
    let reading: Reading = serde_json::from_str(answer).ok()?;
    if let Some(error) = reading.error {
        return Some(Err(error));
    }
    let (parts, code) = parts_of(&reading.config, form != Form::Whole);
    let root = request.cwd.to_string_lossy();
    let file = reading
        .file
        .map(|file| match Path::new(&file).strip_prefix(root.as_ref()) {
            Ok(relative) => relative.to_string_lossy().into_owned(),
            Err(_) => file,
        });
    Some(Ok(Found { file, parts, code }))
}

/// Whether the configuration of the tool named `tool` (a runner's row's `name`) is read as it resolves here.
pub(crate) fn resolves(tool: &str) -> bool {
    READ.iter().any(|(runner, _)| runner.row().name == tool)
}

/// The options free whole in `runner`'s key of `package.json` beyond its row's `package_free`: for a runner read
/// here (Jest), the resolved configuration's free keys, so that `maxWorkers` is as free in `package.json`'s `jest`
/// as in `jest.config.js`; none for another.
pub(crate) fn package_free(runner: Runner) -> Vec<&'static str> {
    if READ.iter().any(|(read, _)| *read == runner) {
        keys::package_free().collect()
    } else {
        Vec::new()
    }
}

#[path = "config/keys.rs"]
mod keys;
#[path = "config/presence.rs"]
mod presence;
#[path = "config/projects.rs"]
mod projects;
#[path = "config/runs.rs"]
mod runs;
#[path = "config/selection.rs"]
mod selection;
use keys::parts_of;

#[cfg(test)]
#[path = "config/tests.rs"]
mod tests;
