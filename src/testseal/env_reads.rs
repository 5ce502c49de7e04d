//! The environment variables the baseline's test code reads, taken at setup (`schema::EnvReads`, kept with the
//! closure in the seal; `runner::steers_in` asks with them), and the constants it reads where its language has
//! them (PHP: PHPUnit's `<const>` is judged by them, `closure::parts::DATA_CONSTANTS`).
//!
//! The test code is what the inventory reads (the test files the verify command's runners would run, and the
//! test modules of Rust sources), the code beside them in their directories (`conftest.py`, `helpers.py`,
//! `spec_helper.rb`, `test_helper.bash`, a setup file), and the derived closure's files of code, in whatever
//! language: the verify's own script (`sh scripts/check.sh`), a `conftest.py` above the tests — not the code under
//! test the closure names, nor a sourced shell library, whose functions are the code. Each file is read by its
//! language's row (`testsig::env_reads`).

use std::collections::BTreeSet;
use std::path::Path;

use super::listing;
use super::rules::Rules;
use crate::closure::{Closure, Scope};
use crate::schema::{EnvReads, Lang};

/// The most bytes of one file read for its reads: a generated file that large is data, not test code.
const MAX_BYTES: u64 = 1 << 20;

/// What the test code of the project at `root`, for the verify command whose closure is `closure`, reads of
/// the environment.
pub fn read(root: &Path, closure: &Closure) -> EnvReads {
    let langs = super::langs_of(&closure.ecosystems);
    let mut out = EnvReads::default();
    // Until a file read says otherwise, no sealed test reads the run's output; `file` clears it.
    let mut output_unread = true;
    let mut read: BTreeSet<String> = BTreeSet::new();
    let mut dirs: BTreeSet<String> = BTreeSet::new();
    for candidate in listing::candidates(root, &langs, &Rules::of(root, &closure.runners), true) {
        if !candidate.inline {
            let dir = Path::new(&candidate.path).parent().unwrap_or(Path::new(""));
            dirs.insert(dir.to_string_lossy().into_owned());
        }
        file(
            root,
            &candidate.path,
            candidate.lang,
            candidate.inline,
            &mut out,
            &mut output_unread,
        );
        read.insert(candidate.path);
    }
    // The code beside the tests, and the closure's code a runner loads.
    let beside = dirs.iter().flat_map(|dir| {
        std::fs::read_dir(root.join(dir))
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(move |entry| {
                let name = entry.file_name().into_string().ok()?;
                entry
                    .file_type()
                    .ok()?
                    .is_file()
                    .then(|| Path::new(dir).join(name).to_string_lossy().into_owned())
            })
    });
    for path in beside.collect::<BTreeSet<String>>() {
        if let Some(lang) = Lang::of(Path::new(&path)).filter(|lang| langs.contains(lang))
            && !read.contains(&path)
        {
            file(root, &path, lang, false, &mut out, &mut output_unread);
        }
    }
    // The closure's code, in whatever language: the verify's own script (`sh scripts/check.sh`), a `conftest.py`.
    // Not the code under test it names, nor a sourced shell library, whose functions are the code.
    for sealed in &closure.files {
        if !matches!(sealed.scope, Scope::Code | Scope::Shell | Scope::ShellBeside { .. })
            && !Path::new(&sealed.path).is_absolute()
            && !read.contains(&sealed.path)
            && let Some(lang) = Lang::of(Path::new(&sealed.path))
        {
            file(root, &sealed.path, lang, false, &mut out, &mut output_unread);
        }
    }
    // Vacuous where no test file was read: nothing says the tests read no output.
    out.output_unread = output_unread && !read.is_empty();
    out
}

/// Adds what the file at `path` (relative to `root`) reads; clears `output_unread` where it may read the run's
/// output (`testsig::env_reads::reads_output`), or cannot be read.
fn file(root: &Path, path: &str, lang: Lang, inline: bool, out: &mut EnvReads, output_unread: &mut bool) {
    let full = root.join(path);
    if std::fs::metadata(&full).is_ok_and(|meta| meta.len() <= MAX_BYTES)
        && let Ok(bytes) = std::fs::read(&full)
    {
        let text = String::from_utf8_lossy(&bytes);
        *output_unread &= !crate::testsig::env_reads::reads_output(lang, &text);
        out.extend(crate::testsig::env_reads::read(lang, &text, inline));
    } else {
        *output_unread = false;
    }
}
