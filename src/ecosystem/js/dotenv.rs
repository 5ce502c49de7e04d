//! A `.env` file (`.env`, `.env.local`, `.env.test`, …) that the baseline's run read or looked for, read key by
//! key (`closure::dotenv`, a reader of `closure::READERS`): the keys that can change what runs or counts are its
//! parts, and a file of the others alone is as if absent, so a `.env` made for the dev server
//! (`VITE_API_URL=…`) is honest work.
//!
//! Vite (and so Vitest) reads these files for its mode (`loadEnv`): a key with Vite's prefix reaches the code as
//! `import.meta.env.KEY`, data the code under test reads as it reads any other; no other key reaches the run,
//! but `NODE_ENV`, which sets the mode Vite builds in (`VITE_USER_NODE_ENV`). A tool that loads the file into
//! the process's environment (a test runner's dotenv plugin) makes every key a variable of the run. So a key
//! counts when a variable of its name steers a run (`runner::steers`: `NODE_OPTIONS`, `PYTHONPATH`, `NODE_ENV`)
//! — but for Vite's prefixed ones, which reach only `import.meta.env` —, and when a sealed test reads it
//! (`parts::DATA_VARIABLES`: the names after it in the reading, recorded by `Scope::seal_read_variables`; every
//! key where the tests read the environment whole). A line this reading does not understand counts as it stands.

use super::parts::{DATA_VARIABLES, Reading, Texts};

/// The reader of a `.env` file, in `closure::READERS`.
pub(crate) const READING: Reading = Reading {
    kind: "dotenv",
    parts: |text, names| parts(text, names),
    labels: |_| vec!["its variables, one by one".to_string()],
    resolves: None,
};

/// The prefix of the keys Vite hands only to the code (`import.meta.env`), unless its configuration names
/// another (`envPrefix`, sealed with that configuration).
const VITE_PREFIX: &str = "VITE_";

/// Keys with Vite's prefix that Vite itself reads to decide how it runs.
const VITE_OWN: &[&str] = &["VITE_USER_NODE_ENV"];

/// Whether `name` is a `.env` file this reading judges (Vite's names for every mode).
pub(crate) fn is_dotenv(name: &str) -> bool {
    name == ".env" || (name.starts_with(".env.") && name.len() > ".env.".len())
}

/// The scope that reads a `.env` file key by key; the tests' reads are added at setup.
pub(crate) fn scope() -> super::Scope {
    super::parts::Read::by(&READING, vec![DATA_VARIABLES.to_string()])
}

/// The parts of `text`: each key that counts, with its value; each line not understood, as it stands.
pub(crate) fn parts(text: &str, names: &[String]) -> Texts {
    let read = names
        .iter()
        .position(|n| n == DATA_VARIABLES)
        .map(|at| &names[at + 1..]);
    let counts = |key: &str| {
        let steers = crate::runner::steers(key) && (!key.starts_with(VITE_PREFIX) || VITE_OWN.contains(&key));
        steers || read.is_none_or(|read| read.iter().any(|n| n == key))
    };
    let mut out = Texts::new();
    for (at, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let assignment = line.strip_prefix("export ").unwrap_or(line);
        match assignment.split_once('=') {
            Some((key, value)) if is_name(key.trim()) => {
                let key = key.trim();
                if counts(key) {
                    out.push((key.to_string(), value.trim().to_string()));
                }
            }
            _ => out.push((format!("line {}", at + 1), line.to_string())),
        }
    }
    out
}

/// A variable's name as dotenv parsers take it.
fn is_name(key: &str) -> bool {
    !key.is_empty()
        && !key.starts_with(|c: char| c.is_ascii_digit())
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '-')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_by_tests(names: &[&str]) -> Vec<String> {
        std::iter::once(DATA_VARIABLES)
            .chain(names.iter().copied())
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn keys_that_only_reach_the_code_are_free() {
        let names = read_by_tests(&[]);
        let text = "# the dev server\nVITE_API_URL=http://localhost:8080\nexport APP_TITLE=\"Calc\"\n\nPORT=3000\n";
        assert!(parts(text, &names).is_empty(), "{:?}", parts(text, &names));
        assert!(is_dotenv(".env") && is_dotenv(".env.test.local") && !is_dotenv(".envrc") && !is_dotenv(".env."));
    }

    #[test]
    fn keys_that_steer_a_run_or_that_the_tests_read_count() {
        let names = read_by_tests(&["VITE_FLAG"]);
        for (text, key) in [
            ("NODE_ENV=production\n", "NODE_ENV"),
            ("NODE_OPTIONS=--require ./x.js\n", "NODE_OPTIONS"),
            ("PYTHONPATH=src\n", "PYTHONPATH"),
            ("VITE_USER_NODE_ENV=production\n", "VITE_USER_NODE_ENV"),
            ("VITE_FLAG=1\n", "VITE_FLAG"),
        ] {
            assert_eq!(
                parts(text, &names),
                vec![(key.to_string(), text[key.len() + 1..].trim().to_string())]
            );
        }
        // The tests read the environment whole: every key counts.
        assert_eq!(parts("PORT=3000\n", &[]).len(), 1);
        // A line this reading does not understand counts as it stands.
        assert_eq!(
            parts("VITE_A=1\n$(evil)\n", &names),
            vec![("line 2".to_string(), "$(evil)".to_string())]
        );
    }
}
