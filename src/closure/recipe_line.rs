//! One command line read as the program it starts: a make recipe's line (`closure::make_plan`) and a
//! `package.json` script (`closure::parts`, the scripts of `npm test`) are compared by the same reading, so a
//! change that leaves what runs and what counts as it was is as if absent in both.
//!
//! Three things on a line change how it is written and not what it starts:
//!
//! - a leading setting of a runner's options variable whose words are free beside what the run inherited
//!   (`PYTEST_ADDOPTS=--tb=short pytest`, `NODE_OPTIONS=--max-old-space-size=4096 jest`): the start channel puts
//!   the room's own words back at the runner's start ([`steers_beside`], [`without_free_settings`]);
//! - a plain `env` before the program, with no option and no assignment (`/usr/bin/env python3 …`): `env` looks
//!   the program up on the same `PATH` the shell would and starts it with the same words and environment
//!   ([`without_plain_env`]); `env -i`, `env -u VAR`, `env -S …` and `env NAME=…` change what it starts with
//!   and stay;
//! - a runner's free option on its command line, which changes how many workers run the same files, how long a
//!   test may take or what is printed (`node --test --test-reporter=spec`, `jest --maxWorkers=2`,
//!   [`without_free_options`], the rows in `runner::COMMAND_LINES`); a reporter named by a path or a package is
//!   code the runner loads and stays.
//!
//! Anything else — a quoted or expanded value, another variable, a word that selects or loads code — stays on
//! the line, so the line compares changed.

use crate::schema::EnvReads;

/// The spellings of `env` the reading drops when nothing follows it but the program: the bare name, found on the
/// run's `PATH` as the program itself is, and the system's own file.
const PLAIN_ENV: &[&str] = &["env", "/usr/bin/env", "/bin/env"];

/// Whether a value `value` of `name`, where the run's environment held `before`, can change what the run runs or
/// counts. The room's own words in `before` (its hooks', caches' and reports') are not the user's: the start
/// channel puts them back at the runner's start whatever the line does (`room::hook::complete`), so only the
/// user's words are weighed. Of those, every word the value drops and every word it adds is judged alone
/// (`runner::steers_as`): `PYTEST_ADDOPTS = --tb=short` over `-ra` drops and adds words that only change what is
/// printed, `GOFLAGS = -trimpath` over `-count=1` the same; dropping `-W error` or adding `-k add` counts. An
/// empty value counts (`runner::steers_as`), and a variable not read as words by its name is judged by the name
/// (`runner::steers_in`).
pub(crate) fn steers_beside(name: &str, value: &str, before: Option<&str>, reads: &EnvReads) -> bool {
    // The room's words of `before`, and the value without them (`+=` keeps them): exactly those words, so a word
    // of the line's own that only looks like the room's is judged.
    let theirs = before.map(|b| crate::room::hook::theirs(name, b));
    let ours: Vec<&str> = before
        .unwrap_or_default()
        .split_whitespace()
        .filter(|w| {
            !theirs
                .as_deref()
                .unwrap_or_default()
                .split_whitespace()
                .any(|t| t == *w)
        })
        .collect();
    let value = &value
        .split_whitespace()
        .filter(|w| !ours.contains(w))
        .collect::<Vec<_>>()
        .join(" ");
    let Some(before) = theirs.filter(|b| !b.trim().is_empty()) else {
        return crate::runner::steers_as(name, value, reads);
    };
    if !crate::runner::steers_in(name, reads) {
        return false;
    }
    if value.trim().is_empty() {
        return crate::runner::steers_as(name, value, reads);
    }
    let old: Vec<&str> = before.split_whitespace().collect();
    let new: Vec<&str> = value.split_whitespace().collect();
    // The inherited words first (make's `+=` appends) or last (a prefix put before them): the rest added.
    if new.starts_with(&old) || new.ends_with(&old) {
        let added = if new.starts_with(&old) {
            &new[old.len()..]
        } else {
            &new[..new.len() - old.len()]
        };
        return !added.is_empty() && crate::runner::steers_as(name, &added.join(" "), reads);
    }
    // Otherwise the value replaces the user's: what it drops and what it adds, each judged alone (every free
    // word stands alone, `--tb=short`; a word whose meaning hangs on its neighbour, `-k add`, is free in
    // neither).
    let dropped: Vec<&str> = old.iter().filter(|w| !new.contains(w)).copied().collect();
    let added: Vec<&str> = new.iter().filter(|w| !old.contains(w)).copied().collect();
    [dropped, added]
        .iter()
        .any(|words| !words.is_empty() && crate::runner::steers_as(name, &words.join(" "), reads))
}

/// A command line as it starts its program, without the leading settings (`PYTEST_ADDOPTS=--tb=short pytest`,
/// `env GOFLAGS=-trimpath go test`) of a runner's options variable whose room's words the start channel restores
/// (`room::hook::completed`) and whose words, beside what the run inherited, change neither what runs nor what
/// counts ([`steers_beside`]), without a plain `env` before the program ([`without_plain_env`]) and without a
/// runner's free options on its command line ([`without_free_options`]): the command then runs what it ran without them, and the line
/// compares as it was. `inherited` gives a name's value in the run's environment. A line with nothing to drop is
/// returned as written.
pub(crate) fn without_free_settings(
    line: &str,
    inherited: &dyn Fn(&str) -> Option<String>,
    reads: &EnvReads,
) -> String {
    let free = |word: &str| {
        word.split_once('=').is_some_and(|(name, value)| {
            crate::room::hook::completed(name)
                && !value.is_empty()
                && !steers_beside(name, value, inherited(name).as_deref(), reads)
        })
    };
    let words: Vec<&str> = line.split_whitespace().collect();
    let env = usize::from(words.first().is_some_and(|first| PLAIN_ENV.contains(first)));
    let settings = words[env..].iter().take_while(|w| free(w)).count();
    // `env` alone before the command is dropped with its settings; `env` with any word left of its own stays.
    let settings_only = words[env..].get(settings).is_none_or(|next| !next.contains('='));
    let rest = if settings == 0 || !settings_only || env + settings == words.len() {
        words.clone()
    } else {
        words[env + settings..].to_vec()
    };
    let mut rest = without_free_options(without_plain_env(rest));
    // A runner started by its full path where the recipe's `PATH` finds that same file by name starts the same
    // binary, through the same start channel where it stands at the binary (`room::hook::binary`).
    if let Some(name) = rest
        .first()
        .and_then(|program| crate::room::hook::binary::as_named(program, inherited("PATH").as_deref()))
    {
        rest[0] = name;
    } else if rest == words {
        return line.to_string();
    }
    rest.join(" ")
}

/// `line` with a script it starts by its path (`./scripts/check.sh`) written as the script's `#!` line runs it
/// (`sh scripts/check.sh`), and a script named with a leading `./` after its interpreter (`sh ./scripts/check.sh`)
/// written without it: the kernel runs a script by its path as `INTERPRETER [ARG] PATH`, so the two lines start
/// the same program on the same file, where the interpreter the `#!` line names is the one the run's `PATH`
/// (`path`) finds by its name (`#!/usr/bin/env sh` always is; a runner binary only where the start channel stands
/// at the binary, [`crate::room::hook::binary::as_named`]). The `#!` line is read as it stands whenever the line
/// is, so another interpreter there makes the line another program; the script's text is sealed where the verify
/// runs it (`closure::script`). `dir` is where the line runs. Any other line is returned as written.
pub(crate) fn as_interpreted(line: &str, dir: &std::path::Path, path: Option<&str>) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = words.first() else {
        return line.to_string();
    };
    let bare = |word: &str| {
        word.strip_prefix("./")
            .filter(|w| !w.is_empty() && !w.starts_with('/'))
            .map(str::to_string)
    };
    if INTERPRETERS.contains(first)
        && let Some(script) = words.get(1).and_then(|w| bare(w))
    {
        return [first.to_string(), script]
            .into_iter()
            .chain(words[2..].iter().map(|w| w.to_string()))
            .collect::<Vec<_>>()
            .join(" ");
    }
    if !first.contains('/') || first.starts_with('/') || first.contains(['$', '`', '"', '\'', '*']) {
        return line.to_string();
    }
    let Some(interpreter) = shebang(&dir.join(first), path) else {
        return line.to_string();
    };
    let script = bare(first).unwrap_or_else(|| first.to_string());
    interpreter
        .into_iter()
        .chain([script])
        .chain(words[1..].iter().map(|w| w.to_string()))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The shells whose script operand a line may name with a leading `./`.
const INTERPRETERS: &[&str] = &["sh", "bash", "dash", "zsh", "ksh"];

/// The words a script's `#!` line runs it with, as a command line would name them (`sh`, `bash -e`), where the
/// interpreter is the one `path` finds by its name; `None` otherwise.
fn shebang(script: &std::path::Path, path: Option<&str>) -> Option<Vec<String>> {
    use std::io::Read;
    let mut head = [0u8; 256];
    let read = std::fs::File::open(script).ok()?.read(&mut head).ok()?;
    let first = std::str::from_utf8(&head[..read])
        .ok()?
        .lines()
        .next()?
        .strip_prefix("#!")?;
    let words: Vec<&str> = first.split_whitespace().collect();
    let (name, rest) = match words.as_slice() {
        ["/usr/bin/env" | "/bin/env", name, rest @ ..] if !name.starts_with('-') && !name.contains('=') => {
            (name.to_string(), rest)
        }
        [interpreter, rest @ ..] if interpreter.starts_with('/') => {
            let name = interpreter.rsplit('/').next()?;
            let named = if crate::room::hook::binary::is_runner(name) {
                crate::room::hook::binary::as_named(interpreter, path)? == name
            } else {
                let found = std::env::split_paths(path?)
                    .map(|dir| dir.join(name))
                    .find(|candidate| candidate.is_file())?;
                found.canonicalize().ok()? == std::path::Path::new(interpreter).canonicalize().ok()?
            };
            (named.then(|| name.to_string())?, rest)
        }
        _ => return None,
    };
    // Linux hands the rest of the line to the interpreter as one argument: one word or none.
    (rest.len() <= 1).then(|| {
        std::iter::once(name)
            .chain(rest.iter().map(|w| w.to_string()))
            .collect()
    })
}

/// `words` without a leading plain `env` ([`PLAIN_ENV`]) when the next word is the program: neither an option
/// (`-i`, `-u VAR`, `-S …`, `--`) nor an assignment, each of which changes what the program starts with.
fn without_plain_env(words: Vec<&str>) -> Vec<&str> {
    let plain = words.first().is_some_and(|first| PLAIN_ENV.contains(first))
        && words
            .get(1)
            .is_some_and(|program| !program.starts_with('-') && !program.contains('='));
    if plain { words[1..].to_vec() } else { words }
}

/// `words` without a runner's free options on its command line when they start that runner
/// (`runner::COMMAND_LINES`): each option goes as one word (`--maxWorkers=2`) or as a word and its value
/// (`--test-reporter spec`), and only among the runner's own words, those before the first that ends its command
/// or redirects it.
fn without_free_options(words: Vec<&str>) -> Vec<&str> {
    let Some(line) = crate::runner::COMMAND_LINES
        .iter()
        .flat_map(|lines| lines.iter())
        .find(|line| line.starts(&words))
    else {
        return words;
    };
    let end = words
        .iter()
        .position(|w| w.contains([';', '&', '|', '<', '>', '(', ')', '`', '$']))
        .unwrap_or(words.len());
    let mut kept = Vec::with_capacity(words.len());
    let mut at = 0;
    while at < end {
        match line.free_at(&words[..end], at) {
            0 => {
                kept.push(words[at]);
                at += 1;
            }
            taken => at += taken,
        }
    }
    kept.extend(&words[at.min(words.len())..]);
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The run's environment as the room sets it: its hooks' words in each runner's options variable.
    fn hook(name: &str) -> Option<String> {
        Some(
            match name {
                "PYTEST_ADDOPTS" => "--junitxml=/room/report/pytest.xml -rap",
                "GOFLAGS" => "-count=1 -exec=/room/hook/go/loopgate-go-exec -v",
                "PATH" => return None,
                _ => "--require /room/hook/node/loopgate-report.cjs",
            }
            .to_string(),
        )
    }

    fn plain(line: &str) -> String {
        without_free_settings(line, &hook, &EnvReads::default())
    }

    /// A script started by its path reads as its `#!` line runs it, where the `PATH` finds that interpreter by
    /// its name; a script named with `./` after its shell reads without it.
    #[test]
    fn a_script_started_by_its_path_reads_as_its_interpreter_runs_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let write = |name: &str, text: &str| {
            let file = dir.path().join(name);
            std::fs::create_dir_all(file.parent().expect("a parent")).expect("mkdir");
            std::fs::write(file, text).expect("write");
        };
        write("scripts/check.sh", "#!/bin/sh\nset -e\n");
        write("scripts/env.sh", "#!/usr/bin/env bash\n");
        write("scripts/strict.sh", "#!/bin/sh -e\n");
        write("scripts/plain.sh", "set -e\n");
        write("scripts/split.sh", "#!/usr/bin/env -S sh -e\n");
        // An interpreter of the project's, not the one `PATH` finds by its name.
        write("tools/sh", "#!/bin/sh\n");
        write(
            "scripts/own.sh",
            &format!("#!{}\n", dir.path().join("tools/sh").display()),
        );
        let path = Some("/usr/local/bin:/usr/bin:/bin");
        let read = |line: &str| as_interpreted(line, dir.path(), path);
        assert_eq!(read("./scripts/check.sh"), "sh scripts/check.sh");
        assert_eq!(read("scripts/check.sh --quick"), "sh scripts/check.sh --quick");
        assert_eq!(read("./scripts/env.sh a b"), "bash scripts/env.sh a b");
        assert_eq!(read("./scripts/strict.sh"), "sh -e scripts/strict.sh");
        assert_eq!(read("sh ./scripts/check.sh"), "sh scripts/check.sh");
        for kept in [
            "./scripts/plain.sh",
            "./scripts/split.sh",
            "./scripts/own.sh",
            "./scripts/missing.sh",
            "/usr/bin/true",
            "python3 -m unittest",
            "sh -e ./scripts/check.sh",
        ] {
            assert_eq!(read(kept), kept);
        }
        assert_eq!(
            as_interpreted("./scripts/check.sh", dir.path(), None),
            "./scripts/check.sh"
        );
    }

    /// A free setting of a runner's options variable compares as the line without it; a word that counts, a
    /// quoted value or another variable stays on the line.
    #[test]
    fn a_free_setting_of_a_runners_options_compares_as_the_line_without_it() {
        assert_eq!(
            plain("PYTEST_ADDOPTS=--tb=short python3 -m pytest -q"),
            "python3 -m pytest -q"
        );
        assert_eq!(plain("env GOFLAGS=-trimpath go test ./..."), "go test ./...");
        assert_eq!(
            plain("NODE_OPTIONS=--no-warnings node --test test/"),
            "node --test test/"
        );
        assert_eq!(plain("NODE_OPTIONS=--max-old-space-size=4096 jest --ci"), "jest --ci");
        for kept in [
            "PYTEST_ADDOPTS=-kmul python3 -m pytest -q",
            "GOFLAGS=-run=TestZero go test ./...",
            "NODE_OPTIONS=--require=./x.js node --test test/",
            "NODE_OPTIONS=--require ./x.js jest --ci",
            "NODE_OPTIONS=\"--no-warnings\" node --test test/",
            "PYTEST_ADDOPTS= python3 -m pytest",
            "CALC_MODE=fast GOFLAGS=-trimpath go test ./...",
            "env -i GOFLAGS=-trimpath go test ./...",
            "GOFLAGS=-trimpath",
        ] {
            assert_eq!(plain(kept), kept);
        }
    }

    /// A setting of a variable the sealed tests read stays, whatever its words.
    #[test]
    fn a_setting_of_a_variable_the_tests_read_stays() {
        let mut reads = EnvReads::default();
        reads.names.insert("NODE_OPTIONS".to_string());
        let line = "NODE_OPTIONS=--max-old-space-size=4096 jest --ci";
        assert_eq!(without_free_settings(line, &hook, &reads), line);
    }

    /// A plain `env` before the program starts it as the bare word does; `env` with an option or an assignment
    /// changes what it starts with and stays.
    #[test]
    fn a_plain_env_is_the_bare_program() {
        assert_eq!(plain("/usr/bin/env python3 -m unittest -q"), "python3 -m unittest -q");
        assert_eq!(plain("env python3 -m unittest"), "python3 -m unittest");
        assert_eq!(plain("/bin/env jest --ci"), "jest --ci");
        assert_eq!(plain("env env -i python3 -m unittest"), "env -i python3 -m unittest");
        assert_eq!(plain("env NODE_OPTIONS=--no-warnings jest --ci"), "jest --ci");
        assert_eq!(
            plain("/usr/bin/env NODE_OPTIONS=--max-old-space-size=4096 jest --ci"),
            "jest --ci"
        );
        for kept in [
            "env -i python3 -m unittest",
            "env -u PYTHONPATH python3 -m unittest",
            "env -S python3 -m unittest",
            "env -- python3 -m unittest",
            "env PATH=/tmp/bin python3 -m unittest",
            "env CALC_MODE=fast python3 -m unittest",
            "/usr/bin/env CALC_MODE=fast python3 -m unittest",
            "/usr/bin/env NODE_OPTIONS=--require=./x.js jest --ci",
            "./env python3 -m unittest",
            "/tmp/env python3 -m unittest",
            "env",
        ] {
            assert_eq!(plain(kept), kept);
        }
    }

    /// node's built-in reporters only print; a reporter named by a path or a package is code node loads.
    #[test]
    fn a_built_in_reporter_of_node_test_only_prints() {
        assert_eq!(plain("node --test --test-reporter=spec"), "node --test");
        assert_eq!(plain("node --test --test-reporter spec test/"), "node --test test/");
        assert_eq!(plain("env node --test --test-reporter=tap"), "node --test");
        for kept in [
            "node --test --test-reporter=./my-reporter.js",
            "node --test --test-reporter ./my-reporter.js",
            "node --test --test-reporter=some-package",
            "node --test --test-reporter=spec --test-reporter-destination=out.txt",
            "node --test-reporter=spec t.js",
            "nodejs --test --test-reporter=spec",
            "node --test && node --test-reporter=spec t.js",
        ] {
            assert_eq!(plain(kept), kept);
        }
        assert_eq!(plain("node --test --test-concurrency=1 test/"), "node --test test/");
        assert_eq!(plain("node --test --test-timeout 60000"), "node --test");
    }

    /// A runner's options that are free as keys of its configuration are free on its command line, spelled as
    /// its parser reads them; an option that selects tests, loads code or sends the report elsewhere stays, and
    /// so does a word after a flag (a test filter).
    #[test]
    fn a_runners_free_options_on_its_command_line() {
        for (line, plain_line) in [
            ("jest --ci --maxWorkers=2", "jest --ci"),
            ("jest --ci --max-workers 50%", "jest --ci"),
            ("jest -i --ci", "jest --ci"),
            ("jest --ci --runInBand --silent --no-cache", "jest --ci"),
            ("jest --ci --colors", "jest --ci"),
            ("jest --ci --reporters=summary", "jest --ci"),
            ("vitest run --no-file-parallelism --reporter=dot", "vitest run"),
            ("vitest run --pool forks --max-workers=1", "vitest run"),
            ("vitest --reporter dot --reporter=junit", "vitest"),
            (
                "python3 -m unittest -b discover -s tests",
                "python3 -m unittest discover -s tests",
            ),
            ("python -m unittest --buffer", "python -m unittest"),
        ] {
            assert_eq!(plain(line), plain_line, "{line}");
        }
        for (before, after) in [
            ("jest --ci", "jest --ci --testNamePattern=add"),
            ("jest --ci", "jest --ci --silent calc"),
            ("jest --ci", "jest --ci --maxWorkers=2 -t add"),
            ("jest --ci", "jest --ci --reporters=./quiet.js"),
            ("jest --ci", "jest --ci --passWithNoTests"),
            ("jest --ci", "jest --ci --bail"),
            ("jest --ci", "jest --ci --onlyChanged"),
            ("jest --ci", "jest"),
            ("vitest run", "vitest run --reporter=./hide.js"),
            ("vitest run", "vitest run --reporter=dot --outputFile=out.txt"),
            ("vitest run", "vitest run --project=unit"),
            ("vitest run", "vitest run --config=other.config.js"),
            ("vitest run", "vitest run --pool=./pool.js"),
            ("vitest run", "vitest run --silent calc"),
            ("vitest run", "vitest run --max-workers calc"),
            ("python3 -m unittest", "python3 -m unittest -b -k add"),
            ("python3 -m pytest -m unittest", "python3 -m pytest -m unittest -b"),
            ("python3 -m unittest", "python3 -m unittest -f"),
        ] {
            assert_ne!(plain(after), plain(before), "{after}");
        }
    }
}
