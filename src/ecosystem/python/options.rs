//! pytest's command-line options that change only what it prints: free in `addopts`, wherever pytest reads it
//! from (`pytest.ini`, `.pytest.ini`, `[tool.pytest.ini_options]` or pytest 9's `[tool.pytest]` in
//! `pyproject.toml`, `[tool:pytest]` in `setup.cfg`, `[pytest]` in `tox.ini`; see `closure.rs`), read option by
//! option as pytest reads them (`closure::options`).
//!
//! Each option is decided by what it does to the test side, not by how harmless it looks:
//! - **free**: how much is printed (`-v`, `-q`, `--verbosity`), which outcomes the short summary lists (`-r`),
//!   tracebacks and locals (`--tb`, `-l`, `--full-trace`), the header, warnings summary and durations, colour,
//!   what captured output a failure shows, the fixtures' setup shown (`--setup-show`); and `-p no:cacheprovider`,
//!   which only stops pytest writing `.pytest_cache`: the options that read that cache (`--lf`, `--ff`, `--nf`,
//!   `--sw`) stay sealed, and a test asking for the `cache` fixture without it errors, which can only fail a run.
//!   And a JUnit report of the project's own (`--junitxml`, a CI's): pytest reads `PYTEST_ADDOPTS` after the
//!   configuration's `addopts` and the last `--junitxml` wins, so the room's report, asked for in that variable
//!   (`room::report`), is the one written in the oracle's run, wherever the project's would go (measured with
//!   pytest 9.2; pytest 8 orders them the same).
//! - **sealed**, because they change which tests run or how an outcome counts: selection (`-k`, `-m`,
//!   `--deselect`, `--ignore*`, positional paths, `--lf`, `--ff`, `--nf`, `--sw`), stopping early (`-x`,
//!   `--maxfail`), every other plugin loaded or turned off (`-p`: `no:warnings` drops `filterwarnings` marks,
//!   `no:randomly` changes the order), warnings filters (`-W error` turns a warning into a failure, `-W ignore`
//!   hides one a test expects to fail on), `--strict*`, `--runxfail`, `--max-warnings`, where configuration and
//!   conftests come from (`-c`, `-o`, `--override-ini`, `--rootdir`, `--confcutdir`, `--noconftest`,
//!   `--import-mode`, `--pyargs`), capture (`-s`, `--capture`: what the code under test prints then reaches the
//!   terminal and the tests' `capsys` differ), `--junit-prefix` (it renames every test in the report loopgate
//!   reads), `--no-summary` (the summary names every test for `loopgate verify`), logging
//!   levels (what `caplog` records), the debugger and `--pastebin`, and any option this table does not know — a
//!   plugin's included (fail closed).

/// The free options, spelled as `closure::options::free_words` reads them (`*`: any value).
const FREE: &[&str] = &[
    "-v",
    "--verbose",
    "-q",
    "--quiet",
    "--verbosity=*",
    "-r=*",
    "--report-chars=*",
    "--tb=*",
    "-l",
    "--showlocals",
    "--no-showlocals",
    "--full-trace",
    "--xfail-tb",
    "--no-header",
    "--no-fold-skipped",
    "--force-short-summary",
    "--disable-warnings",
    "--disable-pytest-warnings",
    "--durations=*",
    "--durations-min=*",
    "--color=*",
    "--code-highlight=*",
    "--show-capture=*",
    "--setup-show",
    "-p=no:cacheprovider",
    "--junitxml=*",
    "--junit-xml=*",
];

/// The key of pytest's configuration that holds command-line options.
pub(crate) const ADDOPTS: &str = "addopts";

/// [`FREE`], as the closure's scopes hold it.
pub(crate) fn free() -> Vec<String> {
    FREE.iter().map(|option| (*option).to_string()).collect()
}

#[cfg(test)]
mod tests {
    use crate::closure::Scope;
    use crate::closure::parts::{OptionsKey, PREAMBLE, PartChange, WHOLE, compare, digests};

    fn moved(scope: &Scope, before: &str, after: &str) -> Vec<(String, PartChange)> {
        compare(
            &digests(scope, Some(before.as_bytes())),
            &digests(scope, Some(after.as_bytes())),
        )
    }

    /// Every option that only changes what pytest prints, each in several spellings, against a member of each
    /// sealed class: selection, stopping early, plugins, warnings, configuration, capture, the report, paths,
    /// options after `--`, an option pytest does not know.
    const HONEST: &[&str] = &[
        "-ra",
        "-r fE",
        "-rA -q",
        "-v",
        "-vv",
        "-vra",
        "--verbose --verbosity=2",
        "-qq",
        "--tb=short",
        "--tb short -l",
        "--showlocals --full-trace --no-showlocals",
        "--durations=10 --durations-min=0.5",
        "--durations 5",
        "--color=yes --code-highlight=no",
        "--no-header --disable-warnings --no-fold-skipped --force-short-summary",
        "--show-capture=no --setup-show --xfail-tb",
        "-p no:cacheprovider",
        "-pno:cacheprovider",
        "--report-chars=a",
        "--junitxml=reports/junit.xml",
        "--junit-xml reports/junit.xml -q",
    ];
    const COUNTS: &[&str] = &[
        "-x",
        "-vx",
        "--maxfail=1",
        "-k 'not add'",
        "-m slow",
        "--deselect tests/test_calc.py::test_add",
        "--ignore=tests/test_calc.py",
        "--lf",
        "--sw",
        "-p passall_plugin",
        "-p no:warnings",
        "-W error",
        "-W ignore::DeprecationWarning",
        "--strict-markers",
        "--runxfail",
        "-o python_functions=check_*",
        "--override-ini=xfail_strict=false",
        "-c other.ini",
        "--rootdir=tests",
        "--confcutdir=tests",
        "--noconftest",
        "--import-mode=importlib",
        "-s",
        "--capture=no",
        "--junit-prefix=x",
        "--no-summary",
        "--log-level=DEBUG",
        "tests/test_calc.py",
        "-- -v",
        "-n 4",
        "--durations -x",
    ];

    /// `addopts` in each file pytest reads it from is judged option by option: a display option added to an
    /// absent or existing `addopts` moves nothing, a sealed one beside it does, and the keys around it still
    /// count.
    #[test]
    fn addopts_is_judged_option_by_option_in_every_file_pytest_reads() {
        let options = |key: &[&str]| OptionsKey {
            key: key.iter().map(|k| (*k).to_string()).collect(),
            free: super::free(),
        };
        let ini = |section: &str| Scope::IniBut {
            sections: vec![PREAMBLE.to_string(), section.to_string()],
            free: vec!["markers".into()],
            options: vec![options(&["addopts"])],
        };
        let toml = Scope::TomlBut {
            paths: vec![vec!["tool".into(), "pytest".into()]],
            free: Vec::new(),
            options: vec![
                options(&["tool", "pytest", "addopts"]),
                options(&["tool", "pytest", "ini_options", "addopts"]),
            ],
        };
        type Spelled = fn(&str) -> String;
        let files: [(Scope, &str, Spelled); 4] = [
            (
                ini("tool:pytest"),
                "[metadata]\nname = calc\n\n[tool:pytest]\ntestpaths = tests\n",
                |o| format!("[metadata]\nname = calc\n\n[tool:pytest]\ntestpaths = tests\naddopts = {o}\n"),
            ),
            (ini("pytest"), "[pytest]\ntestpaths = tests\naddopts = -q\n", |o| {
                format!("[pytest]\ntestpaths = tests\naddopts = -q\n    {o}\n")
            }),
            (
                toml.clone(),
                "[project]\nname = \"calc\"\n\n[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\n",
                |o| {
                    let o = o.replace('\\', "\\\\").replace('"', "\\\"");
                    format!(
                        "[project]\nname = \"calc\"\n\n[tool.pytest.ini_options]\ntestpaths = [\"tests\"]\naddopts = \"{o}\"\n"
                    )
                },
            ),
            (
                toml,
                "[tool.pytest]\ntestpaths = [\"tests\"]\naddopts = [\"-q\"]\n",
                |o| {
                    let words = crate::closure::options::shell_words(o).unwrap_or_else(|| vec![o.to_string()]);
                    let list: Vec<String> = words.iter().map(|w| format!("{w:?}")).collect();
                    format!(
                        "[tool.pytest]\ntestpaths = [\"tests\"]\naddopts = [\"-q\", {}]\n",
                        list.join(", ")
                    )
                },
            ),
        ];
        for (scope, base, with) in &files {
            for honest in HONEST {
                assert_eq!(moved(scope, base, &with(honest)), vec![], "{honest} in {base}");
            }
            for counts in COUNTS {
                assert_eq!(moved(scope, base, &with(counts)).len(), 1, "{counts} in {base}");
            }
            let narrowed = with("-ra").replace("testpaths", "xfail_strict = true\ntestpaths");
            assert_eq!(moved(scope, base, &narrowed).len(), 1, "a key beside addopts in {base}");
        }
    }

    /// `pytest.ini` is pytest's configuration as soon as it exists, empty or not: creating one counts, whatever it
    /// holds; its `[pytest]` section is judged key by key, and other sections are not pytest's.
    #[test]
    fn a_pytest_ini_counts_by_existing_and_its_section_key_by_key() {
        let scope = Scope::IniBut {
            sections: vec![PREAMBLE.to_string(), "pytest".into()],
            free: vec!["markers".into()],
            options: vec![OptionsKey {
                key: vec!["addopts".into()],
                free: super::free(),
            }],
        };
        assert_eq!(
            compare(&digests(&scope, None), &digests(&scope, Some(b""))),
            vec![(WHOLE.to_string(), PartChange::Added)]
        );
        let base = "[pytest]\naddopts = -x\n";
        let honest =
            "# shown\n[pytest]\naddopts = -x -ra\nmarkers =\n    slow: slow\n\n[flake8]\nmax-line-length = 99\n";
        assert_eq!(moved(&scope, base, honest), vec![]);
        let counts = "[pytest]\naddopts = -ra\n";
        assert_eq!(
            moved(&scope, base, counts),
            vec![(WHOLE.to_string(), PartChange::Changed)]
        );
        // Options that do not split (a quote left open) are kept whole: pytest refuses them.
        let unsplit = "[pytest]\naddopts = -x\n    -ra 'unclosed\n";
        assert_eq!(moved(&scope, base, unsplit).len(), 1);
        let stray = format!("addopts = -k nothing\n{base}");
        assert_eq!(
            moved(&scope, base, &stray),
            vec![(WHOLE.to_string(), PartChange::Changed)]
        );
    }
}
