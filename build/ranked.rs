//! The tables whose order is behaviour, for `build.rs`: each member's place is a rank on its registration line
//! (`detect:40`), and a table lists its members lowest rank first (see `build.rs`'s doc for why the ranks sit on
//! the registration line). Every check here fails the build with one line naming the registration's line.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use super::{CONCERNS, Line, REGISTRATION, table_macro};

/// The `ranked_<word>!` macros (and `schema::Lang`) each loading module includes after its declarations, by the
/// loading module.
pub(super) fn macros(root: &Path, lines: &[Line]) -> Result<BTreeMap<&'static str, String>, String> {
    let mut ranked: BTreeMap<&str, String> = BTreeMap::new();
    for table in RANKED {
        let loader = CONCERNS
            .iter()
            .find(|(file, _)| *file == table.concern)
            .map(|(_, loader)| *loader)
            .expect("a ranked table's concern is one of CONCERNS");
        let members = members(root, lines, table)?;
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
    Ok(ranked)
}

/// A table whose order is behaviour, built from its members' ranks (`WORD:RANK` on their registration lines),
/// lowest first. Each entry's doc says what its order decides, and so what a new member's rank must weigh.
pub(super) struct Ranked {
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

/// One rank of a registration line.
pub(super) struct Rank {
    /// The table's word ([`Ranked::word`]).
    pub(super) word: String,
    pub(super) rank: u32,
    /// For `lang`: the variant of `schema::Lang` and the key a seal stores it under (the variant in lowercase
    /// unless `=key` names another). Never change a key: seals hold it.
    pub(super) variant: Option<(String, String)>,
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

/// The words of the ranked tables, as an error lists them.
pub(super) fn words_of_ranks() -> String {
    RANKED.iter().map(|table| table.word).collect::<Vec<_>>().join(", ")
}

/// A word of a registration line read as a rank (`detect:40`, `lang:30:JavaScript=js`); `None` for a word that
/// does not start with a ranked table's word and a colon.
pub(super) fn rank(word: &str, at: &str) -> Result<Option<Rank>, String> {
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
