//! What a build script tells rustc for the test build, and which of it the sealed tests read (issue 39, item 3;
//! `closure::built_features`, whose reading this is part of).
//!
//! A build script reaches the tests' compilation by what it prints: `cargo:rustc-cfg=NAME` (a cfg every target of
//! its package is compiled with: `#[cfg(lenient)]`, `cfg!(lenient)`, `#[cfg_attr(lenient, ignore)]` in a sealed
//! test), `cargo:rustc-env=NAME=VALUE` (what `env!` / `option_env!` give at compile time), and the files it writes
//! into `OUT_DIR` (what `include!(concat!(env!("OUT_DIR"), "/cases.rs"))` pulls into a test). Whether its output
//! changed is not whether its source changed: an unchanged script reads `build.conf`, a variable, a file its
//! `rerun-if-changed` names, a dependency's `DEP_*` metadata. So the output is judged as cargo reports it for the
//! build (`build-script-executed`: its `cfgs`, its `env`, its `out_dir`), never the script's text — cargo reruns
//! the script exactly when an input of it moved, and the reading is taken at every promise where a member has one.
//!
//! **What counts is what the test side reads.** Setup records the custom cfg names (not rustc's own: `test`,
//! `unix`, `target_os`, …), the `env!` / `option_env!` names and the `OUT_DIR` files the project's test side names
//! ([`test_reads`], over `cargo_manifest::test_regions`: files under `tests/`, inline `#[cfg(test)]` items, doc
//! comments); of a build script's output only those are kept ([`Told::of`]). A cfg no sealed test reads (a
//! `rustversion`-style `has_new_api` the code under test reads, a `rustc-check-cfg`), a `rustc-env` the code reads,
//! what a `cc` build script links (`rustc-link-lib`, `rustc-link-search`), `rerun-if-changed` lines, generated code
//! the tests do not include: all the code under test's, the agent's. So are link arguments (`rustc-link-arg`):
//! what they can link into a test binary is code of the process under test, which the code under test can already
//! be (`docs/threat-model.md`, what goes to the reviewer).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::closure::cargo_manifest::{Region, test_regions};
use crate::testsig::lex::{Lexed, TokKind, lex};

/// cfg names rustc or cargo set themselves, or that only combine others: a build script cannot print one
/// (rustc refuses `--cfg` of most of them), so a test reading one gives the reading nothing to judge.
const BUILTIN: &[&str] = &[
    "all",
    "any",
    "not",
    "true",
    "false",
    "test",
    "debug_assertions",
    "unix",
    "windows",
    "feature",
    "doc",
    "doctest",
    "miri",
    "panic",
    "proc_macro",
    "overflow_checks",
    "ub_checks",
    "relocation_model",
    "sanitize",
    "fmt_debug",
    "contract_checks",
];

/// The variable cargo sets to the build script's output directory: read through [`TestReads::outs`], by content.
const OUT_DIR: &str = "OUT_DIR";

/// What the project's test side reads that a build script can set (see the module doc).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct TestReads {
    /// Custom cfg names in `cfg(…)`, `cfg!(…)` and `cfg_attr(…, …)`'s condition (`lenient`, `mode` of
    /// `mode = "fast"`).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub(crate) cfgs: BTreeSet<String>,
    /// Names read at compile time by `env!` / `option_env!`, but `OUT_DIR`.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub(crate) envs: BTreeSet<String>,
    /// Files of `OUT_DIR` the test side includes (`cases.rs` of `concat!(env!("OUT_DIR"), "/cases.rs")`); `*`
    /// where it reads `OUT_DIR` in a way that names no file.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub(crate) outs: BTreeSet<String>,
}

impl TestReads {
    pub(crate) fn is_empty(&self) -> bool {
        self.cfgs.is_empty() && self.envs.is_empty() && self.outs.is_empty()
    }
}

/// What the project's test side reads that a build script can set.
pub(crate) fn test_reads(root: &Path) -> TestReads {
    let mut reads = TestReads::default();
    test_regions(root, |region| match region {
        Region::Doc(comment) => {
            // A doctest's code, its comment markers taken off.
            let code: String = comment
                .lines()
                .map(|line| line.trim_start().trim_start_matches(['/', '!', '*']).to_string())
                .collect::<Vec<_>>()
                .join("\n");
            let lexed = lex(crate::schema::Lang::Rust, &code);
            read_tokens(&lexed, 0..lexed.toks.len(), &mut reads);
        }
        Region::Code(lexed, range) => read_tokens(lexed, range, &mut reads),
    });
    reads
}

/// Adds to `reads` what the tokens in `range` read: the names in a cfg condition, `env!` / `option_env!` names,
/// and the `OUT_DIR` files included.
fn read_tokens(lx: &Lexed, range: std::ops::Range<usize>, reads: &mut TestReads) {
    for i in range.clone() {
        if lx.kind(i) != Some(TokKind::Ident) {
            continue;
        }
        match lx.s(i) {
            "cfg" | "cfg_attr" => {
                let open = if lx.is(i + 1, b'!') { i + 2 } else { i + 1 };
                let Some(close) = lx.is(open, b'(').then(|| lx.partner(open)).flatten() else {
                    continue;
                };
                // Of `cfg_attr(CONDITION, ATTRIBUTES)`, the condition: up to its first comma at depth one.
                let mut end = close;
                if lx.s(i) == "cfg_attr" {
                    let mut j = open + 1;
                    while j < close {
                        if lx.is(j, b',') {
                            end = j;
                            break;
                        }
                        j = lx.partner(j).filter(|p| *p > j).unwrap_or(j) + 1;
                    }
                }
                reads.cfgs.extend(
                    (open + 1..end)
                        .filter(|&j| lx.kind(j) == Some(TokKind::Ident))
                        .map(|j| lx.s(j))
                        .filter(|name| !BUILTIN.contains(name) && !name.starts_with("target_"))
                        .map(str::to_string),
                );
            }
            "env" | "option_env" if lx.is(i + 1, b'!') && lx.is(i + 2, b'(') => {
                let Some(name) = unquote(lx.s(i + 3)) else { continue };
                if name != OUT_DIR {
                    reads.envs.insert(name.to_string());
                    continue;
                }
                // `concat!(env!("OUT_DIR"), "/cases.rs")`: the file; anything else reads the directory whole.
                let close = lx.partner(i + 2).unwrap_or(i + 4);
                let file = (lx.is(close + 1, b','))
                    .then(|| unquote(lx.s(close + 2)))
                    .flatten()
                    .map(|f| f.trim_start_matches('/').to_string())
                    .filter(|f| !f.is_empty());
                reads.outs.insert(file.unwrap_or_else(|| "*".to_string()));
            }
            _ => {}
        }
    }
}

/// The text of a plain string literal token (`"NAME"`); `None` for anything else.
fn unquote(token: &str) -> Option<&str> {
    token.strip_prefix('"')?.strip_suffix('"')
}

/// What one package's build script told rustc, of what the test side reads: `cfg NAME` (or `cfg NAME="value"`),
/// `env NAME=VALUE` (its output directory written `$OUT_DIR`), `out FILE DIGEST` (`-` for a file it did not write).
pub(crate) struct Told;

impl Told {
    /// The lines of a build script's output (a `build-script-executed` message's `cfgs`, `env` and `out_dir`)
    /// that `reads` reads; `files`: the generated files where the run stands, by path, each with its checksum.
    pub(crate) fn of(
        reads: &TestReads,
        cfgs: &[String],
        env: &[(String, String)],
        out_dir: &str,
        files: &BTreeMap<String, String>,
    ) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        for cfg in cfgs {
            let name = cfg.split('=').next().unwrap_or_default().trim();
            if reads.cfgs.contains(name) {
                out.insert(format!("cfg {cfg}"));
            }
        }
        for (name, value) in env {
            if reads.envs.contains(name) {
                let value = if out_dir.is_empty() {
                    value.clone()
                } else {
                    value.replace(out_dir, "$OUT_DIR")
                };
                out.insert(format!("env {name}={value}"));
            }
        }
        if out_dir.is_empty() {
            return out;
        }
        let within = format!("{}/", out_dir.trim_end_matches('/'));
        for file in &reads.outs {
            if file == "*" {
                out.extend(
                    files
                        .iter()
                        .filter_map(|(path, sum)| path.strip_prefix(&within).map(|name| format!("out {name} {sum}"))),
                );
            } else {
                let sum = files.get(&format!("{within}{file}")).map_or("-", String::as_str);
                out.insert(format!("out {file} {sum}"));
            }
        }
        out
    }

    /// How a line of [`Told::of`] reads in a rejection.
    pub(crate) fn describe(line: &str) -> String {
        match line.split_once(' ') {
            Some(("cfg", cfg)) => format!("the cfg `{cfg}`"),
            Some(("env", env)) => format!("the compile-time variable `{}`", env.split('=').next().unwrap_or(env)),
            Some(("out", out)) => format!(
                "the generated file `{}` in `OUT_DIR`",
                out.split(' ').next().unwrap_or(out)
            ),
            _ => format!("`{line}`"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{TestReads, Told, read_tokens};
    use crate::testsig::lex::lex;

    fn reads_of(code: &str) -> TestReads {
        let lexed = lex(crate::schema::Lang::Rust, code);
        let mut reads = TestReads::default();
        read_tokens(&lexed, 0..lexed.toks.len(), &mut reads);
        reads
    }

    /// Every way a test reads a cfg, an env and a generated file is found; rustc's own cfgs and a `cfg_attr`'s
    /// attributes are not.
    #[test]
    fn the_test_side_reads_are_found_in_every_spelling() {
        let reads = reads_of(
            "#[cfg(lenient)]\nfn a() {}\n#[cfg_attr(all(unix, loose), ignore = \"strict\")]\n#[test]\nfn b() { if cfg!(not(mode = \"x\")) {} }\n#[cfg(all(test, target_os = \"linux\", feature = \"f\"))]\nfn c() { let _ = env!(\"CALC_LIMIT\"); let _ = option_env!(\"CALC_MODE\"); }\ninclude!(concat!(env!(\"OUT_DIR\"), \"/cases.rs\"));\nconst T: &str = include_str!(concat!(env!(\"OUT_DIR\"), \"/table.txt\"));\n",
        );
        let set = |names: &[&str]| {
            names
                .iter()
                .map(|n| (*n).to_string())
                .collect::<std::collections::BTreeSet<_>>()
        };
        assert_eq!(reads.cfgs, set(&["lenient", "loose", "mode"]));
        assert_eq!(reads.envs, set(&["CALC_LIMIT", "CALC_MODE"]));
        assert_eq!(reads.outs, set(&["cases.rs", "table.txt"]));
        assert!(reads_of("#[cfg(test)]\nmod tests { #[test] fn t() { assert!(cfg!(debug_assertions)); } }").is_empty());
    }

    /// Of what a build script told rustc, only what the test side reads is kept.
    #[test]
    fn only_what_the_tests_read_is_kept() {
        let reads = reads_of("#[cfg(lenient)]\nfn a() { env!(\"CALC_MODE\"); }");
        let told = Told::of(
            &reads,
            &["lenient".to_string(), "has_new_api".to_string()],
            &[
                ("CALC_MODE".to_string(), "/t/out/strict".to_string()),
                ("GIT_HASH".to_string(), "abc".to_string()),
            ],
            "/t/out",
            &std::collections::BTreeMap::new(),
        );
        let lines: Vec<&str> = told.iter().map(String::as_str).collect();
        assert_eq!(lines, ["cfg lenient", "env CALC_MODE=$OUT_DIR/strict"]);
    }
}
