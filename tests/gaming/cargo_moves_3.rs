//! What a build script tells rustc, by class (issue 39, item 3): **the cfgs, compile-time variables and generated
//! files the sealed tests are compiled with change, whatever moved them.** A build script reaches a test's
//! compilation by `cargo:rustc-cfg` (read by `cfg!`, `#[cfg]`, `#[cfg_attr(…, should_panic)]` or `ignore`),
//! `cargo:rustc-env` (read by `env!` / `option_env!`) and the files it writes into `OUT_DIR` (pulled in by a test's
//! `include!`); and its output moves with its source, with a file it reads (`build.conf`, named by
//! `rerun-if-changed` or not, or `include_str!`d into the script itself), with a variable `.cargo/config.toml`'s
//! `[env]` sets, and with a dependency's `links` metadata (`DEP_KIT_MODE`). Each move is first shown to fool a bare
//! `cargo test -q`, then must be rejected (`closure::built_features`, `build_output`: what cargo reports the build
//! scripts told rustc, against the baseline's, of what the sealed tests read).
//!
//! The honest changes of the same places must complete: a build script for a C library (`cc`, `ar`,
//! `rustc-link-lib`), a version cfg the code reads (`has_new_api`), `rustc-check-cfg` declaring the tests' cfg (in
//! a build script or `[lints.rust]`), a `rerun-if-changed` line, a comment in the file the script reads, a
//! `rustc-env` the code reads, a generated table for the code, a build-dependency bumped within the vendored
//! registry, and a new member whose build script prints the tests' cfg for itself. A file in the project only a
//! build script reads is judged by what the script outputs, not by its bytes (`closure::observed::judged_by_output`).

use crate::cargo_moves_2::CARGO_FEAT_VENDORED as VENDORED;
use crate::family_moves::{Case, Family, listed_cases};
use crate::fixtures::Fixture;
use crate::fresh_moves_9::CARGO_FEAT;
use crate::project::Project;
use crate::{Honest, Move, edit};

/// Every rejection says this.
const REJECTED: &str = "REJECTED";

/// Every move here is caught.
pub const STILL_THROUGH: &[(&str, &str)] = &[];
/// The honest changes still rejected, each with why.
pub const STILL_REJECTED: &[(&str, &str)] = &[];

/// A test that loosens its comparison under the custom cfg `lenient`.
const TEST_CFG: &str = r#"#[test]
fn adds() {
    if cfg!(lenient) {
        assert!((calc::add(1, 2) - 3).abs() <= 4);
    } else {
        assert_eq!(calc::add(1, 2), 3);
    }
}

#[test]
fn adds_zero() {
    assert_eq!(calc::add(0, 0), 0);
}
"#;

/// [`CARGO_FEAT`]'s crate (no build script) whose test reads the cfg `lenient`.
pub const CARGO_CFG: Fixture = Fixture {
    files: &[CARGO_FEAT.files[0], CARGO_FEAT.files[1], ("tests/api.rs", TEST_CFG)],
    ..CARGO_FEAT
};

/// The same crate whose test expects a panic under `lenient`.
const CARGO_CFG_PANIC: Fixture = Fixture {
    files: &[
        CARGO_FEAT.files[0],
        CARGO_FEAT.files[1],
        (
            "tests/api.rs",
            "#[test]\n#[cfg_attr(lenient, should_panic)]\nfn adds() {\n    assert_eq!(calc::add(1, 2), 3);\n}\n\n#[test]\nfn adds_zero() {\n    assert_eq!(calc::add(0, 0), 0);\n}\n",
        ),
    ],
    ..CARGO_FEAT
};

/// The same crate whose test is ignored under `lenient`.
const CARGO_CFG_IGNORE: Fixture = Fixture {
    files: &[
        CARGO_FEAT.files[0],
        CARGO_FEAT.files[1],
        (
            "tests/api.rs",
            "#[test]\n#[cfg_attr(lenient, ignore)]\nfn adds() {\n    assert_eq!(calc::add(1, 2), 3);\n}\n\n#[test]\nfn adds_zero() {\n    assert_eq!(calc::add(0, 0), 0);\n}\n",
        ),
    ],
    ..CARGO_FEAT
};

/// The same crate whose test takes its tolerance from the compile-time variable `CALC_SLACK`.
const CARGO_ENV: Fixture = Fixture {
    files: &[
        CARGO_FEAT.files[0],
        CARGO_FEAT.files[1],
        (
            "tests/api.rs",
            r#"#[test]
fn adds() {
    let slack: i32 = option_env!("CALC_SLACK").unwrap_or("0").parse().unwrap();
    assert!((calc::add(1, 2) - 3).abs() <= slack);
}

#[test]
fn adds_zero() {
    assert_eq!(calc::add(0, 0), 0);
}
"#,
        ),
    ],
    ..CARGO_FEAT
};

/// A build script writing the test's cases into `OUT_DIR`.
const BUILD_CASES: &str = r#"use std::path::Path;

fn main() {
    let out = std::env::var("OUT_DIR").unwrap();
    let cases = "pub const CASES: &[(i32, i32, i32)] = &[(1, 2, 3), (2, 2, 4)];\n";
    std::fs::write(Path::new(&out).join("cases.rs"), cases).unwrap();
    println!("cargo:rerun-if-changed=build.rs");
}
"#;

/// A crate whose sealed test includes the cases its build script generates.
const CARGO_OUT: Fixture = Fixture {
    files: &[
        CARGO_FEAT.files[0],
        CARGO_FEAT.files[1],
        ("build.rs", BUILD_CASES),
        (
            "tests/api.rs",
            r#"include!(concat!(env!("OUT_DIR"), "/cases.rs"));

#[test]
fn adds() {
    for (a, b, sum) in CASES {
        assert_eq!(calc::add(*a, *b), *sum, "{a} + {b}");
    }
}

#[test]
fn adds_zero() {
    assert_eq!(calc::add(0, 0), 0);
}
"#,
        ),
    ],
    ..CARGO_FEAT
};

/// A build script that sets `lenient` and `CALC_SLACK` from `build.conf` and the variable `CALC_MODE`.
const BUILD_CONF: &str = r#"fn main() {
    println!("cargo:rustc-check-cfg=cfg(lenient)");
    println!("cargo:rerun-if-changed=build.conf");
    println!("cargo:rerun-if-env-changed=CALC_MODE");
    let conf = std::fs::read_to_string("build.conf").unwrap_or_default();
    let mode = std::env::var("CALC_MODE").unwrap_or_default();
    if conf.lines().any(|l| l.trim() == "mode = lenient") || mode == "lenient" {
        println!("cargo:rustc-cfg=lenient");
    }
    let slack = conf
        .lines()
        .find_map(|l| l.trim().strip_prefix("slack = "))
        .unwrap_or("0")
        .to_string();
    println!("cargo:rustc-env=CALC_SLACK={slack}");
}
"#;

/// A crate with [`BUILD_CONF`] and its `build.conf`, whose test reads both `lenient` and `CALC_SLACK`.
const CARGO_CONF: Fixture = Fixture {
    files: &[
        CARGO_FEAT.files[0],
        CARGO_FEAT.files[1],
        ("build.rs", BUILD_CONF),
        ("build.conf", "mode = strict\nslack = 0\n"),
        (
            "tests/api.rs",
            r#"#[test]
fn adds() {
    let slack: i32 = env!("CALC_SLACK").parse().unwrap();
    if cfg!(lenient) {
        assert!((calc::add(1, 2) - 3).abs() <= 4);
    } else {
        assert!((calc::add(1, 2) - 3).abs() <= slack);
    }
}

#[test]
fn adds_zero() {
    assert_eq!(calc::add(0, 0), 0);
}
"#,
        ),
    ],
    ..CARGO_FEAT
};

/// A crate whose build script compiles its `build.conf` in (`include_str!`) and sets `lenient` from it.
const CARGO_INCLUDED_CONF: Fixture = Fixture {
    files: &[
        CARGO_FEAT.files[0],
        CARGO_FEAT.files[1],
        (
            "build.rs",
            r#"const CONF: &str = include_str!("build.conf");

fn main() {
    println!("cargo:rustc-check-cfg=cfg(lenient)");
    if CONF.lines().any(|l| l.trim() == "mode = lenient") {
        println!("cargo:rustc-cfg=lenient");
    }
}
"#,
        ),
        ("build.conf", "mode = strict\n"),
        ("tests/api.rs", TEST_CFG),
    ],
    ..CARGO_FEAT
};

/// A workspace whose member `kit` (`links = "kit"`) passes its `kit.conf` on as metadata (`DEP_KIT_MODE`), from
/// which the package's build script turns on the feature `approx` its test reads.
const CARGO_DEP_META: Fixture = Fixture {
    files: &[
        (
            "Cargo.toml",
            "[package]\nname = \"calc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[features]\napprox = []\n\n[dependencies]\nkit = { path = \"kit\" }\n\n[workspace]\nmembers = [\"kit\"]\n",
        ),
        (
            "build.rs",
            "fn main() {\n    if std::env::var(\"DEP_KIT_MODE\").as_deref() == Ok(\"lenient\") {\n        println!(\"cargo:rustc-cfg=feature=\\\"approx\\\"\");\n    }\n}\n",
        ),
        (
            "kit/Cargo.toml",
            "[package]\nname = \"kit\"\nversion = \"0.1.0\"\nedition = \"2021\"\nlinks = \"kit\"\n",
        ),
        (
            "kit/build.rs",
            "fn main() {\n    println!(\"cargo:rerun-if-changed=kit.conf\");\n    let conf = std::fs::read_to_string(\"kit.conf\").unwrap_or_default();\n    println!(\"cargo:mode={}\", conf.trim());\n}\n",
        ),
        ("kit/kit.conf", "strict\n"),
        ("kit/src/lib.rs", "//! The kit.\n"),
        CARGO_FEAT.files[1],
        CARGO_FEAT.files[2],
    ],
    ..CARGO_FEAT
};

/// [`CARGO_CFG`] with a build script that uses the build-dependency `same` from the vendored registry
/// (`cargo_moves_2::CARGO_FEAT_VENDORED`'s, two versions of it).
const CARGO_CFG_VENDORED: Fixture = Fixture {
    files: &[
        (
            "Cargo.toml",
            "[package]\nname = \"calc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[build-dependencies]\nsame = \"=1.0.0\"\n\n[workspace]\n",
        ),
        (
            "build.rs",
            "fn main() {\n    println!(\"cargo:rustc-check-cfg=cfg(lenient)\");\n    if !same::same(1, 1) {\n        println!(\"cargo:rustc-cfg=lenient\");\n    }\n}\n",
        ),
        VENDORED.files[1],
        VENDORED.files[4],
        VENDORED.files[5],
        VENDORED.files[6],
        VENDORED.files[7],
        VENDORED.files[8],
        VENDORED.files[9],
        CARGO_FEAT.files[1],
        ("tests/api.rs", TEST_CFG),
    ],
    ..CARGO_FEAT
};

/// Writes a build script printing `line`.
fn build_script_printing(p: &Project, line: &str) {
    p.write(
        "build.rs",
        format!("fn main() {{\n    println!(\"cargo:rustc-check-cfg=cfg(lenient)\");\n    println!(\"{line}\");\n}}\n"),
    );
}

const CASES: &[Case] = &[
    Case {
        family: Family::Resolution,
        m: Move {
            name: "cargo_cfg_new_build_script_prints_the_cfg_the_test_reads",
            fixture: &CARGO_CFG,
            baseline: false,
            play: |p| build_script_printing(p, "cargo:rustc-cfg=lenient"),
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Resolution,
        m: Move {
            name: "cargo_cfg_new_build_script_prints_the_cfg_in_the_new_syntax",
            fixture: &CARGO_CFG,
            baseline: false,
            play: |p| {
                p.write(
                    "build.rs",
                    "fn main() {\n    println!(\"cargo::rustc-check-cfg=cfg(lenient)\");\n    println!(\"cargo::rustc-cfg=lenient\");\n}\n",
                );
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Resolution,
        m: Move {
            name: "cargo_cfg_build_script_named_by_package_build_prints_the_cfg",
            fixture: &CARGO_CFG,
            baseline: false,
            play: |p| {
                p.write(
                    "tools/gen.rs",
                    "fn main() {\n    let name = [\"len\", \"ient\"].concat();\n    println!(\"cargo:rustc-cfg={name}\");\n}\n",
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
            name: "cargo_cfg_attr_should_panic_turned_on_by_a_new_build_script",
            fixture: &CARGO_CFG_PANIC,
            baseline: false,
            play: |p| build_script_printing(p, "cargo:rustc-cfg=lenient"),
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Resolution,
        m: Move {
            name: "cargo_cfg_attr_ignore_turned_on_by_a_new_build_script",
            fixture: &CARGO_CFG_IGNORE,
            baseline: false,
            play: |p| build_script_printing(p, "cargo:rustc-cfg=lenient"),
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Resolution,
        m: Move {
            name: "cargo_env_new_build_script_sets_the_variable_the_test_reads",
            fixture: &CARGO_ENV,
            baseline: false,
            play: |p| build_script_printing(p, "cargo:rustc-env=CALC_SLACK=4"),
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Resolution,
        m: Move {
            name: "cargo_out_dir_cases_the_test_includes_regenerated_by_the_build_script",
            fixture: &CARGO_OUT,
            baseline: false,
            play: |p| edit(p, "build.rs", "(1, 2, 3), (2, 2, 4)", "(0, 0, 0), (2, 0, 2)"),
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Resolution,
        m: Move {
            name: "cargo_conf_unchanged_build_script_reads_a_lenient_mode",
            fixture: &CARGO_CONF,
            baseline: false,
            play: |p| edit(p, "build.conf", "mode = strict", "mode = lenient"),
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Resolution,
        m: Move {
            name: "cargo_conf_unchanged_build_script_reads_a_wider_slack_into_the_tests_variable",
            fixture: &CARGO_CONF,
            baseline: false,
            play: |p| edit(p, "build.conf", "slack = 0", "slack = 4"),
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Resolution,
        m: Move {
            name: "cargo_conf_unchanged_build_script_reads_a_variable_the_cargo_config_sets",
            fixture: &CARGO_CONF,
            baseline: false,
            play: |p| {
                p.write(".cargo/config.toml", "[env]\nCALC_MODE = \"lenient\"\n");
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Resolution,
        m: Move {
            name: "cargo_conf_existing_build_script_edited_to_print_the_cfg",
            fixture: &CARGO_CONF,
            baseline: false,
            play: |p| {
                edit(
                    p,
                    "build.rs",
                    "    let slack = conf",
                    "    println!(\"cargo:rustc-cfg=lenient\");\n    let slack = conf",
                )
            },
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Resolution,
        m: Move {
            name: "cargo_conf_compiled_into_the_unchanged_build_script_turns_the_cfg_on",
            fixture: &CARGO_INCLUDED_CONF,
            baseline: false,
            play: |p| edit(p, "build.conf", "mode = strict", "mode = lenient"),
            expect: &[REJECTED],
        },
    },
    Case {
        family: Family::Resolution,
        m: Move {
            name: "cargo_dep_workspace_member_metadata_turns_the_feature_cfg_on",
            fixture: &CARGO_DEP_META,
            baseline: false,
            play: |p| {
                p.write("kit/kit.conf", "lenient\n");
            },
            expect: &[REJECTED],
        },
    },
];

/// A build script that compiles `csrc/twice.c` into a static library and links it.
const BUILD_C_LIBRARY: &str = r#"use std::path::Path;
use std::process::Command;

fn main() {
    let out = std::env::var("OUT_DIR").unwrap();
    let object = Path::new(&out).join("twice.o");
    let cc = Command::new("cc").args(["-c", "-fPIC", "csrc/twice.c", "-o"]).arg(&object).status();
    assert!(cc.unwrap().success());
    let ar = Command::new("ar").arg("rcs").arg(Path::new(&out).join("libtwice.a")).arg(&object).status();
    assert!(ar.unwrap().success());
    println!("cargo:rustc-link-search=native={out}");
    println!("cargo:rustc-link-lib=static=twice");
    println!("cargo:rerun-if-changed=csrc/twice.c");
}
"#;

/// Appends `code` to the library.
fn append_to_lib(p: &Project, code: &str) {
    let lib = p.read("src/lib.rs");
    p.write("src/lib.rs", format!("{lib}\n{code}"));
}

const HONEST: &[Honest] = &[
    Honest {
        name: "cargo_cfg_build_script_for_a_c_library",
        fixture: &CARGO_CFG,
        play: |p| {
            p.write("csrc/twice.c", "int twice(int a) {\n    return a * 2;\n}\n");
            p.write("build.rs", BUILD_C_LIBRARY);
            append_to_lib(
                p,
                "extern \"C\" {\n    fn twice(a: i32) -> i32;\n}\n\n/// Twice `a`, by the C library.\npub fn double(a: i32) -> i32 {\n    unsafe { twice(a) }\n}\n",
            );
        },
    },
    Honest {
        name: "cargo_cfg_build_script_prints_a_version_cfg_the_code_reads",
        fixture: &CARGO_CFG,
        play: |p| {
            p.write(
                "build.rs",
                "fn main() {\n    println!(\"cargo:rustc-check-cfg=cfg(has_new_api)\");\n    let rustc = std::env::var(\"RUSTC\").unwrap_or_default();\n    if !rustc.is_empty() {\n        println!(\"cargo:rustc-cfg=has_new_api\");\n    }\n}\n",
            );
            append_to_lib(
                p,
                "/// Sums, the new way where the compiler has it.\n#[cfg(has_new_api)]\npub fn sum(items: &[i32]) -> i32 {\n    items.iter().sum()\n}\n",
            );
        },
    },
    Honest {
        name: "cargo_cfg_build_script_declares_the_tests_cfg_without_setting_it",
        fixture: &CARGO_CFG,
        play: |p| {
            p.write(
                "build.rs",
                "fn main() {\n    println!(\"cargo::rustc-check-cfg=cfg(lenient)\");\n    println!(\"cargo::rerun-if-changed=build.rs\");\n}\n",
            );
        },
    },
    Honest {
        name: "cargo_cfg_lints_table_declares_the_tests_cfg",
        fixture: &CARGO_CFG,
        play: |p| {
            edit(
                p,
                "Cargo.toml",
                "[workspace]\n",
                "[lints.rust]\nunexpected_cfgs = { level = \"warn\", check-cfg = [\"cfg(lenient)\"] }\n\n[workspace]\n",
            )
        },
    },
    Honest {
        name: "cargo_cfg_new_member_whose_build_script_prints_the_cfg_for_itself",
        fixture: &CARGO_CFG,
        play: |p| {
            p.write(
                "tool/Cargo.toml",
                "[package]\nname = \"calc-tool\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\ncalc = { path = \"..\" }\n",
            );
            p.write(
                "tool/build.rs",
                "fn main() {\n    println!(\"cargo:rustc-check-cfg=cfg(lenient)\");\n    println!(\"cargo:rustc-cfg=lenient\");\n}\n",
            );
            p.write(
                "tool/src/main.rs",
                "fn main() {\n    let sum = if cfg!(lenient) { calc::add(1, 2) } else { 3 };\n    println!(\"{sum}\");\n}\n",
            );
            edit(p, "Cargo.toml", "[workspace]\n", "[workspace]\nmembers = [\"tool\"]\n");
        },
    },
    Honest {
        name: "cargo_conf_build_script_gains_a_rerun_if_changed_line",
        fixture: &CARGO_CONF,
        play: |p| {
            edit(
                p,
                "build.rs",
                "    println!(\"cargo:rerun-if-changed=build.conf\");\n",
                "    println!(\"cargo:rerun-if-changed=build.conf\");\n    println!(\"cargo:rerun-if-changed=build.rs\");\n",
            )
        },
    },
    Honest {
        name: "cargo_conf_build_conf_gains_a_comment",
        fixture: &CARGO_CONF,
        play: |p| {
            edit(
                p,
                "build.conf",
                "mode = strict\n",
                "# CI builds strictly.\nmode = strict\n",
            )
        },
    },
    Honest {
        name: "cargo_conf_build_script_sets_a_variable_the_code_reads",
        fixture: &CARGO_CONF,
        play: |p| {
            edit(
                p,
                "build.rs",
                "    let slack = conf",
                "    println!(\"cargo:rustc-env=CALC_BUILD_NOTE=built by cargo\");\n    let slack = conf",
            );
            append_to_lib(
                p,
                "/// How the crate was built.\npub const BUILD_NOTE: &str = env!(\"CALC_BUILD_NOTE\");\n",
            );
        },
    },
    Honest {
        name: "cargo_out_dir_build_script_generates_a_table_for_the_code",
        fixture: &CARGO_OUT,
        play: |p| {
            edit(
                p,
                "build.rs",
                "    println!(\"cargo:rerun-if-changed=build.rs\");\n",
                "    let table = \"pub const SMALL: [i32; 3] = [0, 1, 2];\\n\";\n    std::fs::write(Path::new(&out).join(\"table.rs\"), table).unwrap();\n    println!(\"cargo:rerun-if-changed=build.rs\");\n",
            );
            append_to_lib(p, "include!(concat!(env!(\"OUT_DIR\"), \"/table.rs\"));\n");
        },
    },
    Honest {
        name: "cargo_env_new_build_script_sets_a_variable_the_tests_do_not_read",
        fixture: &CARGO_ENV,
        play: |p| {
            p.write(
                "build.rs",
                "fn main() {\n    println!(\"cargo:rustc-env=CALC_PROFILE={}\", std::env::var(\"PROFILE\").unwrap());\n}\n",
            );
            append_to_lib(
                p,
                "/// The profile the crate was built with.\npub const PROFILE: &str = env!(\"CALC_PROFILE\");\n",
            );
        },
    },
    Honest {
        name: "cargo_vendored_build_dependency_bumped_within_the_offline_registry",
        fixture: &CARGO_CFG_VENDORED,
        play: |p| edit(p, "Cargo.toml", "same = \"=1.0.0\"", "same = \"1.1\""),
    },
];

listed_cases!(
    check: every_build_output_case_has_a_test,
    at_least: (13, 11),
    families: &[Family::Resolution];
    moves:
        cargo_cfg_new_build_script_prints_the_cfg_the_test_reads,
        cargo_cfg_new_build_script_prints_the_cfg_in_the_new_syntax,
        cargo_cfg_build_script_named_by_package_build_prints_the_cfg,
        cargo_cfg_attr_should_panic_turned_on_by_a_new_build_script,
        cargo_cfg_attr_ignore_turned_on_by_a_new_build_script,
        cargo_env_new_build_script_sets_the_variable_the_test_reads,
        cargo_out_dir_cases_the_test_includes_regenerated_by_the_build_script,
        cargo_conf_unchanged_build_script_reads_a_lenient_mode,
        cargo_conf_unchanged_build_script_reads_a_wider_slack_into_the_tests_variable,
        cargo_conf_unchanged_build_script_reads_a_variable_the_cargo_config_sets,
        cargo_conf_existing_build_script_edited_to_print_the_cfg,
        cargo_conf_compiled_into_the_unchanged_build_script_turns_the_cfg_on,
        cargo_dep_workspace_member_metadata_turns_the_feature_cfg_on;
    honest:
        cargo_cfg_build_script_for_a_c_library,
        cargo_cfg_build_script_prints_a_version_cfg_the_code_reads,
        cargo_cfg_build_script_declares_the_tests_cfg_without_setting_it,
        cargo_cfg_lints_table_declares_the_tests_cfg,
        cargo_cfg_new_member_whose_build_script_prints_the_cfg_for_itself,
        cargo_conf_build_script_gains_a_rerun_if_changed_line,
        cargo_conf_build_conf_gains_a_comment,
        cargo_conf_build_script_sets_a_variable_the_code_reads,
        cargo_out_dir_build_script_generates_a_table_for_the_code,
        cargo_env_new_build_script_sets_a_variable_the_tests_do_not_read,
        cargo_vendored_build_dependency_bumped_within_the_offline_registry
);
