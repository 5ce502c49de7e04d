//! Which environment variables steer a test run, decided in one place: [`steers`].
//!
//! An environment variable is data to every process a run starts; what matters to the oracle is whether it
//! changes what the run **runs or counts**. A variable does that when a program on the test side reads it to
//! decide what to load, run or report, and the principle names those programs rather than their variables:
//!
//! - **the loader and the C library** of every process: `LD_*` (`LD_PRELOAD` loads a library into each), `DYLD_*`,
//!   `GLIBC_*` (tunables), `MALLOC_*`, `GCONV_PATH`, `LOCPATH`, the sanitizers' options (`ASAN_OPTIONS`, …);
//! - **the shell's start-up and reading** of every script and recipe line: `BASH_ENV` and `ENV` (a file every
//!   non-interactive shell sources), `BASH_FUNC_*` (functions a parent exported), `SHELLOPTS`, `BASHOPTS`, `IFS`,
//!   `CDPATH`, `PS4`, `PROMPT_COMMAND`;
//! - **where every process finds programs, its home and its configuration**: `PATH`, `HOME`, `SHELL`, `PWD`,
//!   `TMPDIR`, `XDG_*` (runners read their configuration from `$XDG_CONFIG_HOME`), `MAKEFLAGS` and `MAKEFILES`
//!   (a recipe's own `make`), the options of interpreters that any script may start without an ecosystem of its
//!   own here (`PERL5OPT`, `PERL5LIB`), and loopgate's own variables (`LOOPGATE_*`);
//! - **each ecosystem's runtime and runners**, declared in its folder beside its runners' rows
//!   ([`Environment::steers`]: `PYTHON*`, `NODE_*`, `RUST*`, `GO*`, `JAVA_*`, `RUBY*`, `PHP*`, their runners'
//!   `PYTEST_*`, `JEST_*`, `CARGO*`, `GTEST_*`, …), with the few names of such a namespace that only change what
//!   is printed ([`Environment::prints`]: `RUST_BACKTRACE`, `RUST_LOG`).
//!
//! Every other name — a log level (`LOG_LEVEL`), the time zone (`TZ`), the locale (`LANG`, `LC_*`), colour
//! switches (`NO_COLOR`), a program's own variable (`CALC_MODE`) — is read only by the programs that choose to
//! read it: the code under test, which is the agent's anyway, or a sealed test, whose reading of a variable it
//! names itself no classification by name can see (`docs/threat-model.md`: the reviewer's). Names are compared
//! in upper case (npm reads `npm_config_*` in either case), and a pattern ending in `*` is a prefix.
//!
//! **The names the sealed tests read steer too, for that project** ([`steers_in`]). A test that reads
//! `CALC_QUICK` and returns before its assertion is steered by it as surely as pytest by `PYTEST_ADDOPTS`, and no
//! classification by name can know it: so setup reads the baseline's test code for the names it reads
//! (`testsig::env_reads`, one small reader per language; kept with the closure in the seal, `schema::EnvReads`),
//! and every place in the tree that sets a variable for the test process asks with them. A test that reads the
//! environment by a name built at run time makes every variable the tree sets steer, for that project alone.
//!
//! **A variable read as words** (a runner's options: `PYTEST_ADDOPTS`, `NODE_OPTIONS`, `GOFLAGS`; a time limit:
//! `BATS_TEST_TIMEOUT`) is judged by its value where the value is known ([`steers_as`]): each ecosystem lists,
//! beside the names it reads ([`Environment::words`]), the words that only change what is printed or only bound
//! the process, and a value of those alone is free, as `addopts = --tb=short` is in pytest's configuration. A
//! word that loads or selects code, a value that expands, or a variable the tests read still counts. Make asks
//! with what the recipes' environment held before: the words a makefile adds are judged, and dropping an
//! inherited word (the user's own option, the room's start hook) counts.
//!
//! Who asks: cargo's `[env]` table (`closure::derive::cargo`), make's exports and the variables a makefile sets in
//! the recipes' environment (`closure::make_plan`). Another reading of "a variable set for the run" asks here
//! rather than keeping a list of its own.

/// The environment variables one ecosystem's runtime and runners read to decide what runs or counts.
#[derive(Debug)]
pub(crate) struct Environment {
    /// Names and prefixes (`PYTHON*`) its interpreter, build tools and runners read: a change to one changes
    /// what runs or what counts.
    pub(crate) steers: &'static [&'static str],
    /// Names matched by [`Environment::steers`] that only change what is printed (a backtrace, a log filter), or
    /// only whether the run writes a cache it reads the same way either way (`PYTHONDONTWRITEBYTECODE`).
    pub(crate) prints: &'static [&'static str],
    /// Variables of [`Environment::steers`] whose value is read as words (a runner's options, a time limit), each
    /// with the words that only change what is printed or only bound the process ([`steers_as`]).
    pub(crate) words: &'static [Words],
}

/// A variable read as words, and the words that leave what runs and what counts as they were: `PYTEST_ADDOPTS`
/// set to `--tb=short` changes how a failure is printed, never which tests run or how they end.
#[derive(Debug)]
pub(crate) struct Words {
    /// The variable's name (upper case).
    pub(crate) name: &'static str,
    /// Each a whole word, a prefix ending in `*` (`--tb=*`), or `#`: any whole number (a time limit in
    /// seconds, which, like PHPUnit's `max_execution_time`, only bounds the process).
    ///
    /// A word ending in `~` (`ignore:~`) is a Python warning filter of that action whose category names no
    /// module (a dotted category is imported at start-up).
    ///
    /// A word marked `?` (`?-W0`) only silences warnings: it is free where no sealed test reads what the run
    /// prints or warns (`schema::EnvReads::output_unread`), since a sealed `assert_silent` that fails on the
    /// bug's warning would pass under it.
    pub(crate) free: &'static [&'static str],
}

/// What every process of a run reads whatever its ecosystem: the loader, the shell, the places programs and
/// configuration are found (see the module doc).
const EVERY_PROCESS: &[&str] = &[
    "LD_*",
    "DYLD_*",
    "GLIBC_*",
    "MALLOC_*",
    "GCONV_PATH",
    "LOCPATH",
    "ASAN_*",
    "UBSAN_*",
    "LSAN_*",
    "TSAN_*",
    "MSAN_*",
    "BASH_ENV",
    "ENV",
    "BASH_FUNC_*",
    "SHELLOPTS",
    "BASHOPTS",
    "IFS",
    "CDPATH",
    "PS4",
    "PROMPT_COMMAND",
    "PATH",
    "HOME",
    "SHELL",
    "PWD",
    "TMPDIR",
    "XDG_*",
    "MAKEFLAGS",
    "MFLAGS",
    "GNUMAKEFLAGS",
    "MAKEFILES",
    "PERL5*",
    "PERLLIB",
    "LOOPGATE_*",
];

/// Whether `name` matches `pattern` (upper case; a trailing `*` makes it a prefix).
fn matches(pattern: &str, name: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => name == pattern,
    }
}

/// Whether setting the environment variable `name` for a run can change what the run runs or counts (see the
/// module doc): a variable every process reads, or one an ecosystem's runtime or runners read, but for the ones
/// that only change what is printed.
pub(crate) fn steers(name: &str) -> bool {
    let name = name.to_ascii_uppercase();
    if name.is_empty() || EVERY_PROCESS.iter().any(|p| matches(p, &name)) {
        return true;
    }
    let environments = || super::ECOSYSTEMS.iter().map(|e| e.environment());
    if environments().any(|env| env.prints.contains(&name.as_str())) {
        return false;
    }
    environments().any(|env| env.steers.iter().any(|p| matches(p, &name)))
}

/// Whether setting `name` for a run of a project whose sealed tests read `reads` can change what the run runs or
/// counts: it [`steers`] any run, or the tests read it themselves (`schema::EnvReads`, see the module doc).
pub(crate) fn steers_in(name: &str, reads: &crate::schema::EnvReads) -> bool {
    steers(name) || reads.reads(name)
}

/// Whether setting `name` to `value` for a run of a project whose sealed tests read `reads` can change what the
/// run runs or counts: as [`steers_in`], but a variable its ecosystem reads as words ([`Environment::words`]) is
/// free where the tests do not read it themselves and every word of `value` is one that only changes what is
/// printed or bounds the process. A value that expands anything (`$`, quotes, a backslash) or holds no word is
/// judged by its name, as before: what it will hold is not in the text.
pub(crate) fn steers_as(name: &str, value: &str, reads: &crate::schema::EnvReads) -> bool {
    if !steers_in(name, reads) {
        return false;
    }
    if reads.reads(name) || value.contains(['$', '"', '\'', '\\', '`']) {
        return true;
    }
    let upper = name.to_ascii_uppercase();
    let Some(row) = super::ECOSYSTEMS
        .iter()
        .flat_map(|e| e.environment().words)
        .find(|row| row.name == upper)
    else {
        return true;
    };
    // Words are split at commas too (`PYTHONWARNINGS` lists its filters so): a word that holds one is free only
    // where each of its pieces is.
    let mut words = value
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|word| !word.is_empty())
        .peekable();
    // A word that only silences warnings is free only where no sealed test reads what the run prints.
    let available = |free: &&&str| !free.starts_with('?') || reads.output_unread;
    words.peek().is_none()
        || !words.all(|word| {
            row.free
                .iter()
                .filter(available)
                .any(|free| free_word(free.trim_start_matches('?'), word))
        })
}

/// Whether `word` is the free word `free` spells (see [`Words::free`]).
fn free_word(free: &str, word: &str) -> bool {
    if let Some(action) = free.strip_suffix('~') {
        // A Python warning filter, `action:message:category:module:lineno`: its category is a built-in warning's
        // name; a dotted one (`ignore::calc_quiet.Quiet`) imports its module when the interpreter starts, which
        // loads code as a `-r` or a `--require` does.
        return word
            .strip_prefix(action)
            .is_some_and(|rest| rest.split(':').nth(1).is_none_or(|category| !category.contains('.')));
    }
    match free {
        "#" => !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()),
        _ => match free.strip_suffix('*') {
            Some(prefix) => word.starts_with(prefix),
            None => word == free,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::{steers, steers_as, steers_in};

    /// A runner's options that only change what is printed, or a time limit, are free by their words; an option
    /// that loads or selects code, a value that expands, and a variable the tests read are not.
    #[test]
    fn a_variable_read_as_words_is_free_by_its_words() {
        let none = crate::schema::EnvReads::default();
        assert!(!steers_as("PYTEST_ADDOPTS", "--tb=short -ra", &none));
        assert!(!steers_as("BATS_TEST_TIMEOUT", "60", &none));
        assert!(!steers_as("GOFLAGS", "-timeout=5m -v", &none));
        assert!(steers_as("GOFLAGS", "-timeout=5m -shuffle=7", &none));
        assert!(!steers_as("GOFLAGS", "-timeout=2m -shuffle=on", &none));
        assert!(steers_as("PYTEST_ADDOPTS", "-p lenient", &none));
        assert!(steers_as("PYTEST_ADDOPTS", "--tb=short -k zero", &none));
        assert!(steers_as("PYTEST_ADDOPTS", "$(OPTS)", &none));
        assert!(steers_as("PYTEST_ADDOPTS", "", &none));
        assert!(steers_as("BATS_TEST_TIMEOUT", "60s", &none));
        assert!(steers_as("PYTHONPATH", "--tb=short", &none));
        assert!(!steers_as("LOG_LEVEL", "debug", &none));
        let mut reads = crate::schema::EnvReads::default();
        reads.names.insert("BATS_TEST_TIMEOUT".to_string());
        assert!(steers_as("BATS_TEST_TIMEOUT", "60", &reads));
    }

    /// Ruby's `-W0` only silences warnings: free where no sealed test reads what the run prints or warns, and
    /// counted where one may (or where that was not read: a seal from before).
    #[test]
    fn a_word_that_silences_warnings_is_free_only_where_no_test_reads_output() {
        let mut unread = crate::schema::EnvReads::default();
        assert!(steers_as("RUBYOPT", "-W0", &unread));
        unread.output_unread = true;
        for quiet in ["-W0", "-W:no-deprecated", "-W:no-experimental -W0"] {
            assert!(!steers_as("RUBYOPT", quiet, &unread), "{quiet}");
        }
        for steering in ["-W0 -rpatch", "-I lib", "-W0 $(X)", "-W2"] {
            assert!(steers_as("RUBYOPT", steering, &unread), "{steering}");
        }
    }

    /// Python's warning filters that only ignore or show warnings are free where no sealed test reads output;
    /// `error`, which turns a warning into an exception code can catch, counts, wherever it stands in the list.
    #[test]
    fn python_warning_filters_that_only_ignore_are_free_where_output_is_unread() {
        let mut unread = crate::schema::EnvReads::default();
        assert!(steers_as("PYTHONWARNINGS", "ignore::DeprecationWarning", &unread));
        unread.output_unread = true;
        for quiet in [
            "ignore::DeprecationWarning",
            "ignore",
            "default::ResourceWarning,ignore:::calc.legacy",
            "once::UserWarning",
        ] {
            assert!(!steers_as("PYTHONWARNINGS", quiet, &unread), "{quiet}");
        }
        for steering in [
            "error",
            "ignore::DeprecationWarning,error",
            "error::UserWarning",
            "i::X",
            "ignore::calc_quiet.Quiet",
            "ignore:x:tests.lenient.W:calc",
        ] {
            assert!(steers_as("PYTHONWARNINGS", steering, &unread), "{steering}");
        }
    }

    /// A program's own variable is data, unless the sealed tests read it; wholesale reading makes every one steer.
    #[test]
    fn a_name_the_tests_read_steers_that_project() {
        let mut reads = crate::schema::EnvReads::default();
        reads.names.insert("CALC_QUICK".to_string());
        assert!(steers_in("CALC_QUICK", &reads));
        assert!(!steers_in("LOG_LEVEL", &reads));
        assert!(steers_in("PYTHONPATH", &reads));
        reads.wholesale = true;
        assert!(steers_in("LOG_LEVEL", &reads));
    }

    /// What a runner, an interpreter, the loader or the shell reads steers the run; a program's own variable, a
    /// log level, the time zone, the locale and colour switches do not.
    #[test]
    fn variables_steer_by_who_reads_them() {
        for steering in [
            "PYTHONPATH",
            "PYTHONSTARTUP",
            "pythonpath",
            "PYTEST_ADDOPTS",
            "NODE_OPTIONS",
            "npm_config_script_shell",
            "RUSTFLAGS",
            "RUSTC_WRAPPER",
            "RUST_TEST_THREADS",
            "CARGO_TARGET_DIR",
            "LD_PRELOAD",
            "DYLD_INSERT_LIBRARIES",
            "GOFLAGS",
            "JAVA_TOOL_OPTIONS",
            "MAVEN_OPTS",
            "RUBYOPT",
            "PERL5OPT",
            "PERL5LIB",
            "BASH_ENV",
            "ENV",
            "PATH",
            "HOME",
            "GTEST_FILTER",
            "PHP_INI_SCAN_DIR",
            "BATS_LIB_PATH",
            "LOOPGATE_ROOM",
            "XDG_CONFIG_HOME",
            "",
        ] {
            assert!(steers(steering), "{steering}");
        }
        for data in [
            "LOG_LEVEL",
            "TZ",
            "LANG",
            "LC_ALL",
            "NO_COLOR",
            "CALC_MODE",
            "RUST_BACKTRACE",
            "RUST_LOG",
            "PYTHONUNBUFFERED",
            "PYTHONDONTWRITEBYTECODE",
            "APP_ENV",
            "DATABASE_URL",
        ] {
            assert!(!steers(data), "{data}");
        }
    }
}
