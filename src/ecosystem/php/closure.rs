//! PHPUnit: the configuration file its own search would find, and the runs of it through `php`.
//!
//! PHPUnit reads one configuration file: the one `--configuration FILE` / `-c FILE` names (a directory: the
//! file its search finds there), none with `--no-configuration`, else the first of `phpunit.xml`,
//! `phpunit.dist.xml`, `phpunit.xml.dist` in the directory it runs in (PHPUnit 10 and later; PHPUnit 9 reads
//! `phpunit.xml`, else `phpunit.xml.dist`), and it does not search upward. What is sealed is the configuration
//! it *resolves*, by content under whichever name it reads ([`SEARCH`], `Scope::FirstOf`): the same content
//! renamed to the name read next (`phpunit.xml` → `phpunit.xml.dist`) moves nothing, while another content, a
//! new file read before the sealed one (a `phpunit.xml` created beside a `phpunit.xml.dist`), or a file only one
//! version's search reads now (a `phpunit.dist.xml` PHPUnit 9 ignores) is named. Each file found is read setting
//! by setting by PHPUnit's own reader (`configuration.rs`, `closure::phpunit_config`): what only changes what
//! it prints or reports, the result cache, a stricter setting and a test suite widened by the agent's new tests
//! are free; the bootstrap, the suites' other entries and excludes, `<php>`, the extensions and listeners count,
//! each named by itself. The bootstrap it names is not
//! sealed whole: among the tests (`tests/bootstrap.php`) the inventory seals it unit by unit with them;
//! Composer's `vendor/autoload.php` changes when the agent adds a dependency; and one elsewhere is as often the
//! code under test itself (`bootstrap="src/functions.php"`) as set-up. A bootstrap or configuration named on
//! the command line is a named file (`closure::derive::named_files`).
//!
//! `composer test` (`composer run-script NAME`, `composer run NAME`, `composer NAME`) runs the script `NAME` of
//! `composer.json` with `vendor/bin` on `PATH`: its entry (`scripts.NAME`, a command or a list of them) is sealed,
//! and each command is followed like the verify command itself — `@php ARGS` as `php ARGS`, `@NAME` as another
//! script, a PHP callback (`Vendor\\Class::method`) as code, not a command. The rest of `composer.json`
//! (dependencies, autoload) stays the agent's.

use std::path::Path;

use super::Scope;

use super::{Deriver, Lang, Runner, Scripts, Simple, Why};

/// PHP's scripts (`derive::SCRIPTS`).
pub(super) const SCRIPTS: Scripts = Scripts {
    extensions: &["php"],
    runs_first_word: |_| false,
};

/// The configuration files PHPUnit searches a directory for, in order, by version: 9 reads `phpunit.xml`, then
/// `phpunit.xml.dist` (`TextUI/Command.php`, `configurationFileInDirectory`); 10 and later read
/// `phpunit.dist.xml` between them. Every name is one of the runner row's configuration files.
const SEARCH: &[&[&str]] = &[
    &["phpunit.xml", "phpunit.xml.dist"],
    &["phpunit.xml", "phpunit.dist.xml", "phpunit.xml.dist"],
];

/// PHPUnit options whose value is the next word.
const VALUE_OPTIONS: &[&str] = &[
    "--bootstrap",
    "--filter",
    "--group",
    "--exclude-group",
    "--testsuite",
    "--log-junit",
    "--log-teamcity",
    "--testdox-html",
    "--testdox-text",
    "--testdox-xml",
    "--coverage-clover",
    "--coverage-html",
    "--coverage-text",
    "--coverage-xml",
    "--include-path",
    "--printer",
    "--order-by",
    "--random-order-seed",
    "--cache-result-file",
    "--columns",
    "--colors",
    "--test-suffix",
    "--covers",
    "--uses",
    "-d",
];

impl Deriver<'_> {
    /// `phpunit ARGS…` (or `vendor/bin/phpunit`) run in `cwd`.
    pub(super) fn phpunit(&mut self, args: &[String], cwd: &Path) {
        self.plan.ecosystems.insert(Lang::Php);
        self.plan.runners.insert(Runner::Phpunit);
        let why = Why::Configures("phpunit".into());
        let mut config = None;
        let mut i = 0;
        while let Some(word) = args.get(i) {
            i += 1;
            if let Some(file) = word.strip_prefix("--configuration=") {
                config = Some(file.to_string());
            } else if word == "--configuration" || word == "-c" {
                config = args.get(i).cloned();
                i += 1;
            } else if word == "--no-configuration" {
                return;
            } else if VALUE_OPTIONS.contains(&word.as_str()) {
                i += 1;
            }
        }
        let dir = match config {
            Some(named) if !self.root.join(cwd).join(&named).is_dir() => {
                let file = cwd.join(named);
                self.xincluded(&file, &why);
                self.add(file, reading(), why);
                return;
            }
            Some(named) => cwd.join(named),
            None => cwd.to_path_buf(),
        };
        let orders: Vec<Vec<String>> = SEARCH
            .iter()
            .map(|order| order.iter().map(|name| name.to_string()).collect())
            .collect();
        // Sealed under the name PHPUnit reads at setup (the first of the newest order without one).
        let read = orders
            .last()
            .and_then(|newest| super::super::parts::first_of_now(&self.root.join(&dir), newest));
        let name = read.unwrap_or_else(|| SEARCH[SEARCH.len() - 1][0].to_string());
        let each = Box::new(reading());
        self.xincluded(&dir.join(&name), &why);
        self.add(dir.join(name), Scope::FirstOf { orders, each }, why);
    }

    /// Seals, whole, each file the configuration `file` pulls in with XInclude (`<xi:include href="…"/>`, under
    /// any prefix bound to XInclude's namespace): PHPUnit's loader runs XInclude before it reads a setting, so
    /// what such a file holds is the configuration's as much as its own text is, and the reading of the text
    /// (`closure::phpunit_config`) sees only the element. A new `<xi:include>` is a part of that reading.
    fn xincluded(&mut self, file: &Path, why: &Why) {
        let Some(root) = std::fs::read_to_string(self.root.join(file))
            .ok()
            .and_then(|text| crate::closure::xml_tree::parse(&text))
        else {
            return;
        };
        let dir = file.parent().unwrap_or(Path::new(""));
        let mut hrefs = Vec::new();
        xinclude_hrefs(&root, &mut hrefs);
        for href in hrefs {
            self.add(dir.join(href), Scope::Whole, why.clone());
        }
    }

    /// `php [OPTIONS] SCRIPT ARGS…`: PHPUnit where the script is its command (`php vendor/bin/phpunit`).
    pub(super) fn php(&mut self, rest: &[String], cwd: &Path) {
        let mut i = 0;
        while let Some(word) = rest.get(i) {
            if word == "-d" || word == "-c" {
                i += 2;
            } else if word.starts_with('-') {
                i += 1;
            } else {
                break;
            }
        }
        let Some(script) = rest.get(i) else {
            return;
        };
        let name = script.rsplit('/').next().unwrap_or(script);
        if name == "phpunit" || name == "phpunit.phar" {
            self.phpunit(&rest[i + 1..], cwd);
        }
    }

    /// `composer [OPTIONS] [run-script | run] NAME [ARGS]` run in `cwd` (see the module's header).
    pub(super) fn composer(&mut self, rest: &[String], cwd: &Path, depth: usize) {
        let mut dir = cwd.to_path_buf();
        let mut words = Vec::new();
        let mut i = 0;
        while let Some(word) = rest.get(i) {
            i += 1;
            if let Some(d) = word.strip_prefix("--working-dir=") {
                dir = cwd.join(d);
            } else if word == "-d" || word == "--working-dir" {
                dir = rest.get(i).map_or(dir, |d| cwd.join(d));
                i += 1;
            } else if word == "--" {
                break;
            } else if !word.starts_with('-') {
                words.push(word.as_str());
            }
        }
        let name = match words.as_slice() {
            ["run-script" | "run", name, ..] | [name, ..] => (*name).to_string(),
            [] => return,
        };
        self.composer_script(&dir, &name, depth);
    }

    /// Seals the script `name` of `dir/composer.json` and follows its commands.
    fn composer_script(&mut self, dir: &Path, name: &str, depth: usize) {
        let manifest = dir.join("composer.json");
        let followed = (manifest.to_string_lossy().into_owned(), name.to_string());
        if depth > super::MAX_DEPTH || !self.followed.insert(followed) {
            return;
        }
        let scope = Scope::Json(vec![vec!["scripts".to_string(), name.to_string()]]);
        self.add(manifest.clone(), scope, Why::Configures(format!("composer {name}")));
        let Some(commands) = std::fs::read(self.root.join(&manifest))
            .ok()
            .and_then(|bytes| serde_json::from_slice::<serde_json::Value>(&bytes).ok())
            .and_then(|json| composer_commands(json.get("scripts")?.get(name)?))
        else {
            return;
        };
        for command in commands {
            if let Some(other) = command.strip_prefix('@').filter(|c| !c.contains(char::is_whitespace)) {
                self.composer_script(dir, other, depth + 1);
            } else if let Some(args) = command.strip_prefix("@php ") {
                self.source(&format!("php {args}"), dir, depth + 1);
            } else if let Some(args) = command.strip_prefix("@composer ") {
                self.source(&format!("composer {args}"), dir, depth + 1);
            } else if !command.starts_with('@') && !is_callback(&command) {
                self.source(&command, dir, depth + 1);
            }
        }
    }
}

/// The `href` of every XInclude element below `element` (`include` under a prefix, or unprefixed), but for a
/// URL, which names no file of this machine.
fn xinclude_hrefs(element: &crate::closure::xml_tree::Element, out: &mut Vec<String>) {
    let local = element.name.rsplit(':').next().unwrap_or("");
    if local == "include"
        && let Some(href) = element.attribute("href")
        && !href.contains("://")
        && !href.is_empty()
    {
        out.push(href.to_string());
    }
    for child in &element.children {
        xinclude_hrefs(child, out);
    }
}

/// A PHPUnit configuration file read setting by setting (`closure::phpunit_config`): `<php>` entry by entry, its
/// environment variable by variable (`parts::DATA_VARIABLES`: the names the tests read follow it, set at setup),
/// its constants constant by constant (`parts::DATA_CONSTANTS`, likewise).
fn reading() -> Scope {
    crate::closure::parts::Read::by(
        &crate::closure::phpunit_config::READING,
        vec![
            crate::closure::phpunit_config::BY_ENTRY.to_string(),
            crate::closure::parts::DATA_VARIABLES.to_string(),
            crate::closure::parts::DATA_CONSTANTS.to_string(),
        ],
    )
}

/// Whether a script entry is a PHP callback (`Vendor\\Tool::run`), which Composer calls in its own process.
fn is_callback(command: &str) -> bool {
    command.contains("::") && !command.contains(' ')
}

/// A Composer script's commands: one string or a list of them.
fn composer_commands(value: &serde_json::Value) -> Option<Vec<String>> {
    match value {
        serde_json::Value::String(one) => Some(vec![one.clone()]),
        serde_json::Value::Array(list) => Some(list.iter().filter_map(|v| v.as_str().map(str::to_string)).collect()),
        _ => None,
    }
}

/// The closure's rule for PHPUnit, php and Composer (`closure::derive::PROGRAMS`): whether `cmd` runs one, whose configuration
/// it then reads.
pub(super) fn program(d: &mut Deriver, cmd: &Simple) -> bool {
    match cmd.name {
        "phpunit" | "phpunit.phar" => d.phpunit(cmd.rest, cmd.cwd),
        "php" => d.php(cmd.rest, cmd.cwd),
        "composer" => d.composer(cmd.rest, cmd.cwd, cmd.depth),
        _ => return false,
    }
    true
}
