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

#[cfg(test)]
mod tests {
    use super::{steers, steers_in};

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
