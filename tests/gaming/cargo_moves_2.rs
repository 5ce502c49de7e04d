//! Cargo's features and cfgs, a second pass by class (issue 39, item 3): **the set of features and cfgs the test
//! units are compiled with changes, by a path the manifest's reading does not follow.** The reading of
//! `Cargo.toml` (`closure::cargo_manifest`) follows one file's `[features]` and dependency tables; cargo turns a
//! feature on by more paths than that: another member's manifest unified into the test build, a `[patch]` or
//! `[workspace.dependencies]` entry, a `default-features` flip in a member, a `[target.'cfg(…)']` table, a build
//! script's printed `rustc-cfg`, and the `rustflags` of Cargo's configuration. Each move is first shown to fool a
//! bare `cargo test -q` (the sealed test of [`CARGO_FEAT`] passes with the bug when `approx` is on), then must be
//! rejected against the defaults (`closure::built_features` judges what cargo resolves, `closure::derive::cargo`
//! seals the configuration's `rustflags`).
//!
//! The honest changes of the same places must complete: a new feature no test reads, a new member (with its own
//! feature of the package, one the tests do not read), a build script that generates code into `OUT_DIR` or
//! prints a cfg no test reads, a dependency's version bumped within the offline (vendored) registry, and a
//! `[profile.test]` opt-level. The two moves `fresh_moves_9.rs` named first stay there too.

use crate::family_moves::{Case, Family, listed_cases};
use crate::fixtures::Fixture;
use crate::fresh_moves_9::CARGO_FEAT;
use crate::project::Project;
use crate::{Honest, Move, edit};

/// Every rejection says this.
const REJECTED: &str = "REJECTED";

/// Every move here is caught.
pub const STILL_THROUGH: &[(&str, &str)] = &[];
/// Every honest change here completes.
pub const STILL_REJECTED: &[(&str, &str)] = &[];

/// The manifest of a member `testkit` whose dependency on the package turns `features` on.
fn testkit_turning_on(p: &Project, features: &str) {
    p.write(
        "testkit/Cargo.toml",
        format!(
            "[package]\nname = \"testkit\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\ncalc = {{ path = \"..\", features = [{features}] }}\n"
        ),
    );
    p.write("testkit/src/lib.rs", "//! Helpers for the tests.\n");
}

/// A vendored copy of the crate `same` at `version` (a directory source, as `cargo vendor` leaves it).
macro_rules! same_at {
    ($version:literal) => {
        [
            (
                concat!("vendor/same-", $version, "/Cargo.toml"),
                concat!(
                    "[package]\nname = \"same\"\nversion = \"",
                    $version,
                    "\"\nedition = \"2021\"\n"
                ),
            ),
            (
                concat!("vendor/same-", $version, "/src/lib.rs"),
                "pub fn same(a: i32, b: i32) -> bool {\n    a == b\n}\n",
            ),
            (
                concat!("vendor/same-", $version, "/.cargo-checksum.json"),
                "{\"files\":{},\"package\":null}\n",
            ),
        ]
    };
}

const SAME_100: [(&str, &str); 3] = same_at!("1.0.0");
const SAME_110: [(&str, &str); 3] = same_at!("1.1.0");

/// [`CARGO_FEAT`] with a dev-dependency `same` from crates.io, replaced by a vendored directory source holding
/// two versions of it (the offline registry of a project that vendors).
pub const CARGO_FEAT_VENDORED: Fixture = Fixture {
    files: &[
        (
            "Cargo.toml",
            "[package]\nname = \"calc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[features]\napprox = []\n\n[dev-dependencies]\nsame = \"=1.0.0\"\n\n[workspace]\n",
        ),
        (
            ".cargo/config.toml",
            "[source.crates-io]\nreplace-with = \"vendored\"\n\n[source.vendored]\ndirectory = \"vendor\"\n",
        ),
        CARGO_FEAT.files[1],
        CARGO_FEAT.files[2],
        SAME_100[0],
        SAME_100[1],
        SAME_100[2],
        SAME_110[0],
        SAME_110[1],
        SAME_110[2],
    ],
    ..CARGO_FEAT
};

/// [`CARGO_FEAT`] with a member `testkit` the tests dev-depend on without its default features, whose default
/// feature turns the package's `approx` on.
pub const CARGO_FEAT_KIT: Fixture = Fixture {
    files: &[
        (
            "Cargo.toml",
            "[package]\nname = \"calc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[features]\napprox = []\n\n[dev-dependencies]\ntestkit = { path = \"testkit\", default-features = false }\n\n[workspace]\n",
        ),
        (
            "testkit/Cargo.toml",
            "[package]\nname = \"testkit\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[features]\ndefault = [\"lenient\"]\nlenient = [\"calc/approx\"]\n\n[dependencies]\ncalc = { path = \"..\" }\n",
        ),
        ("testkit/src/lib.rs", "//! Helpers for the tests.\n"),
        CARGO_FEAT.files[1],
        CARGO_FEAT.files[2],
    ],
    ..CARGO_FEAT
};

const CASES: &[Case] = &[
    Case {
        family: Family::Resolution,
        m: Move {
            name: "cargo_feat_target_table_dev_dependency_on_a_new_member_that_turns_the_feature_on",
            fixture: &CARGO_FEAT,
            baseline: false,
            play: |p| {
                testkit_turning_on(p, "\"approx\"");
                edit(
                    p,
                    "Cargo.toml",
                    "[workspace]\n",
                    "[target.'cfg(unix)'.dev-dependencies]\ntestkit = { path = \"testkit\" }\n\n[workspace]\n",
                );
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Resolution,
        m: Move {
            name: "cargo_feat_workspace_dependency_on_itself_inherited_as_a_dev_dependency",
            fixture: &CARGO_FEAT,
            baseline: false,
            play: |p| {
                edit(
                    p,
                    "Cargo.toml",
                    "[workspace]\n",
                    "[dev-dependencies]\ncalc = { workspace = true }\n\n[workspace]\n\n[workspace.dependencies]\ncalc = { path = \".\", features = [\"approx\"] }\n",
                );
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Resolution,
        m: Move {
            name: "cargo_feat_vendored_patch_of_a_dev_dependency_with_a_copy_that_turns_the_feature_on",
            fixture: &CARGO_FEAT_VENDORED,
            baseline: false,
            play: |p| {
                p.write(
                    "same-local/Cargo.toml",
                    "[package]\nname = \"same\"\nversion = \"1.0.0\"\nedition = \"2021\"\n\n[dependencies]\ncalc = { path = \"..\", features = [\"approx\"] }\n",
                );
                p.write("same-local/src/lib.rs", SAME_100[1].1);
                let manifest = p.read("Cargo.toml");
                p.write(
                    "Cargo.toml",
                    format!("{manifest}\n[patch.crates-io]\nsame = {{ path = \"same-local\" }}\n"),
                );
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Resolution,
        m: Move {
            name: "cargo_feat_kit_default_features_flipped_on_in_the_dev_dependency",
            fixture: &CARGO_FEAT_KIT,
            baseline: false,
            play: |p| edit(p, "Cargo.toml", ", default-features = false", ""),
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Resolution,
        m: Move {
            name: "cargo_feat_kit_member_turns_the_feature_on_in_its_own_dependency",
            fixture: &CARGO_FEAT_KIT,
            baseline: false,
            play: |p| {
                edit(
                    p,
                    "testkit/Cargo.toml",
                    "calc = { path = \"..\" }",
                    "calc = { path = \"..\", features = [\"approx\"] }",
                )
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Resolution,
        m: Move {
            name: "cargo_feat_build_script_prints_the_feature_cfg_in_the_new_syntax",
            fixture: &CARGO_FEAT,
            baseline: false,
            play: |p| {
                p.write(
                    "build.rs",
                    "fn main() {\n    println!(\"cargo::rustc-cfg=feature=\\\"approx\\\"\");\n}\n",
                );
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Resolution,
        m: Move {
            name: "cargo_feat_build_script_named_in_the_manifest_prints_the_feature_cfg",
            fixture: &CARGO_FEAT,
            baseline: false,
            play: |p| {
                p.write(
                    "tools/gen.rs",
                    "fn main() {\n    let cfg = [\"feature\", \"=\\\"approx\\\"\"].concat();\n    println!(\"cargo:rustc-cfg={cfg}\");\n}\n",
                );
                edit(
                    p,
                    "Cargo.toml",
                    "edition = \"2021\"\n",
                    "edition = \"2021\"\nbuild = \"tools/gen.rs\"\n",
                );
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Resolution,
        m: Move {
            name: "cargo_feat_config_build_rustflags_set_the_feature_cfg",
            fixture: &CARGO_FEAT,
            baseline: false,
            play: |p| {
                p.write(
                    ".cargo/config.toml",
                    "[build]\nrustflags = [\"--cfg\", \"feature=\\\"approx\\\"\"]\n",
                );
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Resolution,
        m: Move {
            name: "cargo_feat_config_target_rustflags_set_the_feature_cfg",
            fixture: &CARGO_FEAT,
            baseline: false,
            play: |p| {
                p.write(
                    ".cargo/config.toml",
                    "[target.'cfg(unix)']\nrustflags = [\"--cfg\", \"feature=\\\"approx\\\"\"]\n",
                );
            },
            expect: &[REJECTED],
        },
    },
];

const HONEST: &[Honest] = &[
    Honest {
        name: "cargo_feat_new_feature_no_test_reads_with_code_behind_it",
        fixture: &CARGO_FEAT,
        play: |p| {
            edit(p, "Cargo.toml", "approx = []\n", "approx = []\nfast = []\n");
            let code = p.read("src/lib.rs");
            p.write(
                "src/lib.rs",
                format!("{code}\n/// Twice, the fast way.\n#[cfg(feature = \"fast\")]\npub fn twice(a: i32) -> i32 {{\n    a << 1\n}}\n"),
            );
        },
    },
    Honest {
        name: "cargo_feat_new_member_with_tests_of_its_own",
        fixture: &CARGO_FEAT,
        play: |p| {
            p.write(
                "cli/Cargo.toml",
                "[package]\nname = \"calc-cli\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\ncalc = { path = \"..\" }\n",
            );
            p.write(
                "cli/src/main.rs",
                "fn main() {\n    println!(\"{}\", calc::add(1, 2));\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        assert_eq!(calc::add(2, 2), 4);\n    }\n}\n",
            );
            edit(p, "Cargo.toml", "[workspace]\n", "[workspace]\nmembers = [\"cli\"]\n");
        },
    },
    Honest {
        name: "cargo_feat_new_member_dev_dependency_turning_on_a_feature_no_test_reads",
        fixture: &CARGO_FEAT,
        play: |p| {
            edit(p, "Cargo.toml", "approx = []\n", "approx = []\nfast = []\n");
            testkit_turning_on(p, "\"fast\"");
            edit(
                p,
                "Cargo.toml",
                "[workspace]\n",
                "[dev-dependencies]\ntestkit = { path = \"testkit\" }\n\n[workspace]\n",
            );
        },
    },
    Honest {
        name: "cargo_feat_build_script_generates_code_into_out_dir",
        fixture: &CARGO_FEAT,
        play: |p| {
            p.write(
                "build.rs",
                "use std::path::Path;\n\nfn main() {\n    let out = std::env::var(\"OUT_DIR\").unwrap();\n    std::fs::write(Path::new(&out).join(\"table.rs\"), \"pub const SMALL: [i32; 3] = [0, 1, 2];\\n\").unwrap();\n    println!(\"cargo:rerun-if-changed=build.rs\");\n}\n",
            );
            let code = p.read("src/lib.rs");
            p.write(
                "src/lib.rs",
                format!("{code}\ninclude!(concat!(env!(\"OUT_DIR\"), \"/table.rs\"));\n"),
            );
        },
    },
    Honest {
        name: "cargo_feat_build_script_prints_a_cfg_no_test_reads",
        fixture: &CARGO_FEAT,
        play: |p| {
            p.write(
                "build.rs",
                "fn main() {\n    println!(\"cargo:rustc-check-cfg=cfg(has_fast_path)\");\n    println!(\"cargo:rustc-cfg=has_fast_path\");\n}\n",
            );
            let code = p.read("src/lib.rs");
            p.write(
                "src/lib.rs",
                format!("{code}\n/// Present where the build script found a fast path.\n#[cfg(has_fast_path)]\npub const FAST: bool = true;\n"),
            );
        },
    },
    Honest {
        name: "cargo_feat_vendored_dev_dependency_bumped_within_the_offline_registry",
        fixture: &CARGO_FEAT_VENDORED,
        play: |p| edit(p, "Cargo.toml", "same = \"=1.0.0\"", "same = \"1.1\""),
    },
    Honest {
        name: "cargo_feat_test_profile_opt_level_raised",
        fixture: &CARGO_FEAT,
        play: |p| {
            edit(
                p,
                "Cargo.toml",
                "[workspace]\n",
                "[workspace]\n\n[profile.test]\nopt-level = 1\n",
            )
        },
    },
    Honest {
        name: "cargo_feat_kit_member_gains_a_feature_no_test_reads",
        fixture: &CARGO_FEAT_KIT,
        play: |p| {
            edit(
                p,
                "testkit/Cargo.toml",
                "lenient = [\"calc/approx\"]\n",
                "lenient = [\"calc/approx\"]\nquick = []\n",
            );
        },
    },
];

listed_cases!(
    check: every_second_cargo_features_case_has_a_test,
    at_least: (9, 8),
    families: &[Family::Resolution];
    moves:
        cargo_feat_target_table_dev_dependency_on_a_new_member_that_turns_the_feature_on,
        cargo_feat_workspace_dependency_on_itself_inherited_as_a_dev_dependency,
        cargo_feat_vendored_patch_of_a_dev_dependency_with_a_copy_that_turns_the_feature_on,
        cargo_feat_kit_default_features_flipped_on_in_the_dev_dependency,
        cargo_feat_kit_member_turns_the_feature_on_in_its_own_dependency,
        cargo_feat_build_script_prints_the_feature_cfg_in_the_new_syntax,
        cargo_feat_build_script_named_in_the_manifest_prints_the_feature_cfg,
        cargo_feat_config_build_rustflags_set_the_feature_cfg,
        cargo_feat_config_target_rustflags_set_the_feature_cfg;
    honest:
        cargo_feat_new_feature_no_test_reads_with_code_behind_it,
        cargo_feat_new_member_with_tests_of_its_own,
        cargo_feat_new_member_dev_dependency_turning_on_a_feature_no_test_reads,
        cargo_feat_build_script_generates_code_into_out_dir,
        cargo_feat_build_script_prints_a_cfg_no_test_reads,
        cargo_feat_vendored_dev_dependency_bumped_within_the_offline_registry,
        cargo_feat_test_profile_opt_level_raised,
        cargo_feat_kit_member_gains_a_feature_no_test_reads
);
