//! `build.rs`, which declares the ecosystems' folders from their registration (`src/ecosystem/ECOSYSTEMS`), run
//! on scratch trees: what it writes for a registration, and the one-line error for each way the registration and
//! the folders can disagree.

use std::path::{Path, PathBuf};

#[allow(dead_code)] // its `main` is the build script's; the tests call `generate`
#[path = "../../build.rs"]
mod build;

/// Folders by name, each with its files.
type Folders<'a> = &'a [(&'a str, &'a [&'a str])];

/// A scratch source tree with `folders` (each with its files) and the registration `lines`.
struct Tree(PathBuf);

impl Tree {
    /// Each tree has a directory of its own (tests run in parallel and two cases may share a name).
    fn new(name: &str, folders: Folders, lines: &str) -> Tree {
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let serial = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let root = std::env::temp_dir().join(format!("loopgate-registration-{name}-{}-{serial}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        for (folder, files) in folders {
            for file in *files {
                let path = root.join("src/ecosystem").join(folder).join(file);
                std::fs::create_dir_all(path.parent().expect("a file in a folder")).expect("create a folder");
                std::fs::write(&path, "").expect("write a folder's file");
            }
        }
        std::fs::write(root.join("src/ecosystem/ECOSYSTEMS"), lines).expect("write the registration");
        Tree(root)
    }

    fn generate(&self) -> Result<(), String> {
        build::generate(&self.0, &self.out())
    }

    fn out(&self) -> PathBuf {
        self.0.join("out")
    }

    fn generated(&self, loader: &str) -> String {
        std::fs::read_to_string(self.out().join(loader)).unwrap_or_else(|e| panic!("read `{loader}`: {e}"))
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The modules a generated file declares, in order, each as `name <- folder/file`.
fn modules(text: &str, root: &Path) -> Vec<String> {
    let mut lines = text.lines();
    let mut found = Vec::new();
    while let Some(line) = lines.next() {
        if let Some(path) = line
            .strip_prefix("#[path = \"")
            .and_then(|rest| rest.strip_suffix("\"]"))
        {
            let module = lines.next().expect("a module after its path");
            let name = module.trim_start_matches("pub(crate) mod ").trim_end_matches(';');
            let file = Path::new(path)
                .strip_prefix(root.join("src/ecosystem"))
                .expect("a folder's file");
            found.push(format!("{name} <- {}", file.display()));
        }
    }
    found
}

#[test]
fn each_file_goes_to_its_concern_in_the_registrations_order_and_a_renamed_one_to_its_line() {
    let tree = Tree::new(
        "order",
        &[
            ("zeta", &["runner.rs", "tree.rs", "notes.rs", "testsig/tests.rs"]),
            ("alpha", &["runner.rs", "report.rs", "helper_of_runner.rs"]),
        ],
        "# a comment\nzeta\n\nalpha  report.rs=room::own_report   # why it keeps that name\n",
    );
    tree.generate().expect("a consistent registration");
    let runner = tree.generated("runner.rs");
    assert_eq!(
        modules(&runner, &tree.0),
        ["zeta <- zeta/runner.rs", "alpha <- alpha/runner.rs"]
    );
    assert!(
        runner.contains("(& $item:ident) => { [&zeta::$item, &alpha::$item] };"),
        "the table macro lists the folders in the registration's order:\n{runner}"
    );
    assert_eq!(
        modules(&tree.generated("room/tree.rs"), &tree.0),
        ["zeta <- zeta/tree.rs"]
    );
    assert_eq!(
        modules(&tree.generated("testsig/tests.rs"), &tree.0),
        ["zeta <- zeta/testsig/tests.rs"]
    );
    assert_eq!(
        modules(&tree.generated("room.rs"), &tree.0),
        ["own_report <- alpha/report.rs"]
    );
    assert!(
        !tree.generated("room.rs").contains("macro_rules"),
        "a renamed file has no table macro"
    );
    // A concern no registered folder has still gets its (empty) file, so its `include!` always compiles.
    assert_eq!(
        modules(&tree.generated("closure/observed.rs"), &tree.0),
        Vec::<String>::new()
    );
    let all: String = ["runner.rs", "room/tree.rs", "room.rs", "testsig/tests.rs"]
        .iter()
        .map(|f| tree.generated(f))
        .collect();
    assert!(
        !all.contains("notes.rs") && !all.contains("helper_of_runner.rs"),
        "a file of no concern is its own"
    );
}

/// A scratch tree's name, its folders, its registration, and a part of the error it must fail with.
type Failing<'a> = (&'a str, Folders<'a>, &'a str, &'a str);

/// Each case's registration fails to generate, with an error of one line holding the case's expected part.
#[track_caller]
fn each_fails_in_one_line(cases: &[Failing]) {
    for (name, folders, lines, expected) in cases {
        let tree = Tree::new(name, folders, lines);
        let error = tree.generate().expect_err(name);
        assert!(error.contains(expected), "{name}: {error}");
        assert!(!error.contains('\n'), "{name}: one line: {error}");
    }
}

#[test]
fn a_registration_at_odds_with_the_folders_fails_the_build_naming_the_line() {
    let cases: &[Failing] = &[
        (
            "unregistered",
            &[("one", &["runner.rs"]), ("two", &["runner.rs"])],
            "one\n",
            "`src/ecosystem/two/` is not registered",
        ),
        (
            "no-folder",
            &[("one", &["runner.rs"])],
            "one\nghost\n",
            "ECOSYSTEMS:2: `ghost` has no folder",
        ),
        (
            "twice",
            &[("one", &["runner.rs"])],
            "one\none\n",
            "ECOSYSTEMS:2: `one` is registered twice",
        ),
        (
            "no-file",
            &[("one", &["runner.rs"])],
            "one gone.rs=room::gone\n",
            "`one` names `gone.rs=…`, but `src/ecosystem/one/gone.rs` does not exist",
        ),
        (
            "no-module",
            &[("one", &["report.rs"])],
            "one report.rs=report\n",
            "`report.rs=report` must name the loading module",
        ),
        (
            "no-equals",
            &[("one", &["report.rs"])],
            "one report.rs\n",
            "ECOSYSTEMS:1: `report.rs` is not `FILE=LOADER::MODULE`",
        ),
    ];
    each_fails_in_one_line(cases);
}

/// The text between `macro_rules! NAME` and its first `=>` arm's list: the `&`-references it lists, in order.
fn listed(text: &str, name: &str) -> String {
    let start = text
        .find(&format!("macro_rules! {name} "))
        .unwrap_or_else(|| panic!("no `{name}!` in:\n{text}"));
    let arm = &text[start..];
    let list = arm
        .split_once("=> { [")
        .and_then(|(_, rest)| rest.split_once("] }"))
        .expect("an arm listing the members");
    list.0.to_string()
}

#[test]
fn a_ranked_table_lists_its_members_lowest_rank_first_whatever_the_registrations_order() {
    let tree = Tree::new(
        "ranked",
        &[
            ("zeta", &["detect.rs", "closure.rs", "schema.rs", "readout.rs"]),
            ("alpha", &["detect.rs", "closure.rs", "schema.rs", "readout.rs"]),
            ("beta", &["closure.rs"]),
        ],
        "zeta   lang:20:Zeta        detect:20 program:30 scripts:10 readout:5\n\
         alpha  lang:10:Alpha=a     detect:10 program:20 readout:7 closure.rs=closure::derive::own\n\
         # a comment between two lines\n\
         beta   program:10 scripts:15\n",
    );
    tree.generate().expect("a consistent registration");
    let detect = tree.generated("detect.rs");
    assert_eq!(listed(&detect, "ranked_detect"), "&alpha::$item, &zeta::$item");
    assert_eq!(
        listed(&detect, "each_detect"),
        "&zeta::$item, &alpha::$item",
        "the registration's order stays for the tables that keep it"
    );
    let derive = tree.generated("closure/derive.rs");
    assert_eq!(
        listed(&derive, "ranked_program"),
        "&beta::$item, &own::$item, &zeta::$item",
        "a renamed file is ranked under its module's name"
    );
    assert_eq!(
        listed(&derive, "ranked_scripts"),
        "&zeta::$item, &beta::$item",
        "only the folders that rank have scripts"
    );
    let readout = tree.generated("readout/runner.rs");
    assert!(
        readout.contains("(@modules $then:ident) => { $then! { zeta, alpha } };"),
        "a struct with a field per member, in its rank's order:\n{readout}"
    );
    let schema = tree.generated("schema.rs");
    let enum_at = schema.find("pub enum Lang {").expect("the enum");
    let variants: Vec<&str> = schema[enum_at..]
        .lines()
        .filter(|line| line.starts_with("    ") && !line.trim_start().starts_with(['/', '#']))
        .map(str::trim)
        .collect();
    assert_eq!(variants, ["Alpha,", "Zeta,"], "{schema}");
    assert!(
        schema.contains("#[serde(rename = \"a\")]\n    Alpha,"),
        "the key named: {schema}"
    );
    assert!(
        schema.contains("#[serde(rename = \"zeta\")]\n    Zeta,"),
        "the variant in lowercase: {schema}"
    );
}

#[test]
fn an_equal_a_missing_or_a_malformed_rank_fails_the_build_naming_the_line() {
    let detect: Folders = &[("one", &["detect.rs"]), ("two", &["detect.rs"])];
    let cases: &[Failing] = &[
        (
            "equal",
            detect,
            "one detect:10\n\ntwo detect:10\n",
            "ECOSYSTEMS:3: `two` ranks `detect:10`, the rank `one` has on line 1: two places in `detect::DETECTORS` cannot be equal",
        ),
        (
            "equal-where-not-every-folder-ranks",
            &[("one", &["closure.rs"]), ("two", &["closure.rs"])],
            "one program:1 scripts:4\ntwo program:2 scripts:4\n",
            "ECOSYSTEMS:2: `two` ranks `scripts:4`, the rank `one` has on line 1: two places in `derive::SCRIPTS`",
        ),
        (
            "missing",
            detect,
            "one detect:10\ntwo\n",
            "ECOSYSTEMS:2: `two` has `src/ecosystem/two/detect.rs` but no place in `detect::DETECTORS`: add `detect:RANK`",
        ),
        (
            "no-file",
            &[("one", &["runner.rs"])],
            "one readout:10\n",
            "ECOSYSTEMS:1: `one` ranks `readout:10` in `readout::runner::FAMILIES`, but `src/ecosystem/one/readout.rs` does not exist",
        ),
        (
            "not-a-number",
            detect,
            "one detect:1o\ntwo detect:20\n",
            "ECOSYSTEMS:1: `detect:1o`: the rank `1o` is not a whole number",
        ),
        (
            "twice-on-a-line",
            detect,
            "one detect:10 detect:20\ntwo detect:30\n",
            "ECOSYSTEMS:1: `one` ranks in `detect` twice",
        ),
        (
            "no-variant",
            &[("one", &["schema.rs"])],
            "one lang:10\n",
            "ECOSYSTEMS:1: `lang:10` names no variant: `lang:RANK:Variant`",
        ),
        (
            "not-a-variant",
            &[("one", &["schema.rs"])],
            "one lang:10:one\n",
            "ECOSYSTEMS:1: `lang:10:one` is not `lang:RANK:Variant`",
        ),
        (
            "same-key",
            &[("one", &["schema.rs"]), ("two", &["schema.rs"])],
            "one lang:10:One=x\ntwo lang:20:Two=x\n",
            "ECOSYSTEMS:2: `two`'s `lang:20` names the variant or the stored key `one` has on line 1",
        ),
        (
            "variant-elsewhere",
            detect,
            "one detect:10:One\ntwo detect:20\n",
            "ECOSYSTEMS:1: `detect:10:One` is not `detect:RANK`",
        ),
        (
            "unknown-table",
            detect,
            "one detect:10 order:3\ntwo detect:20\n",
            "ECOSYSTEMS:1: `order:3` is not `FILE=LOADER::MODULE`, nor a rank `TABLE:RANK` (lang, detect, program, scripts, readout)",
        ),
        (
            "renamed-out-of-its-table",
            &[("one", &["closure.rs"])],
            "one program:10 closure.rs=room::one_closure\n",
            "ECOSYSTEMS:1: `closure.rs=room::one_closure` must stay in `closure::derive`",
        ),
    ];
    each_fails_in_one_line(cases);
}
