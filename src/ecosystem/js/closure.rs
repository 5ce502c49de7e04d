//! JavaScript test runners: their configuration files, the `package.json` keys they read, and the Babel
//! configuration that rewrites the tests before Jest, Mocha (with `@babel/register`) or AVA run them; and the
//! `.env` wrappers that set the environment of what they wrap.

use std::path::Path;

use super::{Deriver, Lang, Runner, Scope, Scripts, Simple, Why, normalize, recipes, short, skip_wrapper};
use crate::runner::js::NODE_OPTIONS_FREE;

/// JavaScript's and TypeScript's scripts (`derive::SCRIPTS`): `node tool.js` runs `tool.js`.
pub(super) const SCRIPTS: Scripts = Scripts {
    extensions: &["js", "mjs", "cjs", "ts", "mts", "cts"],
    runs_first_word: |name| name == "node",
};

/// Babel's project-wide and file-relative configuration files (besides `package.json`'s `babel` key).
const BABEL: &[&str] = &[
    "babel.config.js",
    "babel.config.json",
    "babel.config.cjs",
    "babel.config.mjs",
    "babel.config.cts",
    ".babelrc",
    ".babelrc.js",
    ".babelrc.json",
    ".babelrc.cjs",
    ".babelrc.mjs",
];

/// The keys of an `.npmrc` that change neither what a script runs nor what counts: what npm prints (`fund`,
/// `audit`, `progress`, `loglevel`, `color`, `update-notifier`), where and how it installs and what it writes on
/// install (the registry, the cache, lockfile and save settings, `engine-strict`, peer dependencies), and the
/// defaults of `npm init` and `npm version`, and by pattern a scope's registry (`@acme:registry`) and a
/// registry's own settings (`//npm.acme.example/:_authToken`: credentials, certificates). Not among them:
/// `script-shell`, `node-options` (judged option by option, [`NODE_OPTIONS_FREE`]), `ignore-scripts`,
/// `userconfig` / `globalconfig` (another file read), `prefix`, `workspace(s)`, `if-present`, anything else —
/// nor a key spelled otherwise than npm reads it (quoted, after a byte-order mark, with a `${…}` in it), which
/// is sealed as it stands.
const NPMRC_FREE: [&str; 28] = [
    "fund",
    "audit",
    "audit-level",
    "progress",
    "loglevel",
    "color",
    "unicode",
    "update-notifier",
    "registry",
    "cache",
    "prefer-offline",
    "prefer-online",
    "fetch-retries",
    "fetch-timeout",
    "strict-ssl",
    "package-lock",
    "lockfile-version",
    "save-exact",
    "save-prefix",
    "engine-strict",
    "legacy-peer-deps",
    "strict-peer-dependencies",
    "auto-install-peers",
    "init-license",
    "init-author-name",
    "sign-git-tag",
    "@*:registry",
    "//*",
];

/// The `.npmrc` keys free with one value only: `script-shell` naming a system's POSIX shell. npm runs every
/// script as `SHELL -c SCRIPT`, and these run it as the default `sh` does; they are the system's, outside what the
/// agent's tree and home hold (a shell of the agent's, `/bin/true`, or a wrapper anywhere else still counts).
const NPMRC_FREE_VALUES: [&str; 6] = [
    "script-shell=/bin/bash",
    "script-shell=/usr/bin/bash",
    "script-shell=/bin/sh",
    "script-shell=/usr/bin/sh",
    "script-shell=/bin/dash",
    "script-shell=/usr/bin/dash",
];

impl Deriver<'_> {
    /// `npm`, `pnpm`, `yarn` or `bun` ARGS…: the package managers' configuration files, and the `package.json`
    /// script it runs with its `pre`/`post` scripts, followed.
    fn package_manager(&mut self, pm: &str, rest: &[String], cwd: &Path, depth: usize) {
        self.plan.ecosystems.insert(Lang::JavaScript);
        let mut dir = cwd.to_path_buf();
        let mut words = Vec::new();
        let mut i = 0;
        while i < rest.len() {
            let w = &rest[i];
            if matches!(w.as_str(), "--prefix" | "-C" | "--dir" | "--cwd") {
                if let Some(d) = rest.get(i + 1) {
                    dir = normalize(&cwd.join(d));
                }
                i += 2;
                continue;
            }
            if !w.starts_with('-') {
                words.push(w.clone());
            }
            i += 1;
        }
        let package = dir.join("package.json");
        let bytes = std::fs::read(self.root.join(&package)).ok();
        let has_script = |name: &str| bytes.as_deref().and_then(|b| recipes::npm_script(b, name)).is_some();
        let first = words.first().map(String::as_str);
        let script = match (pm, first) {
            ("bun", Some("test")) => {
                self.whole(dir.join("bunfig.toml"), Why::Configures("bun test".into()));
                return;
            }
            (_, Some("test" | "t" | "tst")) => Some("test".to_string()),
            (_, Some("run" | "run-script" | "rum" | "urn")) => words.get(1).cloned(),
            (_, Some("start")) => Some("start".to_string()),
            (_, Some("exec" | "x" | "dlx")) => {
                self.argv(&words[1..], &dir, depth + 1);
                return;
            }
            ("npm", _) | (_, None) => None,
            (_, Some(other)) if has_script(other) => Some(other.to_string()),
            (_, Some(_)) => {
                self.argv(&words, &dir, depth + 1);
                return;
            }
        };
        let why = Why::Configures(short(&format!("{pm} {}", rest.join(" "))));
        let npmrc = || Scope::KeysBut {
            free: NPMRC_FREE
                .iter()
                .chain(&NPMRC_FREE_VALUES)
                .map(|k| (*k).to_string())
                .collect(),
            options: vec![crate::closure::parts::OptionsKey {
                key: vec!["node-options".to_string()],
                free: NODE_OPTIONS_FREE.map(str::to_string).to_vec(),
            }],
        };
        self.add(dir.join(".npmrc"), npmrc(), why.clone());
        for rc in [".yarnrc", ".yarnrc.yml", "bunfig.toml"] {
            self.whole(dir.join(rc), why.clone());
        }
        if let Some(home) = self.home {
            self.add(home.join(".npmrc"), npmrc(), why.clone());
        }
        let Some(script) = script else { return };
        let keys = [format!("pre{script}"), script.clone(), format!("post{script}")];
        self.add(package.clone(), self.scripts_scope(&keys), why);
        for key in &keys {
            let followed = (package.to_string_lossy().into_owned(), key.clone());
            if let Some(body) = bytes.as_deref().and_then(|b| recipes::npm_script(b, key))
                && self.followed.insert(followed)
            {
                self.source(&body, &dir, depth + 1);
            }
        }
    }

    /// `package.json`'s scripts `keys`, each compared as the program it starts, as a make recipe's line is
    /// (`parts::SCRIPT_LINE`): beside the value the run inherits of each runner's options variable the start
    /// channel completes, which a leading setting in the script replaces.
    fn scripts_scope(&self, keys: &[String]) -> Scope {
        let inherited: Vec<(String, String)> = crate::room::hook::completed_vars()
            .filter_map(|name| Some((name.to_string(), (self.var)(name)?.to_string_lossy().into_owned())))
            .collect();
        let paths: Vec<Vec<String>> = keys.iter().map(|k| vec!["scripts".to_string(), k.clone()]).collect();
        let free = paths
            .iter()
            .map(|key| crate::closure::parts::script_line(key, inherited.iter().cloned()))
            .collect();
        Scope::JsonBut { paths, free }
    }

    /// `node ARGS…`: `--test` is node's test runner; `--run SCRIPT` runs a `package.json` script; a file given
    /// to `--env-file` sets the environment.
    pub(super) fn node(&mut self, rest: &[String], cwd: &Path, depth: usize) {
        self.plan.ecosystems.insert(Lang::JavaScript);
        if rest.iter().any(|w| w == "--test") {
            self.plan.runners.insert(Runner::NodeTest);
        }
        for (i, word) in rest.iter().enumerate() {
            let env_file = match word.split_once('=') {
                Some(("--env-file" | "--env-file-if-exists", file)) => Some(file),
                _ if word == "--env-file" => rest.get(i + 1).map(String::as_str),
                _ => None,
            };
            if let Some(file) = env_file {
                self.whole(cwd.join(file), Why::Configures("node".into()));
            }
        }
        if let Some(i) = rest.iter().position(|w| w == "--run") {
            let script = rest.get(i + 1).cloned().unwrap_or_default();
            self.package_manager("npm", &["run".to_string(), script], cwd, depth);
        }
    }

    pub(super) fn jest(&mut self, cwd: &Path) {
        self.runner_config(Runner::Jest, cwd, &[]);
        self.babel(cwd, "jest");
    }

    pub(super) fn vitest(&mut self, cwd: &Path) {
        self.runner_config(Runner::Vitest, cwd, &[]);
    }

    pub(super) fn mocha(&mut self, cwd: &Path) {
        // `spec`: mocha loads every file it names before any test runs, so an entry counts unless it only adds
        // the agent's new tests, which sit out the oracle's run (`closure::selection`).
        self.runner_config(Runner::Mocha, cwd, &["spec"]);
        self.babel(cwd, "mocha");
    }

    /// A JavaScript test runner: the configuration files of its row (`runner`) and its `package.json` key, its
    /// `selections` (keys listing where its tests are) sealed entry by entry (`parts::SELECTS`).
    fn runner_config(&mut self, runner: Runner, cwd: &Path, selections: &[&str]) {
        self.plan.runners.insert(runner);
        let row = runner.row();
        let names = row.config.file_names();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let free = row
            .config
            .package_free
            .iter()
            .copied()
            .chain(crate::closure::js_config::package_free(runner))
            .map(|option| vec![option.to_string()]);
        let defaults = row.config.package_defaults.iter().map(|(option, value)| {
            vec![
                option.to_string(),
                format!("{}{value}", crate::closure::parts::IF_EQUAL),
            ]
        });
        let selected = selections
            .iter()
            .map(|key| vec![(*key).to_string(), crate::closure::parts::SELECTS.to_string()]);
        let key = row
            .config
            .package_key
            .map(|key| (key, free.chain(defaults).chain(selected).collect()));
        self.js_files(cwd, row.name, &names, key);
    }

    /// Babel's configuration, which `babel-jest` (Jest's default transform) and `@babel/register` apply to
    /// every test file.
    pub(super) fn babel(&mut self, cwd: &Path, tool: &str) {
        let why = Why::Configures(format!("{tool} (through Babel)"));
        for name in BABEL {
            self.whole(cwd.join(name), why.clone());
        }
        self.add(
            cwd.join("package.json"),
            crate::closure::Scope::Json(vec![vec!["babel".to_string()]]),
            why,
        );
    }

    /// A JavaScript tool outside the runner table (AVA, Playwright): its config files under every
    /// JavaScript extension, and its `package.json` key.
    pub(super) fn js(&mut self, cwd: &Path, tool: &str, stems: &[&str], key: Option<&str>) {
        let names: Vec<String> = stems
            .iter()
            .flat_map(|stem| crate::runner::JS_EXTS.iter().map(move |ext| format!("{stem}.{ext}")))
            .collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        self.js_files(cwd, tool, &names, key.map(|key| (key, Vec::new())));
    }

    /// The tool's configuration files at `cwd`, and its `package.json` key but for that key's free options (key
    /// paths under it; one ending in `parts::IF_EQUAL` is free while it has the runner's default value). A
    /// configuration file in JSON holds what the key would (`.mocharc.json` and `package.json`'s `mocha` are one
    /// reading to mocha), and so does one in YAML (`.mocharc.yml`), so it is sealed key by key with the same
    /// options free: one with only those is as if absent. So is one in JavaScript (`.mocharc.js`) for a tool whose
    /// configuration is not read as it resolves (`closure::js_config`): it reads as data only while it exports
    /// nothing but a literal (`closure::js_literal`), and else as its bytes, so any change of its code counts.
    ///
    /// `names` are in the order the tool picks one (mocha reads the first it finds and no other): a file named
    /// before the one that stands at setup would hide it, so it is sealed whole, its creation counting whatever
    /// it holds (a `.mocharc.yml` of a timeout alone would drop the `.mocharc.json` that turns `check-leaks` on).
    pub(super) fn js_files(&mut self, cwd: &Path, tool: &str, names: &[&str], key: Option<(&str, Vec<Vec<String>>)>) {
        self.plan.ecosystems.insert(Lang::JavaScript);
        let why = Why::Configures(tool.to_string());
        let standing = names.iter().position(|name| cwd.join(name).is_file());
        let data = |at: usize, name: &str| {
            let ext = name.rsplit_once('.').map_or("", |(_, ext)| ext);
            let format = ["json", "yml", "yaml"].contains(&ext)
                || (crate::closure::js_literal::MODULE_EXTS.contains(&ext)
                    && !crate::closure::js_config::resolves(tool));
            format && standing.is_none_or(|standing| at >= standing)
        };
        for (at, name) in names.iter().enumerate() {
            match &key {
                Some((_, free)) if !free.is_empty() && data(at, name) => self.add(
                    cwd.join(name),
                    crate::closure::Scope::JsonBut {
                        free: free.clone(),
                        paths: vec![Vec::new()],
                    },
                    why.clone(),
                ),
                _ => self.whole(cwd.join(name), why.clone()),
            }
        }
        if let Some((key, free)) = key {
            let path = vec![key.to_string()];
            let scope = if free.is_empty() {
                crate::closure::Scope::Json(vec![path])
            } else {
                crate::closure::Scope::JsonBut {
                    free: free
                        .into_iter()
                        .map(|option| std::iter::once(key.to_string()).chain(option).collect())
                        .collect(),
                    paths: vec![path],
                }
            };
            self.add(cwd.join("package.json"), scope, why);
        }
    }

    /// `dotenv [-e FILE]… [--] CMD` (dotenv-cli) and `dotenvx run [-f FILE] -- CMD`: the environment files are
    /// sealed (`.env` when none is named), then the command is followed.
    pub(super) fn dotenv(&mut self, rest: &[String], cwd: &Path, depth: usize) {
        let why = Why::Configures("dotenv".into());
        let rest = match rest.first() {
            Some(run) if run == "run" => &rest[1..],
            _ => rest,
        };
        let mut named = false;
        for (i, word) in rest.iter().enumerate() {
            if matches!(word.as_str(), "-e" | "-f" | "--env-file")
                && let Some(file) = rest.get(i + 1)
            {
                self.whole(cwd.join(file), why.clone());
                named = true;
            }
            if word == "--" {
                break;
            }
        }
        if !named {
            self.whole(cwd.join(".env"), why);
        }
        let command = match rest.iter().position(|w| w == "--") {
            Some(i) => &rest[i + 1..],
            None => skip_wrapper("dotenv", rest),
        };
        self.argv(command, cwd, depth + 1);
    }
}

/// The closure's rule for JavaScript's package managers and runners (`closure::derive::PROGRAMS`): whether `cmd` runs one, whose configuration
/// it then reads.
pub(super) fn program(d: &mut Deriver, cmd: &Simple) -> bool {
    match cmd.name {
        "npm" | "pnpm" | "yarn" | "bun" => d.package_manager(cmd.name, cmd.rest, cmd.cwd, cmd.depth),
        "node" => d.node(cmd.rest, cmd.cwd, cmd.depth),
        "jest" => d.jest(cmd.cwd),
        "vitest" => d.vitest(cmd.cwd),
        "mocha" => d.mocha(cmd.cwd),
        "ava" => {
            d.js(cmd.cwd, "ava", &["ava.config"], Some("ava"));
            d.babel(cmd.cwd, "ava");
        }
        "playwright" => d.js(cmd.cwd, "playwright", &["playwright.config"], None),
        "tap" => d.js_files(cmd.cwd, "tap", &[".taprc"], Some(("tap", Vec::new()))),
        _ => return false,
    }
    true
}

/// npm's steps (`closure::steps`): a `pre<script>` key of `package.json` added or changed, which npm runs as
/// `sh -c TEXT` (its `script-shell` may name another shell) in a process of its own and waits for before it
/// starts the script itself; its status only stops the run. `post<script>` runs after the runner and is left
/// sealed (nothing judges what it does to the runner's report). Only npm's scripts: yarn and pnpm run their own
/// lifecycle differently.
pub(crate) fn steps(
    scope: &crate::closure::parts::Scope,
    moved: &crate::closure::MovedPart,
    bytes: &[u8],
    _sealed: Option<&str>,
) -> Option<Vec<crate::closure::steps::Step>> {
    use crate::closure::parts::Scope;
    let (Scope::Json(paths) | Scope::JsonBut { paths, .. }) = scope else {
        return None;
    };
    if !moved.path.ends_with("package.json") || moved.change == crate::closure::PartChange::Removed {
        return None;
    }
    let key = moved.part.strip_prefix("scripts.")?;
    // `pre<script>` of a script the verify runs, not a script whose own name starts with `pre` (`prepare`, run by
    // `npm run prepare`, is the verify's script itself).
    let script = key
        .strip_prefix("pre")
        .filter(|s| !s.is_empty() && !key.contains('.'))?;
    if !paths
        .iter()
        .any(|p| p.len() == 2 && p[0] == "scripts" && p[1] == script)
    {
        return None;
    }
    let doc: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    let text = doc.get("scripts")?.get(key)?.as_str()?;
    Some(vec![crate::closure::steps::Step::ShellText(text.to_string())])
}
