//! Which keys of a resolved configuration count (`closure::js_config`): one part per key, each compared with the
//! baseline's by the mechanism that judges `package.json`'s `jest` key (`closure::parts`, `Scope::JsonBut` with
//! its free keys and `IF_EQUAL` defaults), the free keys and defaults taken from the runners' rows and from the
//! tables here, and the reporters the runners ship cut from the lists that name them.

use serde_json::{Map, Value};

use super::READ;
use crate::closure::parts::{self, IF_EQUAL, Parts, Scope, WHOLE};

/// Keys of a resolved configuration that change neither what runs nor what counts, beside the row's
/// `package_free`: how long a test may take, what is printed, where caches and coverage go, how many workers run,
/// the run's random seed and its cache key (`id`, from the configuration's path).
const RESOLVED_FREE: &[&str] = &[
    "seed",
    "id",
    "cache",
    "cacheDirectory",
    "maxWorkers",
    "maxConcurrency",
    "workerIdleMemoryLimit",
    "logHeapUsage",
    "noStackTrace",
    "expand",
    "useStderr",
    "slowTestThreshold",
    "openHandlesTimeout",
    "collectCoverage",
    "coverageProvider",
    "coverageThreshold",
    "watch",
    "watchAll",
    "watchman",
    // Vitest (`test.…`) and Vite.
    "test.testTimeout",
    "test.hookTimeout",
    "test.teardownTimeout",
    "test.silent",
    "test.outputFile",
    "test.slowTestThreshold",
    "test.logHeapUsage",
    "test.printConsoleTrace",
    "test.maxWorkers",
    "test.minWorkers",
    "test.maxConcurrency",
    "test.fileParallelism",
    "test.watch",
    "test.ui",
    "test.open",
    "test.api",
    // What Vitest's resolution fills in of how it was started and what it shows: the project's name (a label),
    // colour and filter, watch mode's triggers, the UI's base, the attachments' and cache's places, the mode.
    "test.name",
    "test.color",
    "test.project",
    "test.forceRerunTriggers",
    "test.uiBase",
    "test.attachmentsDir",
    "test.cache",
    "test.mode",
    "test.config",
    "test.run",
    "test.clearScreen",
    "test.hideSkippedTests",
    "clearScreen",
    "logLevel",
];

/// Options under a key that are free while the key itself counts: Vitest's coverage settings but its provider
/// and reporters; the seed of a shuffled order, which Vitest's resolution draws afresh at each reading (as Jest's
/// `seed` is free).
const NESTED_FREE: &[(&str, &[&str])] = &[
    ("test.sequence", &["seed"]),
    (
        "test.coverage",
        &[
            "enabled",
            "include",
            "exclude",
            "reportsDirectory",
            "thresholds",
            "clean",
            "cleanOnRerun",
            "all",
            "reportOnFailure",
            "skipFull",
            "watermarks",
            "extension",
        ],
    ),
];

/// Options free while their value is one the runner ships: Vitest's built-in pools run the same tests in workers
/// of another kind (how many at once is `maxWorkers`' and `fileParallelism`'s, free too); a pool that is a path
/// or a package is code that runs the tests and reports them, and counts.
const BUILT_IN_CHOICES: &[(&str, &[&str])] = &[("test.pool", crate::runner::js::VITEST_POOLS)];

/// Reporter lists nested under a key (the key, the option, the key of [`BUILT_IN_REPORTERS`] naming what ships):
/// Vitest's coverage reporters are istanbul's, the list Jest's `coverageReporters` names.
const NESTED_REPORTERS: &[(&str, &str, &str)] = &[("test.coverage", "reporter", "coverageReporters")];

/// Options with the value the runner uses when they are not set (a JSON text), beside the row's
/// `package_defaults`: set to it, the option is as if absent. Jest's reading fills every default in already.
const RESOLVED_DEFAULTS: &[(&str, &str)] = &[
    ("test.environment", "\"node\""),
    ("test.globals", "false"),
    ("test.passWithNoTests", "false"),
    ("test.bail", "0"),
    ("test.isolate", "true"),
    ("test.coverage", "{\"provider\": \"v8\"}"),
];

/// The reporters each runner ships, by the key that lists them: entries naming one only print.
const BUILT_IN_REPORTERS: &[(&str, &[&str])] = &[
    ("reporters", crate::runner::js::JEST_REPORTERS),
    ("test.reporters", crate::runner::js::VITEST_REPORTERS),
    ("coverageReporters", crate::runner::js::COVERAGE_REPORTERS),
];

/// A resolved configuration's parts, one per key that counts, and whether code stands in one of them. Read
/// `by_project` (a seal since `projects` was read entry by entry), each `project NAME` is cut into its own keys
/// (`config::projects`); else it is one part, as a seal from before holds it.
pub(super) fn parts_of(config: &Map<String, Value>, by_project: bool) -> (Parts, bool) {
    let mut parts = Parts::new();
    let mut code = false;
    for (key, value) in config {
        if free(key) {
            continue;
        }
        if by_project
            && key.starts_with(super::projects::PROJECT)
            && let Value::Object(project) = value
        {
            let mut own = project.clone();
            own.retain(|k, _| !super::projects::PROJECT_FREE.contains(&k.as_str()));
            let (inner, holds) = parts_of(&own, false);
            code |= holds;
            parts.extend(
                inner
                    .into_iter()
                    .map(|(label, digest)| (super::projects::label(key, &label), digest)),
            );
            continue;
        }
        // A key saying which files are tests is one part per entry, judged by the files (`selection`).
        if let Some(entries) = super::selection::entries(key, value) {
            parts.extend(entries);
            continue;
        }
        let Some(value) = without_built_in_reporters(key, value.clone()) else {
            continue;
        };
        let free_under: Vec<Vec<String>> = free_options(key);
        let one = Value::Object(Map::from_iter([(key.clone(), value)]));
        let scope = Scope::JsonBut {
            paths: vec![Vec::new()],
            free: free_under,
        };
        let bytes = serde_json::to_vec(&one).unwrap_or_default();
        if let Some(digest) = parts::digests(&scope, Some(&bytes)).remove(WHOLE) {
            code |= holds_code(&one[key.as_str()]);
            parts.insert(key.clone(), digest);
        }
    }
    (parts, code)
}

/// Whether a key is free whole: in a runner's `package_free`, or [`RESOLVED_FREE`] (a key Jest's global
/// configuration repeats with another value, `testTimeout (global)`, by its own name). A list of reporters never
/// is (`coverageReporters`, free in `package.json`'s key): its entries that are not built in are code.
fn free(key: &str) -> bool {
    let name = key.strip_suffix(" (global)").unwrap_or(key);
    if BUILT_IN_REPORTERS.iter().any(|(k, _)| *k == name) {
        return false;
    }
    RESOLVED_FREE.contains(&name)
        || READ
            .iter()
            .any(|(runner, _)| runner.row().config.package_free.contains(&name))
}

/// The key paths under `key` (as the one key of a document) that are free: its free options, and its options
/// set to the runner's default (`IF_EQUAL`), both from the runners' rows and from this module's tables.
fn free_options(key: &str) -> Vec<Vec<String>> {
    let nested = NESTED_FREE
        .iter()
        .filter(|(k, _)| *k == key)
        .flat_map(|(_, options)| options.iter().map(|o| vec![key.to_string(), o.to_string()]));
    let row_defaults = READ
        .iter()
        .flat_map(|(runner, _)| runner.row().config.package_defaults.iter());
    let choices = BUILT_IN_CHOICES
        .iter()
        .flat_map(|(option, values)| values.iter().map(move |value| (*option, format!("\"{value}\""))));
    let defaults = row_defaults
        .chain(RESOLVED_DEFAULTS.iter())
        .map(|(option, value)| (*option, value.to_string()))
        .chain(choices)
        .filter(|(option, _)| *option == key)
        .map(|(option, value)| vec![option.to_string(), format!("{IF_EQUAL}{value}")]);
    nested.chain(defaults).collect()
}

/// The keys free whole in a runner's key of `package.json` (`jest`) beside its row's `package_free`: those of
/// [`RESOLVED_FREE`] that are the runner's own options (no `test.` of Vitest's, no Vite's), so a key is free or
/// not the same way in `package.json` and in a configuration file the runner resolves.
pub(super) fn package_free() -> impl Iterator<Item = &'static str> {
    RESOLVED_FREE
        .iter()
        .copied()
        .filter(|key| !key.contains('.') && !["clearScreen", "logLevel"].contains(key))
}

/// `value` without the entries of a reporters' list that name a reporter the runner ships (`"default"`,
/// `["default", {}]`); `None` when none is left (as if unset). Other keys are returned as they are.
fn without_built_in_reporters(key: &str, value: Value) -> Option<Value> {
    let name = key.strip_suffix(" (global)").unwrap_or(key);
    if let Some((_, option, list)) = NESTED_REPORTERS.iter().find(|(k, _, _)| *k == name)
        && let Value::Object(mut options) = value
    {
        if let Some(reporters) = options.remove(*option)
            && let Some(left) = without_built_in_reporters(list, reporters)
        {
            options.insert((*option).to_string(), left);
        }
        return (!options.is_empty()).then_some(Value::Object(options));
    }
    let Some((_, built_in)) = BUILT_IN_REPORTERS.iter().find(|(k, _)| *k == name) else {
        return Some(value);
    };
    let named = |entry: &Value| match entry {
        Value::String(name) => Some(name.clone()),
        Value::Array(pair) => pair.first().and_then(Value::as_str).map(str::to_string),
        _ => None,
    };
    let entries = match value {
        Value::Array(entries) => entries,
        single => vec![single],
    };
    let left: Vec<Value> = entries
        .into_iter()
        .filter(|entry| !named(entry).is_some_and(|name| built_in.contains(&name.as_str())))
        .collect();
    (!left.is_empty()).then_some(Value::Array(left))
}

/// Whether a plain value holds code (`{"(code)": …}`, as the reader marks a function or a class instance).
fn holds_code(value: &Value) -> bool {
    match value {
        Value::Object(map) => map.contains_key("(code)") || map.values().any(holds_code),
        Value::Array(items) => items.iter().any(holds_code),
        _ => false,
    }
}
