//! `cargo test` and friends: what Cargo and rustup read before a test runs.
//!
//! - `.cargo/config.toml` (and the older `.cargo/config`) in the directory cargo runs in and every ancestor,
//!   then `$CARGO_HOME`, key by key: a `runner`, `rustflags` or `env` changes what runs; an alias other than
//!   the verify's subcommand, the terminal's colours or the network settings do not ([`FREE_CONFIG`]).
//! - `rust-toolchain.toml` / `rust-toolchain` there and in every ancestor: rustup picks the toolchain from the
//!   nearest one, so a new one can point `cargo` at another toolchain; each is judged by the toolchain in effect
//!   where it lies (`Scope::Toolchain`, `toolchain.rs`), so a pin equal to the baseline's moves nothing.
//! - every `Cargo.toml`'s test-related parts: the target tables that decide what is built and run as a test
//!   (`[lib]`, `[[test]]`, the test settings of `[[bin]]` / `[[example]]` / `[[bench]]`, the `auto*` switches,
//!   `package.build`), `[profile.test]`, `[features] default` (features switch code on and off), and the
//!   workspace's `default-members`. Dependencies, metadata, new `[[bin]]` / `[[bench]]` targets and the members
//!   of the workspace stay free: a new member adds its own tests (or none, under a root package, which `cargo
//!   test` alone runs), and a member dropped drops tests the per-test verdict misses by name.
//! - a build script where a package has none: `build.rs` beside its `Cargo.toml` (or the file `package.build`
//!   names) is sealed as absent, since a new build script runs before the tests and can rewrite them. An
//!   existing build script is the project's code and stays the agent's to change (the oracle's watch during
//!   the run catches one that rewrites the tests).

use std::path::Path;

use super::{Deriver, Lang, Runner, Simple, Why, normalize};
use crate::closure::parts::{Scope, TEST_SETTINGS};

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
        if let Some(cargo_home) = self.cargo_home {
            for name in ["config.toml", "config"] {
                self.add(cargo_home.join(name), config_scope(sub), why.clone());
            }
        }
        if sub.as_str() == "nextest" {
            for file in Runner::Nextest.row().config.files {
                self.whole(cwd.join(file), Why::Configures("cargo nextest".into()));
            }
        }
        self.watch("Cargo.toml", manifest_scope(), why.clone(), false);
        self.build_scripts(&why);
    }

    /// Seals as absent the build script of every package that has none.
    fn build_scripts(&mut self, why: &Why) {
        for manifest in crate::walk::find_named(self.root, &["Cargo.toml"]) {
            let Some(table) = std::fs::read_to_string(self.root.join(&manifest))
                .ok()
                .and_then(|text| text.parse::<toml::Table>().ok())
            else {
                continue;
            };
            let Some(package) = table.get("package") else { continue };
            let dir = Path::new(&manifest).parent().unwrap_or(Path::new(""));
            let script = match package.get("build") {
                Some(toml::Value::String(path)) => dir.join(path),
                Some(_) => continue,
                None => dir.join("build.rs"),
            };
            if !self.root.join(&script).exists() {
                self.whole(script, why.clone());
            }
        }
    }
}

/// Tables of cargo's configuration that change neither what `cargo test` builds and runs nor how it counts:
/// aliases (but the one the verify's subcommand names: cargo lets no alias shadow a built-in command, and the
/// verify's own is sealed anyway), the terminal, `cargo doc`'s browser, `cargo new`'s template, the network and
/// HTTP settings, where `cargo install` puts binaries, the cache's cleaning, and of `build` only how many jobs
/// run at once. Every other table or key (the rest of `build`, `target`, `env`, `patch`, `paths`, `source`,
/// `profile`, `unstable`, …), and one this list does not know, is sealed.
const FREE_CONFIG: &[&str] = &[
    "alias",
    "build.jobs",
    "term",
    "doc",
    "cargo-new",
    "future-incompat-report",
    "http",
    "net",
    "install",
    "cache",
];

/// A cargo configuration file, key by key: the whole document but [`FREE_CONFIG`], and the alias of `sub`.
fn config_scope(sub: &str) -> Scope {
    Scope::TomlBut {
        paths: vec![Vec::new(), vec!["alias".to_string(), sub.to_string()]],
        free: FREE_CONFIG
            .iter()
            .map(|t| t.split('.').map(str::to_string).collect())
            .collect(),
    }
}

/// The parts of a `Cargo.toml` that decide what `cargo test` builds and runs.
fn manifest_scope() -> Scope {
    let tables = [
        "lib",
        "test",
        "profile.test",
        "features.default",
        "package.autotests",
        "package.autobins",
        "package.autolib",
        "package.autobenches",
        "package.autoexamples",
        "package.build",
        "workspace.default-members",
    ];
    let mut paths: Vec<Vec<String>> = tables
        .iter()
        .map(|t| t.split('.').map(str::to_string).collect())
        .collect();
    for targets in ["bin", "example", "bench"] {
        paths.push(vec![targets.to_string(), TEST_SETTINGS.to_string()]);
    }
    Scope::Toml(paths)
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
    use super::config_scope;
    use crate::closure::parts::{Parts, digests};

    /// Of `build`, only the number of jobs is free: a configuration of it and the terminal's settings is as if
    /// absent, while a wrapper of the compiler beside it counts.
    #[test]
    fn build_jobs_is_free_and_the_rest_of_build_is_sealed() {
        let scope = config_scope("test");
        let jobs = "[build]\njobs = 2\n\n[term]\nverbose = false\n";
        assert_eq!(digests(&scope, Some(jobs.as_bytes())), Parts::new());
        let wrapper = "[build]\njobs = 2\nrustc-wrapper = \"tools/rustc.sh\"\n";
        assert_ne!(digests(&scope, Some(wrapper.as_bytes())), Parts::new());
    }
}
