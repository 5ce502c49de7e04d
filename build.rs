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
//! `ranked_<table>!` lists the members lowest rank first ([`RANKED`]). The ranks sit on the registration line
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
    ("helpers.rs", "testseal::helpers"),
    ("guard.rs", "guard::code"),
    ("hook.rs", "room::hook"),
    ("caches.rs", "room::caches"),
    ("outside.rs", "room::outside"),
    ("tree.rs", "room::tree"),
];

/// A table whose order is behaviour, built from its members' ranks (`WORD:RANK` on their registration lines),
/// lowest first. Each entry's doc says what its order decides, and so what a new member's rank must weigh.
struct Ranked {
    /// The word of a rank on a registration line (`detect` in `detect:40`), and the table's macro, `ranked_<word>!`.
    word: &'static str,
    /// The concern whose file a member has (`detect.rs`): the table lists that file's module.
    concern: &'static str,
    /// The table, as an error names it.
    table: &'static str,
    /// Whether every folder with the concern's file is a member (only some folders have scripts).
    every: bool,
}

/// The tables whose order is behaviour (see each entry), in the order a registration line gives their ranks.
const RANKED: &[Ranked] = &[
    // The enum's declaration order is `Lang`'s `Ord`: the order a seal lists a command's languages in (a sorted
    // set, persisted). Not a precedence, but a stored order: a new language takes a rank after every other.
    Ranked {
        word: "lang",
        concern: "schema.rs",
        table: "schema::Lang",
        every: true,
    },
    // First match wins, the others are listed as "also found" and the refusal lists what each looks for in this
    // order. A precedence: a manifest that names its tool (`Cargo.toml`, `go.mod`, a `package.json` with a
    // `test` script) before python's rule, which also takes any `pyproject.toml` or `tests/` directory (a Rust
    // crate with a `pyproject.toml` for its bindings runs `cargo test`); the later ones look for files of their
    // own that rarely meet another's, in the order they were added.
    Ranked {
        word: "detect",
        concern: "detect.rs",
        table: "detect::DETECTORS",
        every: true,
    },
    // Tried in this order after the wrappers; the first that recognises a command's program reads its
    // configuration. The rules recognise disjoint program names, except cpp's, which also takes a project file
    // that is a GoogleTest binary whatever its name: it must rank after every rule whose program such a file could
    // be named after (`pytest`, `cargo`, …), so a new rule that matches by name ranks before it or names no
    // program a build could produce.
    Ranked {
        word: "program",
        concern: "closure.rs",
        table: "derive::PROGRAMS",
        every: true,
    },
    // A folder with scripts (`SCRIPTS` in its `closure.rs`: their extensions, their interpreters) ranks here, after
    // the core's own (Perl's, Lua's, configuration files'). Asked with `any`, so the order decides nothing yet;
    // ranked like the others so that no table is in an order no one chose.
    Ranked {
        word: "scripts",
        concern: "closure.rs",
        table: "derive::SCRIPTS",
        every: false,
    },
    // The order runners' markers are looked for and named in (the summary names the first found first, and reads
    // each one's failures), and the order the count scanners are fed a line (`Scanners`, a field per member; the
    // counts are summed). Within a family its `ROWS` keep their own order (nextest's before libtest's, whose
    // output it embeds); between families, the order they were added in.
    Ranked {
        word: "readout",
        concern: "readout.rs",
        table: "readout::runner::FAMILIES",
        every: true,
    },
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

/// One rank of a registration line.
struct Rank {
    /// The table's word ([`Ranked::word`]).
    word: String,
    rank: u32,
    /// For `lang`: the variant of `schema::Lang` and the key a seal stores it under (the variant in lowercase
    /// unless `=key` names another). Never change a key: seals hold it.
    variant: Option<(String, String)>,
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
    let mut ranked: BTreeMap<&str, String> = BTreeMap::new();
    for table in RANKED {
        let loader = CONCERNS
            .iter()
            .find(|(file, _)| *file == table.concern)
            .map(|(_, loader)| *loader)
            .expect("a ranked table's concern is one of CONCERNS");
        let members = members(root, &lines, table)?;
        let modules: Vec<String> = members
            .iter()
            .map(|(line, _)| module_of(line, table.concern, loader))
            .collect::<Result<_, _>>()?;
        let text = ranked.entry(loader).or_default();
        text.push_str(&table_macro(&format!("ranked_{}", table.word), &modules));
        if table.word == "lang" {
            text.push_str(&lang_enum(&members));
        }
    }
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

/// The members of a ranked table, lowest rank first: each line that ranks in it, checked against its folder (a
/// rank needs the concern's file; in a table of every such folder, the file needs a rank) and against the other
/// members (no two share a rank).
fn members<'l>(root: &Path, lines: &'l [Line], table: &Ranked) -> Result<Vec<(&'l Line, &'l Rank)>, String> {
    let mut members: Vec<(&Line, &Rank)> = Vec::new();
    for line in lines {
        let at = format!("{REGISTRATION}:{}", line.number);
        let name = &line.name;
        let has_file = root.join("src/ecosystem").join(name).join(table.concern).is_file();
        let rank = line.ranks.iter().find(|rank| rank.word == table.word);
        match rank {
            Some(rank) if !has_file => {
                return Err(format!(
                    "{at}: `{name}` ranks `{}:{}` in `{}`, but `src/ecosystem/{name}/{}` does not exist",
                    table.word, rank.rank, table.table, table.concern
                ));
            }
            None if has_file && table.every => {
                return Err(format!(
                    "{at}: `{name}` has `src/ecosystem/{name}/{}` but no place in `{}`: add `{}:RANK` to its line",
                    table.concern, table.table, table.word
                ));
            }
            Some(rank) => {
                if let Some((other, _)) = members.iter().find(|(_, seen)| seen.rank == rank.rank) {
                    return Err(format!(
                        "{at}: `{name}` ranks `{}:{}`, the rank `{}` has on line {}: two places in `{}` cannot be equal",
                        table.word, rank.rank, other.name, other.number, table.table
                    ));
                }
                let same_variant = |seen: &Rank| match (&seen.variant, &rank.variant) {
                    (Some((v, k)), Some((variant, key))) => v == variant || k == key,
                    _ => false,
                };
                if let Some((other, _)) = members.iter().find(|(_, seen)| same_variant(seen)) {
                    return Err(format!(
                        "{at}: `{name}`'s `{}:{}` names the variant or the stored key `{}` has on line {}",
                        table.word, rank.rank, other.name, other.number
                    ));
                }
                members.push((line, rank));
            }
            None => {}
        }
    }
    members.sort_by_key(|(_, rank)| rank.rank);
    Ok(members)
}

/// The module `line`'s file of `concern` is declared as: its own name unless its line renames the file, which must
/// then stay in `loader` (a ranked table lists the modules of one loading module).
fn module_of(line: &Line, concern: &str, loader: &str) -> Result<String, String> {
    let Some((_, target)) = line.renamed.iter().find(|(file, _)| file == concern) else {
        return Ok(line.name.clone());
    };
    match target.rsplit_once("::") {
        Some((to, module)) if to == loader => Ok(module.to_string()),
        _ => Err(format!(
            "{REGISTRATION}:{}: `{concern}={target}` must stay in `{loader}`, whose ranked table lists it",
            line.number
        )),
    }
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
            if let Some(rank) = rank(word, &at)? {
                if line.ranks.iter().any(|seen| seen.word == rank.word) {
                    return Err(format!("{at}: `{name}` ranks in `{}` twice", rank.word));
                }
                line.ranks.push(rank);
            } else {
                let (file, target) = word.split_once('=').ok_or_else(|| {
                    format!(
                        "{at}: `{word}` is not `FILE=LOADER::MODULE`, nor a rank `TABLE:RANK` ({})",
                        words_of_ranks()
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

/// The words of the ranked tables, as an error lists them.
fn words_of_ranks() -> String {
    RANKED.iter().map(|table| table.word).collect::<Vec<_>>().join(", ")
}

/// A word of a registration line read as a rank (`detect:40`, `lang:30:JavaScript=js`); `None` for a word that
/// does not start with a ranked table's word and a colon.
fn rank(word: &str, at: &str) -> Result<Option<Rank>, String> {
    let Some((table, rest)) = word.split_once(':') else {
        return Ok(None);
    };
    if !RANKED.iter().any(|ranked| ranked.word == table) {
        return Ok(None);
    }
    let (number, variant) = match rest.split_once(':') {
        Some((number, variant)) => (number, Some(variant)),
        None => (rest, None),
    };
    let rank = number
        .parse::<u32>()
        .map_err(|_| format!("{at}: `{word}`: the rank `{number}` is not a whole number"))?;
    let variant = match (table, variant) {
        ("lang", Some(variant)) => {
            let (variant, key) = match variant.split_once('=') {
                Some((variant, key)) => (variant.to_string(), key.to_string()),
                None => (variant.to_string(), variant.to_lowercase()),
            };
            let ident = |s: &str| {
                s.starts_with(|c: char| c.is_ascii_uppercase()) && s.chars().all(|c| c.is_ascii_alphanumeric())
            };
            if !ident(&variant) || key.is_empty() || !key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(format!(
                    "{at}: `{word}` is not `lang:RANK:Variant` or `lang:RANK:Variant=key`"
                ));
            }
            Some((variant, key))
        }
        ("lang", None) => return Err(format!("{at}: `{word}` names no variant: `lang:RANK:Variant`")),
        (_, Some(_)) => return Err(format!("{at}: `{word}` is not `{table}:RANK`")),
        (_, None) => None,
    };
    Ok(Some(Rank {
        word: table.to_string(),
        rank,
        variant,
    }))
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

/// `schema::Lang`, a variant per `lang:RANK:Variant`, lowest rank first (the declaration order is its `Ord`), each
/// stored under its key. An enum item, not a macro's list, so that it is read as the schema's persisted enum.
fn lang_enum(members: &[(&Line, &Rank)]) -> String {
    let mut text = String::from(
        "/// A programming language whose tests loopgate reads, a variant per ecosystem that ranks in it\n\
         /// (`lang:RANK:Variant` in `src/ecosystem/ECOSYSTEMS`): see `schema.rs`, which includes it.\n\
         #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]\n\
         pub enum Lang {\n",
    );
    for (line, rank) in members {
        let (variant, key) = rank.variant.as_ref().expect("a rank in `lang` names its variant");
        let _ = write!(
            text,
            "    /// The language of `src/ecosystem/{}/`, stored as `{key}`.\n    #[serde(rename = {key:?})]\n    {variant},\n",
            line.name
        );
    }
    text.push_str("}\n");
    text
}

/// Writes `text` to `path` unless it holds it already, so an unchanged registration recompiles nothing.
fn write_if_changed(path: &Path, text: &str) -> Result<(), String> {
    if std::fs::read_to_string(path).is_ok_and(|old| old == text) {
        return Ok(());
    }
    std::fs::write(path, text).map_err(|e| format!("failed to write `{}`: {e}", path.display()))
}
