//! Loads every ecosystem's folder into the concerns that ask it, so that adding an ecosystem is its folder and
//! one line of `src/ecosystem/ECOSYSTEMS` (ARCHITECTURE.md, "An ecosystem is a folder").
//!
//! A file of a folder keeps the module path, and so the layer, of the concern that loads it
//! (`src/ecosystem/python/runner.rs` is `runner::python`, a leaf). rustc can only load such a file through a
//! `#[path = "…"]` attribute whose value is a literal, which no macro can build, so the declarations are written
//! here: for each module that loads a concern, one file in `OUT_DIR/ecosystem/` (`ecosystem/runner.rs` for
//! `runner`), which that module `include!`s once and never edits again. Each holds, in the registration's order,
//! a `#[path]` module per registered folder that has the concern's file, and a macro `each_<concern>!` that lists
//! those modules' items (`each_runner!(&Runners)` is `[&python::Runners, &js::Runners, …]`) for a table that
//! takes one line per ecosystem in that order.
//!
//! A table whose order is behaviour (which `--verify auto` rule is tried first, which program rule recognises a
//! command first, which runner's output is read first, the order a seal lists languages in) is not in the
//! registration's order: each member gives its place by a rank on its registration line (`detect:40`), and
//! `ranked_<table>!` lists the members lowest rank first (`ranked::RANKED`, in `build/ranked.rs`). The ranks sit on the registration line
//! rather than in the folders' Rust files because an order is a relation between ecosystems: one file shows every
//! member's place in every table side by side (read down a column), a new ecosystem picks its place among the
//! others' there, and this script reads no Rust to find it. Two equal ranks in one table fail the build, so no
//! order is left to the registration's by accident.
//!
//! This runs on the host of the build (a cross build included) and reads only the source tree; it fails the build
//! with one line naming the file and the line at fault when the registration and the folders disagree.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

// A file of its own (relative to this one, as rustc reads a `#[path]` here and where the architecture test
// includes this file): the ranks are read and checked there.
#[path = "build/ranked.rs"]
mod ranked;

use ranked::Rank;

/// The registration: one line per ecosystem (see the file's own header).
const REGISTRATION: &str = "src/ecosystem/ECOSYSTEMS";

/// Which module loads a file of a folder, by the file's name in the folder. The module it becomes is named after
/// the ecosystem (`runner.rs` of `python/` is `runner::python`) unless its registration line names it otherwise.
/// A file named here nowhere and on no registration line is a submodule of one that is (`python/options.rs`, of
/// `closure.rs`); one nothing loads fails the architecture test.
const CONCERNS: &[(&str, &str)] = &[
    ("runner.rs", "runner"),
    ("readout.rs", "readout::runner"),
    ("detect.rs", "detect"),
    ("messages.rs", "messages"),
    ("recipes.rs", "recipes"),
    ("plane.rs", "plane"),
    ("schema.rs", "schema"),
    ("closure.rs", "closure::derive"),
    ("observed.rs", "closure::observed"),
    ("resolved.rs", "closure::resolved"),
    ("language.rs", "testsig::language"),
    ("lex.rs", "testsig::lex"),
    ("testsig.rs", "testsig"),
    ("markers.rs", "testsig::markers"),
    ("imports.rs", "testsig::imports"),
    ("doctest.rs", "testsig::doctest"),
    ("testsig/tests.rs", "testsig::tests"),
    ("aware.rs", "aware::rules"),
    ("env_reads.rs", "testsig::env_reads"),
    ("helpers.rs", "testseal::helpers"),
    ("guard.rs", "guard::code"),
    ("hook.rs", "room::hook"),
    ("caches.rs", "room::caches"),
    ("outside.rs", "room::outside"),
    ("stores.rs", "room::snapshot::stores"),
    ("tree.rs", "room::tree"),
];

/// A registration line, as read.
struct Line {
    /// Its line number in the registration (from 1).
    number: usize,
    /// The ecosystem's name (its folder's).
    name: String,
    /// Its files loaded under a name of their own (`FILE`, `LOADER::MODULE`).
    renamed: Vec<(String, String)>,
    /// Its ranks (`WORD:RANK`, `lang:RANK:Variant[=key]`).
    ranks: Vec<Rank>,
}

/// One module to declare: the folder's file, the module it becomes, and the concern (its file's name) whose
/// `each_` macro lists it.
struct Loaded {
    file: PathBuf,
    module: String,
    concern: String,
}

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    // A directory is scanned whole: a file added to a folder (a concern it did not have) rebuilds.
    println!("cargo:rerun-if-changed={REGISTRATION}");
    println!("cargo:rerun-if-changed=src/ecosystem");
    if let Err(e) = generate(&root, &out.join("ecosystem")) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

/// Writes one file per loading module into `out`: every loading module of [`CONCERNS`] gets one, empty or not,
/// so its `include!` never depends on which folders are registered.
pub(crate) fn generate(root: &Path, out: &Path) -> Result<(), String> {
    let mut loaders: BTreeMap<String, Vec<Loaded>> = CONCERNS
        .iter()
        .map(|(_, loader)| ((*loader).to_string(), Vec::new()))
        .collect();
    let lines = registration(root)?;
    for line in &lines {
        let name = &line.name;
        let folder = root.join("src/ecosystem").join(name);
        for (file, target) in &line.renamed {
            if !folder.join(file).is_file() {
                return Err(format!(
                    "{REGISTRATION}: `{name}` names `{file}=…`, but `src/ecosystem/{name}/{file}` does not exist"
                ));
            }
            let (loader, module) = target.rsplit_once("::").ok_or_else(|| {
                format!("{REGISTRATION}: `{name}`: `{file}={target}` must name the loading module and the module (`room::report`)")
            })?;
            loaders.entry(loader.to_string()).or_default().push(Loaded {
                file: folder.join(file),
                module: module.to_string(),
                concern: file.clone(),
            });
        }
        for (concern, loader) in CONCERNS {
            if folder.join(concern).is_file() && !line.renamed.iter().any(|(file, _)| file == concern) {
                loaders
                    .get_mut(*loader)
                    .expect("every loader has an entry")
                    .push(Loaded {
                        file: folder.join(concern),
                        module: name.clone(),
                        concern: (*concern).to_string(),
                    });
            }
        }
    }
    let ranked = ranked::macros(root, &lines)?;
    for (loader, loaded) in &loaders {
        let path = out.join(format!("{}.rs", loader.replace("::", "/")));
        std::fs::create_dir_all(path.parent().expect("a file in a directory"))
            .map_err(|e| format!("failed to create `{}`: {e}", out.display()))?;
        let mut text = declarations(loaded);
        text.push_str(ranked.get(loader.as_str()).map_or("", String::as_str));
        write_if_changed(&path, &text)?;
    }
    Ok(())
}

/// The registration's lines, in order.
fn registration(root: &Path) -> Result<Vec<Line>, String> {
    let text = std::fs::read_to_string(root.join(REGISTRATION))
        .map_err(|e| format!("failed to read `{REGISTRATION}`: {e}"))?;
    let mut lines: Vec<Line> = Vec::new();
    for (n, text) in text.lines().enumerate() {
        let mut words = text.split('#').next().unwrap_or("").split_whitespace();
        let Some(name) = words.next() else { continue };
        let at = format!("{REGISTRATION}:{}", n + 1);
        if !root.join("src/ecosystem").join(name).is_dir() {
            return Err(format!("{at}: `{name}` has no folder `src/ecosystem/{name}/`"));
        }
        if lines.iter().any(|seen| seen.name == name) {
            return Err(format!("{at}: `{name}` is registered twice"));
        }
        let mut line = Line {
            number: n + 1,
            name: name.to_string(),
            renamed: Vec::new(),
            ranks: Vec::new(),
        };
        for word in words {
            if let Some(rank) = ranked::rank(word, &at)? {
                if line.ranks.iter().any(|seen| seen.word == rank.word) {
                    return Err(format!("{at}: `{name}` ranks in `{}` twice", rank.word));
                }
                line.ranks.push(rank);
            } else {
                let (file, target) = word.split_once('=').ok_or_else(|| {
                    format!(
                        "{at}: `{word}` is not `FILE=LOADER::MODULE`, nor a rank `TABLE:RANK` ({})",
                        ranked::words_of_ranks()
                    )
                })?;
                line.renamed.push((file.to_string(), target.to_string()));
            }
        }
        lines.push(line);
    }
    let folders =
        std::fs::read_dir(root.join("src/ecosystem")).map_err(|e| format!("failed to read `src/ecosystem/`: {e}"))?;
    for entry in folders.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if entry.path().is_dir() && !lines.iter().any(|seen| seen.name == name) {
            return Err(format!(
                "`src/ecosystem/{name}/` is not registered: add its line to `{REGISTRATION}`"
            ));
        }
    }
    Ok(lines)
}

/// The text a loading module includes: its modules, then one `each_<concern>!` macro per concern it loads.
fn declarations(loaded: &[Loaded]) -> String {
    let mut text = String::from("// Generated by build.rs from src/ecosystem/ECOSYSTEMS: do not edit.\n");
    for one in loaded {
        // `{:?}` quotes the path as a Rust string literal, escapes included.
        let _ = writeln!(
            text,
            "#[path = {:?}]\npub(crate) mod {};",
            one.file.display().to_string(),
            one.module
        );
    }
    // A table lists a concern every folder may have; a file only some have, under a name of their own, has none.
    let mut concerns: Vec<&str> = loaded.iter().map(|one| one.concern.as_str()).collect();
    concerns.sort_unstable();
    concerns.dedup();
    for concern in concerns
        .into_iter()
        .filter(|c| CONCERNS.iter().any(|(file, _)| file == c))
    {
        let modules: Vec<String> = loaded
            .iter()
            .filter(|one| one.concern == concern)
            .map(|one| one.module.clone())
            .collect();
        let name = concern.trim_end_matches(".rs").replace('/', "_");
        text.push_str(&table_macro(&format!("each_{name}"), &modules));
    }
    text
}

/// A macro `name!` that lists an item of each of `modules`, in their order: `(&ITEM)` their references,
/// `(ITEM)` the items, `(FIRST, … ; &ITEM)` the references after some of the core's own, and `(@modules then)`
/// calls `then!(module, …)` (a struct with a field per module).
fn table_macro(name: &str, modules: &[String]) -> String {
    let list = |amp: &str| {
        modules
            .iter()
            .map(|m| format!("{amp}{m}::$item"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "#[allow(unused_macros)]\nmacro_rules! {name} {{\n    \
         (& $item:ident) => {{ [{}] }};\n    \
         ($item:ident) => {{ [{}] }};\n    \
         ($($first:expr),+ ; & $item:ident) => {{ [$($first,)+ {}] }};\n    \
         (@modules $then:ident) => {{ $then! {{ {} }} }};\n}}\n",
        list("&"),
        list(""),
        list("&"),
        modules.join(", "),
    )
}

/// Writes `text` to `path` unless it holds it already, so an unchanged registration recompiles nothing.
fn write_if_changed(path: &Path, text: &str) -> Result<(), String> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return Ok(());
    }
    std::fs::write(path, text).map_err(|e| format!("failed to write `{}`: {e}", path.display()))
}
