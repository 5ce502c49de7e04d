//! PHPUnit: the configuration file its own search would find, and the runs of it through `php`.
//!
//! PHPUnit reads one configuration file: the one `--configuration FILE` / `-c FILE` names (a directory: the
//! file its search finds there), none with `--no-configuration`, else the first of `phpunit.xml`,
//! `phpunit.dist.xml`, `phpunit.xml.dist` in the directory it runs in (it does not search upward). Every
//! candidate is sealed — an existing one whole, the others as absent, since a `phpunit.xml` created beside a
//! `phpunit.xml.dist` replaces it. Whole, because what it holds is the test side nearly key by key: the test
//! suites and their directories and suffixes, the bootstrap, the groups run and excluded, `failOnRisky`,
//! `failOnWarning`, `stopOn…`, the extensions and listeners, the `<php>` settings the tests run under. (Its
//! coverage and logging sections are the exceptions; an agent rarely needs them.) A bootstrap or configuration
//! named on the command line is a named file (`closure::derive::named_files`).

use std::path::Path;

use super::{Deriver, Lang, Runner, Why};

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
                self.whole(cwd.join(named), why);
                return;
            }
            Some(named) => cwd.join(named),
            None => cwd.to_path_buf(),
        };
        for name in Runner::Phpunit.row().config.files {
            self.whole(dir.join(name), why.clone());
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
}
