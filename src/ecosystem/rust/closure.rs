//! `cargo test` and friends: what Cargo and rustup read before a test runs.
//!
//! - `.cargo/config.toml` (and the older `.cargo/config`) in the directory cargo runs in and every ancestor,
//!   then `$CARGO_HOME`, key by key: a `runner`, `rustflags` or `env` changes what runs; an alias other than
//!   the verify's subcommand, the terminal's colours or the network settings do not ([`FREE_CONFIG`]), nor
//!   does an `[env]` variable no program of the run reads to decide what runs or counts (`runner::steers`:
//!   `TZ`, `RUST_LOG`, `CALC_NAME`; not `LD_PRELOAD`, `RUSTFLAGS`).
//! - `rust-toolchain.toml` / `rust-toolchain` there and in every ancestor: rustup picks the toolchain from the
//!   nearest one, so a new one can point `cargo` at another toolchain; each is judged by the toolchain in effect
//!   where it lies (`Scope::Toolchain`, `toolchain.rs`), so a pin equal to the baseline's moves nothing.
//! - every `Cargo.toml`'s test-related parts: the target tables that decide what is built and run as a test
//!   (`[lib]`, `[[test]]`, the test settings of `[[bin]]` / `[[example]]` / `[[bench]]`, the `auto*` switches,
//!   `package.build`), what of `[profile.test]` and `[profile.dev]` (which it inherits), and of a profile the
//!   command names (`--release`, `--profile NAME`), changes how the code behaves (`overflow-checks`,
//!   `debug-assertions`, `panic`; not `opt-level` or `debug`: `parts::BEHAVIOUR`), `[features] default` by
//!   its reach into the tests (the features the test code names, the dependencies it uses: `manifest.rs`), and
//!   the workspace's `default-members`, read by the targets cargo
//!   resolves (`manifest.rs`): a key that spells what cargo does without it (`[lib] path = "src/lib.rs"`, a
//!   `[[test]]` autodiscovery finds anyway) moves nothing.
//!   Dependencies, metadata, new `[[bin]]` / `[[bench]]` targets and the members of the workspace stay free: a
//!   new member adds its own tests (or none, under a root package, which `cargo test` alone runs), and a member
//!   dropped drops tests, which the per-test verdict finds missing by name.
//! - build scripts are the project's code, new ones too (code generation is everyday work): a build script
//!   runs in the oracle's room, where the sealed tests are read-only — the test files and data, and the source
//!   files holding inline tests (`commands::setup::build_tree`) — so one that rewrites them fails the run
//!   (`cargo_build_script_rewrites_tests_during_verify` in the gaming suite). Sealing a new `build.rs` as
//!   absent, which the room made redundant, is retired.

use std::path::{Path, PathBuf};

use super::{Deriver, Lang, Runner, Simple, Why, normalize};
use crate::closure::parts::Scope;

/// Cargo subcommands that run the tests.
const TESTING: &[&str] = &["test", "t", "nextest", "llvm-cov", "tarpaulin", "mutants", "hack"];

impl Deriver<'_> {
    pub(super) fn cargo(&mut self, rest: &[String], cwd: &Path) {
        let words: Vec<&String> = rest
            .iter()
            .filter(|w| !w.starts_with('+') && !w.starts_with('-'))
            .collect();
        let Some(sub) = words.first() else { return };
        if sub.as_str() == "make" {
            self.whole(cwd.join("Makefile.toml"), Why::Configures("cargo make".into()));
            return;
        }
        if !TESTING.contains(&sub.as_str()) {
            if sub.as_str() == "run" {
                self.plan.ecosystems.insert(Lang::Rust);
            }
            return;
        }
        self.plan.ecosystems.insert(Lang::Rust);
        self.plan.runners.insert(Runner::Cargo);
        let why = Why::Configures("cargo".into());
        let start = normalize(&self.root.join(cwd));
        for dir in start.ancestors() {
            for name in [".cargo/config.toml", ".cargo/config"] {
                let path = self.local(&dir.join(name));
                self.add(path, config_scope(sub), why.clone());
            }
            for name in ["rust-toolchain.toml", "rust-toolchain"] {
                let path = self.local(&dir.join(name));
                let of = "rustup".to_string();
                self.add(path, Scope::Toolchain { of }, why.clone());
            }
        }
        let cargo_home = (self.var)("CARGO_HOME")
            .filter(|h| !h.is_empty())
            .map(PathBuf::from)
            .or_else(|| self.home.map(|h| h.join(".cargo")));
        if let Some(cargo_home) = cargo_home {
            for name in ["config.toml", "config"] {
                self.add(cargo_home.join(name), config_scope(sub), why.clone());
            }
        }
        if sub.as_str() == "nextest" {
            for file in Runner::Nextest.row().config.files {
                self.whole(cwd.join(file), Why::Configures("cargo nextest".into()));
            }
        }
        let mut names = profiles(rest);
        names.extend(crate::closure::cargo_manifest::test_side(self.root));
        self.watch("Cargo.toml", manifest_scope(&names), why.clone(), false);
    }
}

/// Tables of cargo's configuration that change neither what `cargo test` builds and runs nor how it counts:
/// aliases (but the one the verify's subcommand names: cargo lets no alias shadow a built-in command, and the
/// verify's own is sealed anyway), the terminal, `cargo doc`'s browser, `cargo new`'s template, the network and
/// HTTP settings, where `cargo install` puts binaries, the cache's cleaning, of `build` only how many jobs
/// run at once, and a target's `linker` set to `cc` — the one rustc runs without it (found on `PATH` either way),
/// while a linker of the agent's (`bin/cc`) links whatever it likes into the test binaries. Every other table or key (the rest of `build`, `target`, `env`, `patch`, `paths`, `source`,
/// `profile`, `unstable`, …), and one this list does not know, is sealed.
const FREE_CONFIG: &[&str] = &[
    "alias",
    "build.jobs",
    "target.*.linker=cc",
    "term",
    "doc",
    "cargo-new",
    "future-incompat-report",
    "http",
    "net",
    "install",
    "cache",
];

/// A cargo configuration file, key by key: the whole document but [`FREE_CONFIG`], every `[env]` variable no
/// program of the run reads to decide what runs or counts (`runner::steers`, through
/// `parts::DATA_VARIABLES`: `TZ`, `RUST_LOG`, the package's own `CALC_NAME` are free; `LD_PRELOAD`,
/// `RUSTFLAGS`, `RUST_TEST_THREADS` are sealed), and the alias of `sub`.
fn config_scope(sub: &str) -> Scope {
    let mut free: Vec<Vec<String>> = FREE_CONFIG
        .iter()
        .map(|t| t.split('.').map(str::to_string).collect())
        .collect();
    free.push(vec![
        "env".to_string(),
        crate::closure::parts::DATA_VARIABLES.to_string(),
    ]);
    Scope::TomlBut {
        paths: vec![Vec::new(), vec!["alias".to_string(), sub.to_string()]],
        free,
        options: Vec::new(),
    }
}

/// The build profiles a cargo command builds its tests with, beyond `test` and the `dev` it inherits: `release`
/// for `--release` / `-r`, the one `--profile NAME` names (`--profile=NAME`; under `cargo nextest`, whose
/// `--profile` is its own, `--cargo-profile`).
fn profiles(rest: &[String]) -> Vec<String> {
    let option = if rest.iter().any(|w| w == "nextest") {
        "--cargo-profile"
    } else {
        "--profile"
    };
    let mut out = Vec::new();
    let mut words = rest.iter();
    while let Some(word) = words.next() {
        if word == "--release" || word == "-r" {
            out.push("release".to_string());
        } else if word == option {
            out.extend(words.next().cloned());
        } else if let Some(name) = word.strip_prefix(option).and_then(|w| w.strip_prefix('=')) {
            out.push(name.to_string());
        }
    }
    out
}

/// The parts of a `Cargo.toml` that decide what `cargo test` builds and runs, read by the targets cargo resolves
/// (`closure::cargo_manifest`): a key that spells a default moves nothing; `names`: the build profiles the
/// command asks for beyond `test` and `dev` ([`profiles`]), whose behaviour counts too, and the test side's reach
/// of the features (`cargo_manifest::test_side`), by which `[features] default` is read.
fn manifest_scope(names: &[String]) -> Scope {
    crate::closure::parts::Read::by(&crate::closure::cargo_manifest::READING, names.to_vec())
}

/// The closure's rule for cargo and cargo-nextest (`closure::derive::PROGRAMS`): whether `cmd` runs one, whose configuration
/// it then reads.
pub(super) fn program(d: &mut Deriver, cmd: &Simple) -> bool {
    match cmd.name {
        "cargo" => d.cargo(cmd.rest, cmd.cwd),
        "cargo-nextest" => d.cargo(&[String::from("nextest")], cmd.cwd),
        _ => return false,
    }
    true
}

#[cfg(test)]
mod tests {
    use super::{config_scope, manifest_scope, profiles};
    use crate::closure::parts::{digests, seal_nothing};

    /// An `[env]` variable no program of the run reads to decide what runs or counts is free, in either form;
    /// one the loader, rustc, cargo or libtest reads, beside it or alone, is sealed.
    #[test]
    fn env_variables_no_runner_reads_are_free() {
        let scope = config_scope("test");
        for honest in [
            "[env]\nCALC_CORE_NAME = \"calc\"\n",
            "[env]\nCALC_NAME = \"calc\"\nTZ = \"UTC\"\n",
            "[env]\nCALC_CORE_DATA = { value = \"data\", relative = true }\n[term]\nverbose = true\n",
            "[env]\nRUST_BACKTRACE = \"1\"\nRUST_LOG = \"calc=debug\"\n",
            "[env.RUST_LOG]\nvalue = \"debug\"\nforce = true\n",
            "[env]\nNO_COLOR = \"1\"\nLANG = \"C.UTF-8\"\n",
        ] {
            assert!(seal_nothing(&digests(&scope, Some(honest.as_bytes()))), "{honest}");
        }
        for gamed in [
            "[env]\nCALC_CORE_NAME = \"calc\"\nLD_PRELOAD = \"tools/exit0.so\"\n",
            "[env]\nRUST_TEST_THREADS = \"1\"\n",
            "[env]\nRUST_BACKTRACE = \"1\"\nLD_PRELOAD = \"tools/exit0.so\"\n",
            "[env]\nRUST_LOG = \"debug\"\nRUST_MIN_STACK = \"1\"\n",
            "[env]\nRUSTFLAGS = \"--cfg lenient\"\n",
            "[env]\nTZ = \"UTC\"\nBASH_ENV = \"tools/env.sh\"\n",
            "[env]\nCALC_CORE_NAME = \"calc\"\n[target.x86_64-unknown-linux-gnu]\nrunner = \"true\"\n",
        ] {
            assert!(!seal_nothing(&digests(&scope, Some(gamed.as_bytes()))), "{gamed}");
        }
        // A new one is carried into the room's tree: its reading sees all of it.
        assert!(scope.reads_all_of_it());
        let tables_only = crate::closure::Scope::TomlBut {
            paths: vec![vec!["tool".into(), "pytest".into()]],
            free: Vec::new(),
            options: Vec::new(),
        };
        assert!(!tables_only.reads_all_of_it());
    }

    /// Of the test and dev profiles only what changes how the code behaves counts: an optimisation level or debug
    /// information (also for dependencies, `[profile.dev.package."*"]`) is as if absent, while overflow checks or
    /// debug assertions switched off beside it, in either profile, move a part.
    #[test]
    fn a_profiles_speed_settings_are_free_and_its_checks_are_sealed() {
        let scope = manifest_scope(&[]);
        let base = "[package]\nname = \"calc\"\nversion = \"0.1.0\"\n";
        let digest = |tail: &str| digests(&scope, Some(format!("{base}{tail}").as_bytes()));
        let bare = digest("");
        for honest in [
            "\n[profile.test]\nopt-level = 1\n",
            "\n[profile.dev]\nopt-level = 1\ndebug = 0\n\n[profile.dev.package.\"*\"]\nopt-level = 2\n",
            "\n[profile.test.build-override]\nopt-level = 0\n",
            "\n[profile.release]\noverflow-checks = false\n",
        ] {
            assert_eq!(digest(honest), bare, "{honest}");
        }
        for gamed in [
            "\n[profile.test]\nopt-level = 1\noverflow-checks = false\n",
            "\n[profile.dev]\ndebug-assertions = false\n",
            "\n[profile.dev.package.calc]\nopt-level = 1\noverflow-checks = false\n",
            "\n[profile.test]\npanic = \"abort\"\n",
        ] {
            assert_ne!(digest(gamed), bare, "{gamed}");
        }
    }

    /// `cargo test --release` builds its tests with the release profile, `--profile NAME` with that one: their
    /// behaviour counts then, and only then.
    #[test]
    fn the_profile_the_command_asks_for_counts_too() {
        let words = |text: &str| text.split(' ').map(str::to_string).collect::<Vec<_>>();
        assert_eq!(profiles(&words("test --release -q")), ["release"]);
        assert_eq!(profiles(&words("test -r")), ["release"]);
        assert_eq!(profiles(&words("test --profile ci")), ["ci"]);
        assert_eq!(profiles(&words("test --profile=ci --workspace")), ["ci"]);
        assert!(profiles(&words("test -q")).is_empty());
        assert!(profiles(&words("nextest run --profile ci")).is_empty());
        assert_eq!(profiles(&words("nextest run --cargo-profile=fast")), ["fast"]);
        let base = "[package]\nname = \"calc\"\n\n[profile.release]\noverflow-checks = false\n";
        let plain = digests(&manifest_scope(&[]), Some(base.as_bytes()));
        assert!(seal_nothing(&plain), "{plain:?}");
        let release = digests(&manifest_scope(&["release".to_string()]), Some(base.as_bytes()));
        assert_eq!(release.len(), 1, "{release:?}");
    }

    /// Of `build`, only the number of jobs is free: a configuration of it and the terminal's settings is as if
    /// absent, while a wrapper of the compiler beside it counts.
    #[test]
    fn build_jobs_is_free_and_the_rest_of_build_is_sealed() {
        let scope = config_scope("test");
        let jobs = "[build]\njobs = 2\n\n[term]\nverbose = false\n";
        assert!(seal_nothing(&digests(&scope, Some(jobs.as_bytes()))));
        let wrapper = "[build]\njobs = 2\nrustc-wrapper = \"tools/rustc.sh\"\n";
        assert!(!seal_nothing(&digests(&scope, Some(wrapper.as_bytes()))));
    }

    /// A target's linker set to `cc`, the one rustc runs without it, is as if absent; a linker of the agent's, or
    /// `cc` beside a runner of the same target, counts.
    #[test]
    fn the_default_linker_is_free_and_any_other_counts() {
        let scope = config_scope("test");
        let default = "[target.x86_64-unknown-linux-gnu]\nlinker = \"cc\"\n\n[target.aarch64-unknown-linux-gnu]\nlinker = \"cc\"\n";
        assert!(seal_nothing(&digests(&scope, Some(default.as_bytes()))));
        for counting in [
            "[target.x86_64-unknown-linux-gnu]\nlinker = \"bin/cc\"\n",
            "[target.x86_64-unknown-linux-gnu]\nlinker = \"cc\"\nrunner = \"true\"\n",
            "[target.x86_64-unknown-linux-gnu]\nlinker = [\"cc\"]\n",
        ] {
            assert!(!seal_nothing(&digests(&scope, Some(counting.as_bytes()))), "{counting}");
        }
    }
}
