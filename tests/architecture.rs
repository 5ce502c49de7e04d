//! The layers of `ARCHITECTURE.md` ("Layers") hold, read from the parsed code, not from its text.
//!
//! Every file of the library is parsed (`syn`) from the module tree that `src/lib.rs` declares (`#[path]`
//! attributes followed as rustc follows them, and the declarations `build.rs` generates read where a module
//! `include!`s them: a file of `src/ecosystem/` keeps the module path, and so the layer, of the concern that
//! declares it). Each path in non-test code that names the crate's own modules is an edge from the file's
//! top-level module to the one the path names: `crate::a::…`, `super::…` and `self::…` resolved against the
//! module the code sits in (so `super::super::x` counts), the trees of `use` items (`crate::{a, b::c}`), and the
//! same paths inside macro invocations (`format!("{}", crate::a::f())`), whose tokens `syn` does not parse. Test
//! code is left out — an item under `#[cfg(test)]` (a test module, inline or in its own file, and everything
//! under it) may use any layer, as an integration test does — and so are comments and strings, which a parser
//! never takes for paths.
//!
//! Two rules, both printed with the files behind each offending edge:
//! - **No upward import.** The layer table of `ARCHITECTURE.md` is read as the source of truth (its rows from
//!   the bottom up); a module may name modules of its own layer or below. Every top-level module must have a
//!   row, so a new module is placed deliberately.
//! - **No circle** among top-level modules, within a layer as across layers.
//!
//! And one rule of the file tree: what loopgate knows of an ecosystem lives in its folder, `src/ecosystem/<name>/`
//! — a file elsewhere under `src/` named after an ecosystem (a folder's name) or one of its tools fails, and so
//! does a Rust file in an ecosystem's folder that no module loads (rustc would silently never compile it), and a
//! `#[path]` into a folder written by hand in the core rather than declared from the registration
//! (`src/ecosystem/ECOSYSTEMS`, read by `build.rs`, whose checks `registration` runs on scratch trees).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use syn::visit::Visit;

#[path = "architecture/registration.rs"]
mod registration;

/// Edges between top-level modules: `from → to → files of `from` that name `to``.
type Graph = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

#[test]
fn no_module_imports_from_a_layer_above_its_own() {
    let graph = graph(&src());
    assert!(graph.len() > 20, "the module walk found only {} modules", graph.len());
    let layers = layers();
    let unplaced: Vec<&String> = graph.keys().filter(|m| !layers.contains_key(*m)).collect();
    assert!(
        unplaced.is_empty(),
        "top-level module(s) {unplaced:?} have no row in ARCHITECTURE.md's layer table; add each to the layer it \
         belongs to"
    );
    let mut upward = Vec::new();
    for (from, edges) in &graph {
        for (to, files) in edges {
            let (Some(&(low, ref low_name)), Some(&(high, ref high_name))) = (layers.get(to), layers.get(from)) else {
                continue;
            };
            if low > high {
                let files: Vec<&str> = files.iter().map(String::as_str).collect();
                upward.push(format!(
                    "{from} ({high_name}) → {to} ({low_name}): {}",
                    files.join(", ")
                ));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "{} upward import(s): a module may use only its own layer or those below it (move the shared type down, \
         e.g. into `schema`, or the sentence into `messages`):\n{}",
        upward.len(),
        upward.join("\n")
    );
}

#[test]
fn no_import_circle_among_top_level_modules() {
    let graph = graph(&src());
    let circles = circles(&graph);
    let shown: Vec<String> = circles.iter().map(|c| describe(c, &graph)).collect();
    assert!(
        circles.is_empty(),
        "{} import circle(s) among top-level modules (a module below must not name one above; move the shared type \
         into a schema module such as `schema`, or the rendering into `messages`):\n\n{}",
        circles.len(),
        shown.join("\n\n")
    );
}

#[test]
fn the_schema_imports_no_behaviour() {
    let graph = graph(&src());
    let names = &graph["schema"];
    assert!(
        names.is_empty(),
        "`schema` holds the persisted vocabulary every layer shares, so it may name no other module: {names:?}"
    );
}

#[test]
fn the_walk_sees_what_text_matching_missed_and_skips_what_is_not_code() {
    let code = r#"
        use crate::{a::X, b, c::{d, e}};
        use super::super::up;
        fn f() {
            let x = crate::d::f(); // crate::z
            let s = "crate::y::in_a_string";
            println!("{}", crate::m::in_a_macro());
        }
        #[cfg(test)]
        mod tests { use crate::t::only_in_tests; }
        #[cfg(test)]
        fn helper() { crate::h::only_in_a_test_helper(); }
    "#;
    let file = syn::parse_file(code).expect("parse the sample");
    // The sample sits in `top::inner::leaf`: `super::super::up` is `top::up`, which stays inside `top`.
    let module = vec!["top".to_string(), "inner".to_string(), "leaf".to_string()];
    let mut named = Names::new(&module);
    named.visit_file(&file);
    assert_eq!(
        named.tops.into_iter().collect::<Vec<_>>(),
        ["a", "b", "c", "d", "m", "top"],
        "edges read from the sample"
    );
    let mut graph = Graph::new();
    for (from, to) in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")] {
        graph
            .entry(from.into())
            .or_default()
            .entry(to.into())
            .or_default()
            .insert(format!("{from}.rs"));
    }
    graph.entry("d".into()).or_default();
    let circles = circles(&graph);
    assert_eq!(circles.len(), 1);
    assert_eq!(describe(&circles[0], &graph).lines().next(), Some("a → b → c → a"));
}

#[test]
fn the_layer_table_is_read_from_architecture_md() {
    let layers = layers();
    let at = |name: &str| {
        layers
            .get(name)
            .map(|(n, _)| *n)
            .unwrap_or_else(|| panic!("`{name}` has no row"))
    };
    assert_eq!(at("schema"), 0);
    assert!(at("fsutil") == at("readout") && at("readout") < at("state") && at("state") < at("messages"));
    assert!(at("messages") < at("oracle") && at("oracle") < at("stop") && at("stop") < at("hook"));
    assert!(
        at("stop") < at("commands") && at("commands") < at("hook"),
        "agent adapters call commands, not back"
    );
}

/// No code depends on the CPU: `.ci/run` checks one macOS target (arm64) and takes it for both, which holds only
/// while no condition on the CPU architecture can make the x86_64 build see other code.
#[test]
fn no_code_depends_on_the_cpu_architecture() {
    let word = ["target", "_arch"].concat();
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut found = Vec::new();
    let mut dirs = vec![root.join("src"), root.join("tests"), root.join("benches")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs")
                && std::fs::read_to_string(&path).is_ok_and(|text| text.contains(&word))
            {
                found.push(path.strip_prefix(root).unwrap_or(&path).display().to_string());
            }
        }
    }
    found.sort();
    assert!(
        found.is_empty(),
        "code conditioned on the CPU ({word}): check every macOS target in `.ci/run`, not arm64 alone, or drop \
         the condition:\n{}",
        found.join("\n")
    );
}

#[test]
fn what_loopgate_knows_of_an_ecosystem_lives_in_its_folder() {
    let ecosystems = ecosystems(&src());
    for name in [
        "python", "js", "rust", "go", "make", "shell", "ruby", "php", "cpp", "jvm",
    ] {
        assert!(
            ecosystems.contains(name),
            "`src/ecosystem/{name}/` is missing: {ecosystems:?}"
        );
    }
    let strays = strays(&src(), &ecosystems);
    assert!(
        strays.is_empty(),
        "{} file(s) of an ecosystem outside its folder (named after an ecosystem or one of its tools, or loose in \
         `src/ecosystem/`): move each into its ecosystem's folder and load it from its concern with \
         `#[path = \"…\"]`, which keeps its module path and layer (ARCHITECTURE.md, \"An ecosystem is a \
         folder\"):\n{}",
        strays.len(),
        strays.join("\n")
    );
    let loaded = module_files(&src());
    let mut unloaded = Vec::new();
    for name in &ecosystems {
        let mut dirs = vec![src().join("ecosystem").join(name)];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).expect("read an ecosystem's folder") {
                let path = entry.expect("read an ecosystem's folder").path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "rs")
                    && !loaded.contains(&path.canonicalize().unwrap_or_else(|_| path.clone()))
                {
                    unloaded.push(path.strip_prefix(src()).unwrap_or(&path).display().to_string());
                }
            }
        }
    }
    unloaded.sort();
    assert!(
        unloaded.is_empty(),
        "Rust file(s) in an ecosystem's folder that no module loads (rustc would never compile them): declare each \
         with `#[path = \"…\"]` in its concern's module, or delete it:\n{}",
        unloaded.join("\n")
    );
}

/// The core loads an ecosystem's file only through the declarations `build.rs` writes from the registration: a
/// `#[path]` into `src/ecosystem/` written by hand in the core (a test module's included) would load a file the
/// registration does not name, or a folder's file a second time under another module.
#[test]
fn the_core_loads_a_folder_only_through_the_registration() {
    let found = hand_written_paths(&src());
    assert!(
        found.is_empty(),
        "`#[path]` into `src/ecosystem/` written in the core: delete each, and let `build.rs` declare the module \
         from the folder's line of `src/ecosystem/ECOSYSTEMS` (a file named after its concern, or `FILE=LOADER::MODULE` \
         on that line; ARCHITECTURE.md, \"An ecosystem is a folder\"):\n{}",
        found.join("\n")
    );
}

#[test]
fn a_hand_written_path_into_a_folder_is_found_at_any_depth() {
    let dir = std::env::temp_dir().join(format!("loopgate-arch-paths-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("ecosystem/python")).expect("create a scratch tree");
    std::fs::write(
        dir.join("ecosystem/python/runner.rs"),
        "//! a folder's own file\n#[path = \"x.rs\"] mod x;\n",
    )
    .expect("write a folder's file");
    std::fs::write(
        dir.join("core.rs"),
        "#[path = \"other/place.rs\"] mod fine;\n\
         #[cfg(test)] mod tests { #[path = \"../ecosystem/python/testsig/tests.rs\"] mod python; }\n",
    )
    .expect("write a core file");
    let found = hand_written_paths(&dir);
    std::fs::remove_dir_all(&dir).expect("remove the scratch tree");
    assert_eq!(found, ["core.rs: `../ecosystem/python/testsig/tests.rs`"]);
}

/// Every `#[path = "…"]` in a file of the core (under `src/`, outside `src/ecosystem/`) whose value goes through
/// an `ecosystem` directory, as `file: `value``.
fn hand_written_paths(src: &Path) -> Vec<String> {
    struct Paths(Vec<String>);
    impl<'ast> Visit<'ast> for Paths {
        fn visit_attribute(&mut self, attr: &'ast syn::Attribute) {
            if let syn::Meta::NameValue(syn::MetaNameValue {
                path,
                value:
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(value),
                        ..
                    }),
                ..
            }) = &attr.meta
                && path.is_ident("path")
                && Path::new(&value.value()).iter().any(|part| part == "ecosystem")
            {
                self.0.push(value.value());
            }
        }
    }
    let mut found = Vec::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("read a directory of `src/`") {
            let path = entry.expect("read a directory entry").path();
            let relative = path.strip_prefix(src).expect("under src").to_path_buf();
            if path.is_dir() && relative != Path::new("ecosystem") {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let mut paths = Paths(Vec::new());
                paths.visit_file(&parse_alone(&path));
                found.extend(paths.0.iter().map(|value| format!("{}: `{value}`", relative.display())));
            }
        }
    }
    found.sort();
    found
}

#[test]
fn the_core_names_no_runner() {
    let found = runner_names(&src());
    let problems: Vec<String> = found
        .iter()
        .map(|(file, words)| format!("src/{file}: {} runner name(s): {}", words.len(), words.join(", ")))
        .collect();
    assert!(
        problems.is_empty(),
        "the core names a runner or an ecosystem's tool in non-test code: ask the ecosystem instead (the runner \
         table `runner::ECOSYSTEMS`, or the concern's file in `src/ecosystem/<name>/`, ARCHITECTURE.md \"An \
         ecosystem is a folder\"):\n{}",
        problems.join("\n")
    );
}

/// The one place a runner's or an ecosystem's name may stand in the core: the variant of an enum of the
/// persisted vocabulary (`schema`, deriving `Deserialize`), whose variant *is* the key on disk (`schema::Lang`'s
/// `python`, `cpp`, … in every seal): a tag, data rather than knowledge. The enum's other code, an enum that is not
/// persisted, and the same enum outside `schema` are scanned as anywhere else.
#[test]
fn a_persisted_enums_variants_in_the_schema_are_its_stored_keys_and_nothing_else_is() {
    let code = r##"
        #[derive(Clone, Copy, Serialize, Deserialize)]
        #[serde(rename_all = "lowercase")]
        pub enum Lang { Rust, Python, Php(u8) }
        impl Lang {
            fn runs(self) -> &'static str { "pytest" }
        }
        #[derive(Clone, Copy)]
        enum NotStored { Cpp }
        #[derive(Serialize, Deserialize)]
        enum Stored { Ruby { file: PytestConfig } }
    "##;
    let file = syn::parse_file(code).expect("parse the sample");
    let scan = |schema: bool| {
        let mut scan = RunnerNames {
            schema,
            ..RunnerNames::default()
        };
        for item in &file.items {
            scan.visit_item(item);
        }
        scan.found
    };
    assert_eq!(scan(true), ["pytest", "cpp", "pytest"]);
    assert_eq!(scan(false), ["python", "php", "pytest", "cpp", "ruby", "pytest"]);
}

#[test]
fn the_runner_name_scan_reads_code_and_skips_comments_tests_and_registrations() {
    let code = r##"
        //! pytest in a comment
        #[path = "../ecosystem/python/closure.rs"]
        mod python;
        /// cargo in a doc comment
        fn f(runner: Runner) -> bool {
            python::seen();
            let a = Runner::Pytest;
            let b = "bundle exec rspec";
            let c = format!("{} phpunit", run_ctest());
            runner == a || b.is_empty() || c.is_empty()
        }
        fn the_makefile_name() -> &'static str { "go vet" }
        #[cfg(test)]
        mod tests { const X: &str = "jest"; }
        #[cfg(test)]
        fn helper() -> &'static str { "vitest" }
    "##;
    let file = syn::parse_file(code).expect("parse the sample");
    let mut scan = RunnerNames::default();
    scan.handles.insert("python".into());
    for item in file.items.iter().filter(|i| !item_is_test(i)) {
        scan.visit_item(item);
    }
    assert_eq!(scan.found, ["pytest", "rspec", "phpunit", "ctest", "makefile"]);
}

/// What the core (every file outside `src/ecosystem/`) may not spell in non-test code: the tool words of
/// [`TOOL_WORDS`] but [`NOT_RUNNER_NAMES`], and the ecosystems' names of [`ECOSYSTEM_WORDS`].
fn is_runner_word(word: &str) -> bool {
    (TOOL_WORDS.contains(&word) && !NOT_RUNNER_NAMES.contains(&word)) || ECOSYSTEM_WORDS.contains(&word)
}

/// Tool words that are everyday words of the core's code: `node` (a tree's node), and `junit`, the report format
/// any runner may write (`--report junit:PATH`).
const NOT_RUNNER_NAMES: &[&str] = &["node", "junit"];

/// The folders' names that name an ecosystem wherever they appear; `go`, `make`, `shell`, `rust` and `js` are
/// everyday words in code (`make_dir`, the guard's shell lexer) and are left out.
const ECOSYSTEM_WORDS: &[&str] = &["python", "ruby", "php", "jvm", "cpp"];

/// The runner names in the non-test code of each file of the core, by its path under `src/`.
fn runner_names(src: &Path) -> BTreeMap<String, Vec<String>> {
    fn walk(items: &[syn::Item], at: (&Path, &Path), file: &str, src: &Path, out: &mut BTreeMap<String, RunnerNames>) {
        let (dir, base) = at;
        for item in items.iter().filter(|item| !item_is_test(item)) {
            let syn::Item::Mod(module) = item else {
                out.entry(file.to_string())
                    .or_insert_with(|| RunnerNames {
                        schema: file == "schema.rs" || file.starts_with("schema/"),
                        ..RunnerNames::default()
                    })
                    .visit_item(item);
                continue;
            };
            let name = module.ident.to_string();
            if let Some((_, inner)) = &module.content {
                walk(inner, (&dir.join(&name), &dir.join(&name)), file, src, out);
                continue;
            }
            let Some((path, owns_dir)) = module_file(dir, base, &name, &module.attrs) else {
                continue;
            };
            let canonical = path.canonicalize().unwrap_or_else(|_| path.clone());
            let shown = canonical.strip_prefix(src).unwrap_or(&canonical).display().to_string();
            if shown.starts_with("ecosystem/") {
                // The module's name is the ecosystem's registration in this concern, not a dispatch on it.
                out.entry(file.to_string()).or_default().handles.insert(name);
                continue;
            }
            let (child_dir, child_base) = children(&path, owns_dir, dir, &name);
            walk(&parse(&path).items, (&child_dir, &child_base), &shown, src, out);
        }
    }
    let src = &src.canonicalize().unwrap_or_else(|_| src.to_path_buf());
    let mut scans = BTreeMap::new();
    walk(&parse(&src.join("lib.rs")).items, (src, src), "lib.rs", src, &mut scans);
    scans
        .into_iter()
        .filter(|(_, scan)| !scan.found.is_empty())
        .map(|(file, scan)| (file, scan.found))
        .collect()
}

/// The runner names ([`is_runner_word`]) of some code, in identifiers (cut at `_` and at case changes) and in
/// string literals, macros' included; comments and attributes (docs, `#[path]`) are not code, and a module
/// loaded from an ecosystem's folder (`handles`) is named by its registration. Items under `#[cfg(test)]` are
/// skipped by the caller and here.
#[derive(Default)]
struct RunnerNames {
    handles: BTreeSet<String>,
    found: Vec<String>,
    /// The code is the persisted vocabulary's (`src/schema.rs`, `src/schema/`): the variants of an enum it stores
    /// are its keys on disk, not names the core dispatches on.
    schema: bool,
    /// Within an enum of the schema that derives `Deserialize`.
    persisted: bool,
}

impl RunnerNames {
    fn ident(&mut self, ident: &str) {
        if self.handles.contains(ident) {
            return;
        }
        let mut words = vec![String::new()];
        let mut lower_before = false;
        for c in ident.chars() {
            if c == '_' {
                words.push(String::new());
            } else {
                if c.is_uppercase() && lower_before {
                    words.push(String::new());
                }
                words.last_mut().expect("one word at least").extend(c.to_lowercase());
            }
            lower_before = c.is_lowercase() || c.is_ascii_digit();
        }
        self.words(words.iter().map(String::as_str));
    }

    fn text(&mut self, text: &str) {
        let lower = text.to_lowercase();
        self.words(lower.split(|c: char| !c.is_alphanumeric()));
    }

    fn words<'w>(&mut self, words: impl Iterator<Item = &'w str>) {
        self.found
            .extend(words.filter(|w| is_runner_word(w)).map(str::to_string));
    }

    fn tokens(&mut self, tokens: proc_macro2::TokenStream) {
        for token in tokens {
            match token {
                proc_macro2::TokenTree::Group(group) => self.tokens(group.stream()),
                proc_macro2::TokenTree::Ident(ident) => self.ident(&ident.to_string()),
                proc_macro2::TokenTree::Literal(literal) => {
                    if let Ok(lit) = syn::parse_str::<syn::LitStr>(&literal.to_string()) {
                        self.text(&lit.value());
                    }
                }
                proc_macro2::TokenTree::Punct(_) => {}
            }
        }
    }
}

impl<'ast> Visit<'ast> for RunnerNames {
    fn visit_attribute(&mut self, _: &'ast syn::Attribute) {}

    fn visit_ident(&mut self, ident: &'ast proc_macro2::Ident) {
        self.ident(&ident.to_string());
    }

    fn visit_lit_str(&mut self, lit: &'ast syn::LitStr) {
        self.text(&lit.value());
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.visit_path(&mac.path);
        self.tokens(mac.tokens.clone());
    }

    fn visit_item(&mut self, item: &'ast syn::Item) {
        if !item_is_test(item) {
            syn::visit::visit_item(self, item);
        }
    }

    fn visit_item_enum(&mut self, item: &'ast syn::ItemEnum) {
        let persisted = self.schema && derives(&item.attrs, "Deserialize");
        let outer = std::mem::replace(&mut self.persisted, persisted);
        syn::visit::visit_item_enum(self, item);
        self.persisted = outer;
    }

    fn visit_variant(&mut self, variant: &'ast syn::Variant) {
        if !self.persisted {
            return syn::visit::visit_variant(self, variant);
        }
        // The variant's name is its stored key; what it holds is scanned.
        self.visit_fields(&variant.fields);
        if let Some((_, discriminant)) = &variant.discriminant {
            self.visit_expr(discriminant);
        }
    }

    fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
        if !is_test(&item.attrs) {
            syn::visit::visit_impl_item_fn(self, item);
        }
    }
}

/// Whether `attrs` derive `name` (`#[derive(Serialize, Deserialize)]`, `#[derive(serde::Deserialize)]`).
fn derives(attrs: &[syn::Attribute], name: &str) -> bool {
    attrs.iter().filter(|attr| attr.path().is_ident("derive")).any(|attr| {
        attr.parse_args_with(syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated)
            .is_ok_and(|paths| {
                paths
                    .iter()
                    .any(|path| path.segments.last().is_some_and(|s| s.ident == name))
            })
    })
}

/// Every file of the module tree `src/lib.rs` declares, test modules included (`#[path]` followed), canonical.
fn module_files(src: &Path) -> BTreeSet<PathBuf> {
    fn walk(items: &[syn::Item], at: (&Path, &Path), files: &mut BTreeSet<PathBuf>) {
        let (dir, base) = at;
        for item in items {
            let syn::Item::Mod(module) = item else { continue };
            let name = module.ident.to_string();
            match &module.content {
                Some((_, inner)) => walk(inner, (&dir.join(&name), &dir.join(&name)), files),
                None => {
                    let Some((file, owns_dir)) = module_file(dir, base, &name, &module.attrs) else {
                        continue;
                    };
                    let (child_dir, child_base) = children(&file, owns_dir, dir, &name);
                    walk(&parse(&file).items, (&child_dir, &child_base), files);
                    files.insert(file.canonicalize().unwrap_or(file));
                }
            }
        }
    }
    let mut files = BTreeSet::new();
    walk(&parse(&src.join("lib.rs")).items, (src, src), &mut files);
    files
}

/// Words that name an ecosystem by one of its tools rather than by its folder's name (Rust's closure was
/// `closure/derive/cargo.rs`, pytest's report `room/report.rs` is named by neither).
const TOOL_WORDS: &[&str] = &[
    "cargo",
    "nextest",
    "pytest",
    "unittest",
    "jest",
    "vitest",
    "mocha",
    "npm",
    "node",
    "makefile",
    "gotest",
    "bats",
    "minitest",
    "rspec",
    "rake",
    "phpunit",
    "ctest",
    "cmake",
    "gtest",
    "googletest",
    "catch2",
    "maven",
    "mvn",
    "surefire",
    "junit",
    "gradle",
];

/// Files whose name is an ecosystem's word but that are not of that ecosystem, and why. Each is named here, one
/// by one, so that a real stray with the same word is still caught.
const NOT_OF_AN_ECOSYSTEM: &[(&str, &str)] = &[(
    "guard/shell.rs",
    "the PreToolUse guard's reader of the agent's Bash tool calls (which paths a command writes), not the shell \
     ecosystem (bats, `src/ecosystem/shell/`): it reads the agent's commands, never a test runner's",
)];

/// The registration, the one file of `src/ecosystem/` outside a folder: a line per ecosystem, read by `build.rs`.
const REGISTRATION: &str = "ECOSYSTEMS";

/// The ecosystems: the folders of `src/ecosystem/`.
fn ecosystems(src: &Path) -> BTreeSet<String> {
    std::fs::read_dir(src.join("ecosystem"))
        .expect("read `src/ecosystem/`")
        .map(|entry| entry.expect("read `src/ecosystem/`").path())
        .filter(|path| path.is_dir())
        .filter_map(|path| path.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect()
}

/// The files under `src/` but outside `src/ecosystem/` whose path, read as words (its directories and its name
/// without the extension, cut at `_`, `-` and `.`), names an ecosystem or one of its tools; and any file lying
/// loose in `src/ecosystem/` rather than in one ecosystem's folder.
fn strays(src: &Path, ecosystems: &BTreeSet<String>) -> Vec<String> {
    let mut strays = Vec::new();
    let mut dirs = vec![src.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("failed to read `{}`: {e}", dir.display()))
            .map(|entry| entry.expect("read a directory entry").path())
            .collect();
        entries.sort();
        for path in entries {
            let relative = path.strip_prefix(src).expect("under src").to_path_buf();
            if path.is_dir() {
                if relative != Path::new("ecosystem") {
                    dirs.push(path);
                }
                continue;
            }
            let shown = relative.display().to_string();
            if relative.starts_with("ecosystem")
                || NOT_OF_AN_ECOSYSTEM.iter().any(|(file, _)| Path::new(file) == relative)
            {
                continue;
            }
            let stem = relative.with_extension("");
            let named = stem
                .iter()
                .flat_map(|part| part.to_str().unwrap_or("").split(['_', '-', '.']))
                .find(|word| ecosystems.contains(*word) || TOOL_WORDS.contains(word));
            if let Some(word) = named {
                strays.push(format!("src/{shown} (`{word}`)"));
            }
        }
    }
    for entry in std::fs::read_dir(src.join("ecosystem")).expect("read `src/ecosystem/`") {
        let path = entry.expect("read `src/ecosystem/`").path();
        if path.is_file() && path.file_name().is_none_or(|name| name != REGISTRATION) {
            strays.push(format!(
                "{} (loose in `src/ecosystem/`: it belongs in one ecosystem's folder)",
                path.strip_prefix(src.parent().unwrap_or(src))
                    .unwrap_or(&path)
                    .display()
            ));
        }
    }
    strays
}

/// The layer of each top-level module, from `ARCHITECTURE.md`'s table (`| layer | modules | what they are |`):
/// rows from the bottom up, the modules of a row as backticked names (`commands::*` is `commands`).
fn layers() -> BTreeMap<String, (usize, String)> {
    let doc = read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md"));
    let rows = doc
        .lines()
        .skip_while(|line| !line.starts_with("## Layers"))
        .skip_while(|line| !line.starts_with("| layer |"))
        .skip(2)
        .take_while(|line| line.starts_with('|'));
    let mut layers = BTreeMap::new();
    for (n, row) in rows.enumerate() {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let (layer, modules) = (cells[1], cells[2]);
        for module in modules.split('`').skip(1).step_by(2) {
            let module = module.trim_end_matches("::*");
            layers.insert(module.to_string(), (n, layer.to_string()));
        }
    }
    assert!(
        layers.len() > 20,
        "ARCHITECTURE.md's layer table named only {} modules",
        layers.len()
    );
    layers
}

/// Walks the module tree from `src/lib.rs` and collects the edges of its non-test code.
fn graph(src: &Path) -> Graph {
    let mut graph = Graph::new();
    let file = parse(&src.join("lib.rs"));
    for item in &file.items {
        let syn::Item::Mod(module) = item else { continue };
        if is_test(&module.attrs) {
            continue;
        }
        let name = module.ident.to_string();
        graph.entry(name.clone()).or_default();
        walk_mod(module, (src, src), &[], src, &mut graph);
    }
    graph
}

/// One module declared in `parent`, whose file sits in `at`: the directory its child modules' files live in and the
/// one its `#[path = "…"]` attributes are relative to. Its own items, then its children.
fn walk_mod(module: &syn::ItemMod, at: (&Path, &Path), parent: &[String], src: &Path, graph: &mut Graph) {
    let (dir, base) = at;
    let name = module.ident.to_string();
    let mut path = parent.to_vec();
    path.push(name.clone());
    let (items, file, children) = match &module.content {
        Some((_, items)) => (items.clone(), None, (dir.join(&name), dir.join(&name))),
        None => {
            let (file, owns_dir) = module_file(dir, base, &name, &module.attrs)
                .unwrap_or_else(|| panic!("no file for module `{}` in `{}`", path.join("::"), dir.display()));
            let items = parse(&file).items;
            // As rustc resolves them: the children of `a/b.rs` live in `a/b/` and its `#[path]`s are relative to
            // `a/`; a `mod.rs` or a file loaded through `#[path]` owns its directory, for both.
            let children = if owns_dir {
                let own = file.parent().unwrap_or(dir).to_path_buf();
                (own.clone(), own)
            } else {
                (dir.join(&name), dir.to_path_buf())
            };
            (items, Some(file), children)
        }
    };
    let shown = file
        .as_deref()
        .map(|f| f.strip_prefix(src).unwrap_or(f).display().to_string())
        .unwrap_or_else(|| format!("{} (inline)", path.join("::")));
    let mut names = Names::new(&path);
    for item in items.iter().filter(|item| !item_is_test(item)) {
        if let syn::Item::Mod(child) = item {
            walk_mod(child, (&children.0, &children.1), &path, src, graph);
        } else {
            names.visit_item(item);
        }
    }
    let top = &path[0];
    let edges = graph.entry(top.clone()).or_default();
    for to in names.tops {
        if &to != top {
            edges.entry(to).or_default().insert(shown.clone());
        }
    }
}

/// The file of module `name`: the one a `#[path = "…"]` attribute names (relative to `base`), else `dir/name.rs`
/// or `dir/name/mod.rs`; and whether that file owns its directory (a `#[path]` file or a `mod.rs`).
fn module_file(dir: &Path, base: &Path, name: &str, attrs: &[syn::Attribute]) -> Option<(PathBuf, bool)> {
    for attr in attrs.iter().filter(|a| a.path().is_ident("path")) {
        if let syn::Meta::NameValue(syn::MetaNameValue {
            value: syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s), ..
            }),
            ..
        }) = &attr.meta
        {
            let candidate = base.join(s.value());
            return candidate.is_file().then_some((candidate, true));
        }
    }
    if let Some(file) = Some(dir.join(format!("{name}.rs"))).filter(|p| p.is_file()) {
        return Some((file, false));
    }
    Some(dir.join(name).join("mod.rs"))
        .filter(|p| p.is_file())
        .map(|p| (p, true))
}

/// Where the child modules of module `name`, loaded from `file` in `dir`, live and what their `#[path]`s are
/// relative to, as rustc resolves them: the children of `a/b.rs` live in `a/b/` and its `#[path]`s are relative
/// to `a/`; a `mod.rs` or a file loaded through `#[path]` (`owns_dir`) owns its directory, for both.
fn children(file: &Path, owns_dir: bool, dir: &Path, name: &str) -> (PathBuf, PathBuf) {
    if owns_dir {
        let own = file.parent().unwrap_or(dir).to_path_buf();
        (own.clone(), own)
    } else {
        (dir.join(name), dir.to_path_buf())
    }
}

/// `#[cfg(test)]` (or a `cfg` whose predicate is `test` inside `all(…)`): test-only code.
fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg") && {
            let tokens = attr
                .meta
                .require_list()
                .map(|l| l.tokens.to_string())
                .unwrap_or_default();
            tokens == "test" || tokens.starts_with("all (test") || tokens.starts_with("all(test")
        }
    })
}

fn item_is_test(item: &syn::Item) -> bool {
    use syn::Item;
    let attrs = match item {
        Item::Const(i) => &i.attrs,
        Item::Enum(i) => &i.attrs,
        Item::ExternCrate(i) => &i.attrs,
        Item::Fn(i) => &i.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Macro(i) => &i.attrs,
        Item::Mod(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Struct(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        Item::Type(i) => &i.attrs,
        Item::Union(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        _ => return false,
    };
    is_test(attrs)
}

/// The top-level modules that the paths of some code name, resolved from the module `at` (its path from the
/// crate root).
struct Names<'m> {
    at: &'m [String],
    tops: BTreeSet<String>,
}

impl<'m> Names<'m> {
    fn new(at: &'m [String]) -> Self {
        Names {
            at,
            tops: BTreeSet::new(),
        }
    }

    /// A path's leading segments (`crate`, `super`, `self`, then names), resolved to the top-level module it
    /// lands in; a path that does not start at the crate or a relative keyword names no module of ours.
    fn resolve<'s>(&mut self, segments: impl IntoIterator<Item = &'s str>) {
        let mut segments = segments.into_iter().peekable();
        let mut module: Vec<&str> = match segments.peek().copied() {
            Some("crate") => {
                segments.next();
                Vec::new()
            }
            Some("super" | "self") => self.at.iter().map(String::as_str).collect(),
            _ => return,
        };
        while let Some(&word) = segments.peek() {
            match word {
                "super" => {
                    module.pop();
                }
                "self" => {}
                _ => break,
            }
            segments.next();
        }
        let top = module.first().copied().or_else(|| segments.next());
        if let Some(top) = top.filter(|t| !t.is_empty() && *t != "*") {
            self.tops.insert(top.to_string());
        }
    }

    fn use_tree(&mut self, prefix: &mut Vec<String>, tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                prefix.push(p.ident.to_string());
                self.use_tree(prefix, &p.tree);
                prefix.pop();
            }
            syn::UseTree::Name(n) => self.leaf(prefix, &n.ident.to_string()),
            syn::UseTree::Rename(r) => self.leaf(prefix, &r.ident.to_string()),
            syn::UseTree::Glob(_) => self.leaf(prefix, "*"),
            syn::UseTree::Group(g) => {
                for tree in &g.items {
                    self.use_tree(prefix, tree);
                }
            }
        }
    }

    fn leaf(&mut self, prefix: &[String], last: &str) {
        let all: Vec<&str> = prefix.iter().map(String::as_str).chain([last]).collect();
        self.resolve(all);
    }

    /// `crate :: a`, `super :: …` inside a macro's tokens.
    fn tokens(&mut self, tokens: proc_macro2::TokenStream) {
        let flat: Vec<proc_macro2::TokenTree> = tokens.into_iter().collect();
        for (i, token) in flat.iter().enumerate() {
            match token {
                proc_macro2::TokenTree::Group(group) => self.tokens(group.stream()),
                proc_macro2::TokenTree::Ident(ident) if ident == "crate" || ident == "super" => {
                    let mut words = vec![ident.to_string()];
                    let mut j = i + 1;
                    while let (Some(proc_macro2::TokenTree::Punct(a)), Some(proc_macro2::TokenTree::Punct(b))) =
                        (flat.get(j), flat.get(j + 1))
                    {
                        if a.as_char() != ':' || b.as_char() != ':' {
                            break;
                        }
                        match flat.get(j + 2) {
                            Some(proc_macro2::TokenTree::Ident(next)) => words.push(next.to_string()),
                            _ => break,
                        }
                        j += 3;
                    }
                    if words.len() > 1 {
                        self.resolve(words.iter().map(String::as_str));
                    }
                }
                _ => {}
            }
        }
    }
}

impl<'ast> Visit<'ast> for Names<'_> {
    fn visit_path(&mut self, path: &'ast syn::Path) {
        let words: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if words.len() > 1 {
            self.resolve(words.iter().map(String::as_str));
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        if !is_test(&item.attrs) {
            self.use_tree(&mut Vec::new(), &item.tree);
        }
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.tokens(mac.tokens.clone());
        syn::visit::visit_macro(self, mac);
    }

    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        if !is_test(&item.attrs) {
            syn::visit::visit_item_fn(self, item);
        }
    }

    fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
        if !is_test(&item.attrs) {
            syn::visit::visit_impl_item_fn(self, item);
        }
    }

    fn visit_item_mod(&mut self, item: &'ast syn::ItemMod) {
        // Inline modules inside a function or block: walked here, with the same resolution (they are rare).
        if !is_test(&item.attrs) {
            syn::visit::visit_item_mod(self, item);
        }
    }
}

fn parse(path: &Path) -> syn::File {
    let mut file = parse_alone(path);
    file.items = std::mem::take(&mut file.items)
        .into_iter()
        .flat_map(|item| match generated(&item) {
            Some(included) => parse_alone(&included).items,
            None => vec![item],
        })
        .collect();
    file
}

/// One file as written, without what it `include!`s.
fn parse_alone(path: &Path) -> syn::File {
    syn::parse_file(&read(path)).unwrap_or_else(|e| panic!("failed to parse `{}`: {e}", path.display()))
}

/// The file an `include!(concat!(env!("OUT_DIR"), "/…"))` item includes: the modules `build.rs` declares for a
/// concern from the registration (`src/ecosystem/ECOSYSTEMS`), read as rustc reads them, in its place.
fn generated(item: &syn::Item) -> Option<PathBuf> {
    let syn::Item::Macro(item) = item else { return None };
    if !item.mac.path.is_ident("include") {
        return None;
    }
    let syn::Expr::Macro(concat) = item.mac.parse_body::<syn::Expr>().ok()? else {
        return None;
    };
    let parts = concat
        .mac
        .parse_body_with(syn::punctuated::Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated)
        .ok()?;
    let Some(syn::Expr::Lit(syn::ExprLit {
        lit: syn::Lit::Str(tail),
        ..
    })) = parts.last()
    else {
        return None;
    };
    Some(PathBuf::from(format!("{}{}", env!("OUT_DIR"), tail.value())))
}

/// The strongly connected components of more than one module (Tarjan), each as one cycle through all of them.
fn circles(graph: &Graph) -> Vec<Vec<String>> {
    struct Tarjan<'g> {
        graph: &'g Graph,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        components: Vec<Vec<&'g str>>,
    }
    impl<'g> Tarjan<'g> {
        fn visit(&mut self, v: &'g str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.graph.get(v).into_iter().flat_map(BTreeMap::keys) {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                self.components.push(component);
            }
        }
    }
    let mut t = Tarjan {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        components: Vec::new(),
    };
    for v in graph.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    t.components
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|c| cycle_through(graph, &c.into_iter().collect()))
        .collect()
}

/// A cycle inside one strongly connected component, from its first module back to it (breadth-first, so short).
fn cycle_through(graph: &Graph, component: &BTreeSet<&str>) -> Vec<String> {
    let start = *component.iter().next().expect("a component is never empty");
    let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for w in graph.get(v).into_iter().flat_map(BTreeMap::keys) {
            let w = w.as_str();
            if w == start {
                let mut back = vec![];
                let mut at = v;
                while at != start {
                    back.push(at.to_string());
                    at = came_from[at];
                }
                back.reverse();
                return std::iter::once(start.to_string())
                    .chain(back)
                    .chain([start.to_string()])
                    .collect();
            }
            if component.contains(w) && !came_from.contains_key(w) && w != start {
                came_from.insert(w, v);
                queue.push_back(w);
            }
        }
    }
    unreachable!("a strongly connected component of two or more modules has a cycle through its first")
}

fn describe(cycle: &[String], graph: &Graph) -> String {
    let mut text = cycle.join(" → ");
    for pair in cycle.windows(2) {
        let files: Vec<&str> = graph[&pair[0]][&pair[1]].iter().map(String::as_str).collect();
        text.push_str(&format!("\n  {} → {}: {}", pair[0], pair[1], files.join(", ")));
    }
    text
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("failed to read `{}`: {e}", path.display()))
}
