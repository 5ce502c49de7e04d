//! `.loopgate.toml`: what a check verifies and how it is sealed, read from the **base** commit
//! (`git show BASE:.loopgate.toml`), never from the head. A pull request that edits the file changes nothing
//! about its own check: the file it could have rewritten is not the one that judges it (the summary notes the
//! edit, so a reviewer sees it).
//!
//! The schema, every key optional but `verify` (which `--verify` may stand in for):
//!
//! ```toml
//! verify = "pytest -q"            # the verify command: exit 0 = the work holds
//! verify_timeout = 900            # seconds, 1 to 3600 (default: setup's)
//! seal = ["ci/**"]                # more files no change may touch (globs)
//! require_tests = true            # a run that runs no test is not a pass
//! verify_report = "junit:out.xml" # the verify command's own report of its tests (KIND:PATH)
//! with_new_tests = false          # run the head's new test files with the base's (default: they sit out)
//!
//! [checks]                        # each defaults to true; false turns that check off
//! closure = true                  # what the verify command runs (its configuration, scripts) as at the base
//! tests = true                    # the base's test files as they were (edits, deletions, skips)
//! skips = true                    # new skip markers
//! counts = true                   # test counts never fall
//! test_awareness = true           # code under test that knows it is tested
//! test_verdict = true             # every base test by name
//!
//! [holdout]
//! required = false                # refuse to run (exit 2) without held-out tests
//! dir = "/run/holdout"            # where they are when `--holdout-from` is not given
//!
//! [report]
//! html = "loopgate-report.html"   # where the HTML report goes when `--html` is not given
//! ```
//!
//! Bad input is one line naming the file, the base, the line and the field (`Error::Usage`, exit 2). The
//! options become `setup`'s own flags ([`File::setup_args`]), so a check is validated and sealed exactly as a
//! loop is.

use std::path::PathBuf;

use serde::Deserialize;

use crate::cli::SetupArgs;
use crate::error::Error;

/// The configuration file's name, at the repository's top level.
pub(crate) const NAME: &str = ".loopgate.toml";

/// `.loopgate.toml` as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct File {
    pub(crate) verify: Option<String>,
    pub(crate) verify_timeout: Option<u64>,
    #[serde(default)]
    pub(crate) seal: Vec<String>,
    #[serde(default)]
    pub(crate) require_tests: bool,
    pub(crate) verify_report: Option<String>,
    #[serde(default)]
    pub(crate) with_new_tests: bool,
    #[serde(default)]
    pub(crate) checks: Checks,
    #[serde(default)]
    pub(crate) holdout: Holdout,
    #[serde(default)]
    pub(crate) report: Report,
}

/// `[checks]`: every sealing check, on unless set to false.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct Checks {
    pub(crate) closure: bool,
    pub(crate) tests: bool,
    pub(crate) skips: bool,
    pub(crate) counts: bool,
    pub(crate) test_awareness: bool,
    pub(crate) test_verdict: bool,
}

impl Default for Checks {
    fn default() -> Self {
        Checks {
            closure: true,
            tests: true,
            skips: true,
            counts: true,
            test_awareness: true,
            test_verdict: true,
        }
    }
}

/// `[holdout]`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Holdout {
    #[serde(default)]
    pub(crate) required: bool,
    pub(crate) dir: Option<PathBuf>,
}

/// `[report]`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Report {
    pub(crate) html: Option<PathBuf>,
}

/// Where the file was read from, for every message about it.
pub(crate) struct Origin<'a> {
    /// The base as the user named it (`origin/main`).
    pub(crate) base: &'a str,
}

impl Origin<'_> {
    fn bad(&self, problem: &str) -> Error {
        Error::Usage(format!("`{NAME}` on the base `{}`: {problem}", self.base))
    }
}

impl File {
    /// Parses the file's text; a bad value is one line with its line number and field.
    pub(crate) fn parse(text: &str, origin: &Origin) -> Result<File, Error> {
        let file: File = toml::from_str(text).map_err(|err| {
            let line = err
                .span()
                .map(|span| text[..span.start.min(text.len())].matches('\n').count() + 1);
            let message = err.message().trim().replace('\n', " ");
            let at = line.map_or_else(String::new, |line| format!("line {line}: "));
            origin.bad(&format!("{at}{message}"))
        })?;
        if file.verify.as_deref().is_some_and(|v| v.trim().is_empty()) {
            return Err(origin.bad("field `verify` is empty: give the command that checks the work"));
        }
        if let Some(secs) = file.verify_timeout
            && (secs == 0 || secs > crate::commands::setup::MAX_VERIFY_TIMEOUT)
        {
            return Err(origin.bad(&format!(
                "field `verify_timeout` is {secs}: use 1 to {} seconds",
                crate::commands::setup::MAX_VERIFY_TIMEOUT
            )));
        }
        if let Some(report) = &file.verify_report {
            crate::schema::VerifyReport::parse(report, None)
                .map_err(|e| origin.bad(&format!("field `verify_report`: {e}")))?;
        }
        crate::seal::SealedFiles::new(&file.seal).map_err(|e| origin.bad(&format!("field `seal`: {e}")))?;
        Ok(file)
    }

    /// The flags `setup` would take for this configuration, with `--verify` and `--holdout-from` given on the
    /// command line winning; refuses a missing verify command and missing required held-out tests.
    pub(crate) fn setup_args(
        &self,
        origin: &Origin,
        verify: Option<String>,
        holdout_from: Option<PathBuf>,
    ) -> Result<SetupArgs, Error> {
        let Some(verify) = verify.or_else(|| self.verify.clone()) else {
            return Err(origin.bad(&format!(
                "no `verify` command: commit one there (`verify = \"{}\"`, see docs/ci.md), or pass `--verify CMD` for a local check",
                crate::messages::EXAMPLE_VERIFY
            )));
        };
        let holdout = holdout_from.or_else(|| self.holdout.dir.clone());
        if self.holdout.required && holdout.is_none() {
            return Err(origin.bad(
                "field `holdout.required` is true but no held-out tests were given: pass `--holdout-from DIR` (or set `holdout.dir`)",
            ));
        }
        let checks = &self.checks;
        Ok(SetupArgs {
            verify: Some(verify),
            verify_timeout: self.verify_timeout,
            seal: self.seal.clone(),
            holdout: holdout
                .map(|dir| dir.to_string_lossy().into_owned())
                .into_iter()
                .collect(),
            require_tests: self.require_tests,
            report: self.verify_report.clone(),
            with_new_tests: self.with_new_tests,
            no_closure_seal: !checks.closure,
            no_test_seal: !checks.tests,
            no_skip_check: !checks.skips,
            no_count_ratchet: !checks.counts,
            no_test_awareness_check: !checks.test_awareness,
            no_test_verdict: !checks.test_verdict,
            // A check is one judgement: no checkpoints, no notifications, nothing that outlives it.
            no_checkpoints: true,
            no_notify: true,
            task: vec!["judge the head against the base (loopgate check)".into()],
            ..SetupArgs::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<File, String> {
        File::parse(text, &Origin { base: "main" }).map_err(|e| e.to_string())
    }

    #[test]
    fn every_key_parses_and_checks_default_on() {
        let file = parse(
            "verify = \"pytest -q\"\nverify_timeout = 60\nseal = [\"ci/**\"]\nrequire_tests = true\n\
             verify_report = \"junit:out.xml\"\nwith_new_tests = true\n[checks]\nskips = false\n\
             [holdout]\nrequired = true\ndir = \"/h\"\n[report]\nhtml = \"r.html\"\n",
        )
        .expect("accepted");
        let args = file.setup_args(&Origin { base: "main" }, None, None).expect("accepted");
        assert_eq!(args.verify.as_deref(), Some("pytest -q"));
        assert_eq!(args.holdout, ["/h"]);
        assert!(args.no_skip_check && !args.no_test_seal && !args.no_closure_seal);
        assert!(args.require_tests && args.with_new_tests && args.no_checkpoints);
    }

    #[test]
    fn bad_input_is_one_line_naming_the_file_the_line_and_the_field() {
        for (text, field, line) in [
            ("verify = \"x\"\nverfy = 1\n", "verfy", "line 2"),
            ("verify = \"x\"\nverify_timeout = \"soon\"\n", "", "line 2"),
            ("verify = \"x\"\n[checks]\ntests = 3\n", "", "line 3"),
            ("verify = \"x\"\nverify_timeout = 0\n", "verify_timeout", ""),
            ("verify = \"  \"\n", "verify", ""),
            ("verify = \n", "", "line 1"),
            ("verify = \"x\"\nverify_report = \"xml:out.xml\"\n", "verify_report", ""),
            ("verify = \"x\"\nseal = [\"a/[\"]\n", "seal", ""),
        ] {
            let err = parse(text).expect_err("refused");
            assert!(!err.contains('\n'), "one line: {err}");
            assert!(err.contains(".loopgate.toml` on the base `main`"), "{err}");
            assert!(err.contains(field) && err.contains(line), "{text:?}: {err}");
        }
    }

    #[test]
    fn verify_flag_wins_and_a_missing_command_or_required_holdout_is_refused() {
        let origin = Origin { base: "main" };
        let file = parse("verify = \"a\"\n").expect("accepted");
        let args = file.setup_args(&origin, Some("b".into()), None).expect("accepted");
        assert_eq!(args.verify.as_deref(), Some("b"));
        let none = File::default()
            .setup_args(&origin, None, None)
            .expect_err("refused")
            .to_string();
        assert!(none.contains("no `verify` command"), "{none}");
        let required = parse("verify = \"a\"\n[holdout]\nrequired = true\n").expect("accepted");
        let err = required
            .setup_args(&origin, None, None)
            .expect_err("refused")
            .to_string();
        assert!(err.contains("holdout.required"), "{err}");
        assert!(required.setup_args(&origin, None, Some("/h".into())).is_ok());
    }
}
