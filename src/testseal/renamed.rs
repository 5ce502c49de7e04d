//! A file of the code under test renamed, and the test's import of it respelled: judged by what the test loads,
//! not by the import's text.
//!
//! Renaming `src/calc.js` to `src/arith.js` and updating `require('../src/calc.js')` in the test is an everyday
//! refactor, and the import's text changes with it. So where a changed test file has findings, each of its
//! imports that names a project file by its path (`Language::import_path`: a relative specifier, a quoted
//! `#include`, `require_relative`) and binds the same names as a sealed import whose path is gone is read back
//! as that sealed import, and the file is compared again: when that leaves no finding, the file only followed
//! the rename.
//!
//! The path the sealed import named must be gone from the whole project — no candidate file of it, and no file
//! anywhere whose path ends like it (a build's include directory, a load path, a bundler's alias may find a
//! file elsewhere): an import moved away from code that is still there would point the tests at other code. The
//! new path must name a file of the project, outside a tool place (`node_modules`) and no test file. A module
//! reached by a package name, the load path or an installed package is never read as renamed: only the path
//! says what file it is.
//!
//! In the oracle's run the test file stands as sealed with only those imports respelled ([`respell_sealed`],
//! through `testswap`'s cut): the user's tests, as they were, loading the code where it now is.

use std::path::{Component, Path, PathBuf};

use super::follow::{normalize, test_named};
use super::likeness;

use crate::testsig::{self, FileSig, ImportPath, Lang, Language, UnitKind};

/// One import the agent respelled: the path the sealed file spells, and the path the code now has.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Renamed {
    pub(crate) was: String,
    pub(crate) now: String,
    /// The names the sealed import binds (two imports of one module, split between two new ones, are told
    /// apart by them).
    pub(crate) names: Vec<String>,
    /// The agent's whole statement, where it loads the new path by another statement than the sealed one
    /// (Ruby's `require "calc"` become `require_relative "../lib/arith"`): it stands for the sealed one.
    pub(crate) statement: Option<String>,
}

/// The renames that account for `text` (the test file `path`, project-relative, as it is now) against `sig`:
/// `Some` where reading each renamed import back as the sealed one leaves no finding (see the module docs).
pub(crate) fn reading(root: &Path, path: &str, sig: &FileSig, text: &str) -> Option<Vec<Renamed>> {
    let lang = sig.lang;
    let language = testsig::language(lang);
    let dir = Path::new(path).parent().unwrap_or(Path::new(""));
    let sealed: Vec<_> = sig.units.iter().filter(|unit| unit.kind == UnitKind::Import).collect();
    let scanned = testsig::scan(lang, sig.scope, text);
    let mut renames = Vec::new();
    let mut back = text.to_string();
    // From the end, so that each span still points at its import in `back`.
    let mut imports: Vec<_> = scanned
        .nodes
        .iter()
        .filter(|node| node.kind == UnitKind::Import)
        .collect();
    imports.sort_by_key(|node| std::cmp::Reverse(node.span.start));
    let mut bound = Vec::new();
    for node in imports {
        if sealed
            .iter()
            .any(|unit| unit.name == node.name && unit.names == node.names)
        {
            continue;
        }
        let Some(now) = language.import_path(&node.name, &node.names, dir) else {
            continue;
        };
        // The cheap questions first: each of the last two walks the project.
        let was = sealed.iter().find_map(|unit| {
            let was = language.import_path(&unit.name, &unit.names, dir)?;
            let same_names = unit.names == node.names || (was.binds && now.binds);
            let (loaded, likeness) = (unit.file.as_deref()?, unit.likeness.as_deref()?);
            let renamed = same_names
                && was.spelled != now.spelled
                && !root.join(loaded).exists()
                && gone(root, &was)
                && is_renamed(root, language, &now, loaded, likeness);
            renamed.then_some((unit, was))
        });
        let Some((unit, was)) = was else {
            continue;
        };
        let mut statement = None;
        if now.binds {
            // Renamed with its uses, below.
            bound.push((now.spelled.clone(), was.spelled.clone()));
        } else {
            let written = back[node.span.clone()].to_string();
            let mut respelled = respell(&written, &now, &was.spelled)?;
            // An import read as its one-line statement (Ruby's, C's) that changed kind with its path reads back
            // as the sealed statement, and stands for it in the run.
            let one_line = |text: &str| !text.trim().contains('\n');
            if respelled.trim() != unit.name
                && node.name == written.trim()
                && one_line(&written)
                && one_line(&unit.name)
            {
                respelled = unit.name.clone();
                statement = Some(written.trim().to_string());
            }
            back.replace_range(node.span.clone(), &respelled);
        }
        renames.push(Renamed {
            was: was.spelled,
            now: now.spelled,
            names: unit.names.clone(),
            statement,
        });
    }
    // A module bound under its own name is renamed where the tests use it too (`calc.add` read as it was).
    for (now, was) in &bound {
        back = rename_uses(lang, &back, now, was)?;
    }
    (!renames.is_empty() && testsig::compare(sig, &back, lang).is_empty()).then_some(renames)
}

/// `text` with every use of the module bound as `from` spelled `to`, where each is the module's own (`from.x`,
/// not after a dot) or its import; `None` where `from` is used otherwise (a local of that name, an attribute,
/// a keyword argument) or `to` is a name the text already uses.
fn rename_uses(lang: Lang, text: &str, from: &str, to: &str) -> Option<String> {
    let lx = crate::testsig::lex::lex(lang, text);
    let mut at = Vec::new();
    for i in 0..lx.toks.len() {
        if lx.kind(i) != Some(crate::testsig::lex::TokKind::Ident) {
            continue;
        }
        match lx.s(i) {
            name if name == to => return None,
            name if name == from => {
                let after_dot = i > 0 && lx.is(i - 1, b'.');
                let imported = i > 0 && lx.is_word(i - 1, "import");
                if after_dot || !(imported || lx.is(i + 1, b'.')) {
                    return None;
                }
                at.push(lx.toks[i].start..lx.toks[i].end);
            }
            _ => {}
        }
    }
    let mut out = text.to_string();
    for range in at.into_iter().rev() {
        out.replace_range(range, to);
    }
    Some(out)
}

/// The sealed text of the test file `path` with each renamed import spelling the path the code now has, and
/// nothing else changed; `None` where an import of `renames` is not found as sealed.
pub(crate) fn respell_sealed(path: &str, sig: &FileSig, sealed: &str, renames: &[Renamed]) -> Option<String> {
    let (lang, language) = (sig.lang, testsig::language(sig.lang));
    let dir = Path::new(path).parent().unwrap_or(Path::new(""));
    let scanned = testsig::scan(lang, sig.scope, sealed);
    let mut imports: Vec<_> = scanned
        .nodes
        .iter()
        .filter(|node| node.kind == UnitKind::Import)
        .collect();
    imports.sort_by_key(|node| std::cmp::Reverse(node.span.start));
    let mut out = sealed.to_string();
    let mut left: Vec<&Renamed> = renames.iter().collect();
    let mut bound = Vec::new();
    for node in imports {
        let statement = &sealed[node.span.clone()];
        let Some(import) = language.import_path(&node.name, &node.names, dir) else {
            continue;
        };
        let Some(at) = left
            .iter()
            .position(|rename| rename.was == import.spelled && rename.names == node.names)
        else {
            continue;
        };
        let rename = left.remove(at);
        if import.binds {
            // Renamed with its uses, below.
            bound.push(rename);
            continue;
        }
        let respelled = match &rename.statement {
            Some(theirs) => statement.replacen(statement.trim(), theirs, 1),
            None => respell(statement, &import, &rename.now)?,
        };
        out.replace_range(node.span.clone(), &respelled);
    }
    for rename in bound {
        out = rename_uses(lang, &out, &rename.was, &rename.now)?;
    }
    left.is_empty().then_some(out)
}

/// `statement` with the path `from` spells spelled `to`: between a pair of the same quotes, or as a whole
/// dotted name where the language writes it bare (Python's `from calc import add`).
fn respell(statement: &str, from: &ImportPath, to: &str) -> Option<String> {
    let spelled = from.spelled.as_str();
    if !from.quoted {
        let word = |c: char| c.is_alphanumeric() || c == '_' || c == '.';
        let at = statement
            .match_indices(spelled)
            .map(|(at, _)| at)
            .find(|&at| !statement[..at].ends_with(word) && !statement[at + spelled.len()..].starts_with(word))?;
        return Some(format!("{}{to}{}", &statement[..at], &statement[at + spelled.len()..]));
    }
    ['\'', '"', '`'].iter().find_map(|quote| {
        let quoted = format!("{quote}{spelled}{quote}");
        statement
            .contains(&quoted)
            .then(|| statement.replacen(&quoted, &format!("{quote}{to}{quote}"), 1))
    })
}

/// Records in each import unit of `sig` (the test file `path`, project-relative) the project file it loads now,
/// among its candidates (`Unit::file`): the place the code was when the file was sealed.
pub(crate) fn record_files(root: &Path, path: &str, sig: &mut FileSig) {
    let language = testsig::language(sig.lang);
    let dir = Path::new(path).parent().unwrap_or(Path::new(""));
    for unit in sig.units.iter_mut().filter(|unit| unit.kind == UnitKind::Import) {
        let file = language
            .import_path(&unit.name, &unit.names, dir)
            .and_then(|import| found_among_candidates(root, &import));
        unit.likeness = file.as_ref().and_then(|file| likeness_of_file(&root.join(file)));
        unit.file = file.map(|file| file.to_string_lossy().into_owned());
    }
}

/// The likeness of the file at `path`, read once per process for each size and modification time it has: at
/// setup every test file's imports of one module ask for the same file.
fn likeness_of_file(path: &Path) -> Option<String> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    type Key = (PathBuf, u64, Option<std::time::SystemTime>);
    static SEEN: OnceLock<Mutex<HashMap<Key, Option<String>>>> = OnceLock::new();
    let meta = std::fs::metadata(path).ok()?;
    let key = (path.to_path_buf(), meta.len(), meta.modified().ok());
    let seen = SEEN.get_or_init(Default::default);
    let known = seen.lock().ok().and_then(|seen| seen.get(&key).cloned());
    known.unwrap_or_else(|| {
        let likeness = std::fs::read_to_string(path).ok().and_then(|text| likeness::of(&text));
        if let Ok(mut seen) = seen.lock() {
            seen.insert(key, likeness.clone());
        }
        likeness
    })
}

/// The first candidate of `import` that is a file of the project, where nothing makes the runtime resolve it
/// otherwise ([`ImportPath::unless`]).
fn found_among_candidates(root: &Path, import: &ImportPath) -> Option<PathBuf> {
    let exists = |path: &Path| std::fs::symlink_metadata(root.join(path)).is_ok();
    if import
        .unless
        .iter()
        .filter_map(|path| normalize(path))
        .any(|path| exists(&path))
    {
        return None;
    }
    import
        .candidates
        .iter()
        .filter_map(|candidate| normalize(candidate))
        .find(|candidate| std::fs::symlink_metadata(root.join(candidate)).is_ok_and(|meta| meta.is_file()))
}

/// Whether no file of the project is what `import` named: none of its candidates, and none anywhere whose path
/// ends like the spelled path (with or without an extension, or as a Python package's `__init__`).
fn gone(root: &Path, import: &ImportPath) -> bool {
    found(root, import).is_none()
}

/// The project file `import` names: its first candidate that exists, else a file anywhere whose path ends like
/// the spelled path, with or without an extension (a build's include directory, a load path: where only the
/// build knows to look).
fn found(root: &Path, import: &ImportPath) -> Option<PathBuf> {
    if let Some(candidate) = found_among_candidates(root, import) {
        return Some(candidate);
    }
    let tail: PathBuf = import
        .tail
        .components()
        .filter(|c| matches!(c, Component::Normal(_)))
        .collect();
    if tail.as_os_str().is_empty() {
        return Some(PathBuf::new());
    }
    let package = tail.join("__init__");
    let mut found = None;
    // Everywhere but version control: a build's include directory may be anywhere, a package's too.
    let _ = crate::walk::Walker::skipping(&[".git"]).walk(root, |file| {
        let path = Path::new(file.relative);
        let bare = path.with_extension("");
        if path.ends_with(&tail) || bare.ends_with(&tail) || bare.ends_with(&package) {
            found = Some(path.to_path_buf());
        }
        Ok(crate::walk::until(found.is_some()))
    });
    found
}

/// The share of lines a renamed file must keep of the code it was (git's rename detection asks half).
const KEPT: f64 = 0.5;

/// Whether `import` names the code the sealed import loaded from `was`, renamed: a regular file of the project
/// ([`found`]) in no tool place and no test file, that keeps at least [`KEPT`] of the lines `was` had when the
/// test was sealed (`likeness`), where no other file of the project in `was`'s language keeps as many (the code
/// kept under another name, `.js` as `.cjs` too, the test pointed at a copy or a new module).
fn is_renamed(root: &Path, language: &dyn Language, import: &ImportPath, was: &str, sealed: &str) -> bool {
    let Some(file) = found(root, import) else {
        return false;
    };
    let code = std::fs::symlink_metadata(root.join(&file)).is_ok_and(|meta| meta.is_file())
        && !crate::closure::observed::in_tool_place(&file)
        && !testsig::is_test_file(&file)
        && !test_named(language, &file);
    let likeness_of =
        |path: &Path| likeness_of_file(&root.join(path)).map_or(0.0, |now| likeness::similarity(sealed, &now));
    let kept = likeness_of(&file);
    if !code || kept < KEPT {
        return false;
    }
    let lang = crate::schema::Lang::of(Path::new(was));
    let mut closer = false;
    let walker = crate::walk::Walker::skipping(crate::room::tree::BOUND).skipping_build_dirs();
    let _ = walker.walk(root, |entry| {
        let path = Path::new(entry.relative);
        closer = path != file && crate::schema::Lang::of(path) == lang && likeness_of(path) >= kept;
        Ok(crate::walk::until(closer))
    });
    !closer
}

#[cfg(test)]
mod tests;
