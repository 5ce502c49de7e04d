//! A runner's options on its command line that change neither what runs nor what counts: how many workers run
//! the same files, how long a test may take, what is printed (`jest --maxWorkers=2`, `vitest run
//! --no-file-parallelism --reporter=dot`, `node --test --test-concurrency=1`, `python3 -m unittest -b`). Each
//! ecosystem declares its rows in its `runner.rs` ([`super::COMMAND_LINES`]); `closure::recipe_line` reads a
//! make recipe's line and a `package.json` script without them, so the line compares as it was.
//!
//! An option is free by its name *and* its value: a flag alone (never given a value, so the word after it is
//! never taken for one), a count, or one of the values the runner ships (a built-in reporter: a path or a
//! package is code the runner loads). A value is taken from the next word only for an option declared to take
//! one, which the runner's parser then takes too; a flag followed by a word leaves the word on the line (a test
//! filter, `jest --silent calc`, still changes it).

/// One runner as its command line starts it, and its free options.
#[derive(Debug)]
pub(crate) struct CommandLine {
    /// The program as the line starts it, each name it goes by (`jest`; `python3`, `python`).
    pub(crate) programs: &'static [&'static str],
    /// The words among its arguments that make it this runner: none when the program is the runner.
    pub(crate) marked: Marked,
    /// The free options, by the name the runner's configuration gives them (camel case: `maxWorkers`).
    pub(crate) options: &'static [(&'static str, Takes)],
    /// Other spellings of an option of [`CommandLine::options`] (`-w` for `maxWorkers`).
    pub(crate) aliases: &'static [(&'static str, &'static str)],
    /// How the runner spells an option's name on its command line.
    pub(crate) spelling: Spelling,
    /// Words (their start) that send the run's output elsewhere or read it back, beside which no option is free:
    /// where the output goes is what the verdict reads (`--test-reporter-destination`).
    pub(crate) unless: &'static [&'static str],
}

/// Where the words that make a program a runner stand.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Marked {
    /// Each anywhere among its arguments (`node --test-reporter=spec --test`).
    Anywhere(&'static [&'static str]),
    /// Right after the program, in this order (`python3 -m unittest`: `-m pytest -m unittest` is not it).
    AfterProgram(&'static [&'static str]),
}

/// What an option takes.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Takes {
    /// Nothing: `--silent`, and its negation `--no-silent` where the runner negates flags ([`Spelling`]).
    Flag,
    /// A whole number, or a share of the cores (`50%`).
    Count,
    /// One of these values, which the runner ships.
    OneOf(&'static [&'static str]),
}

/// How a runner spells an option on its command line.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Spelling {
    /// `--maxWorkers` and `--max-workers`, and a flag negated as `--no-NAME` (yargs, Jest; cac, Vitest).
    CamelOrKebab,
    /// `--test-concurrency` only (node's own options).
    Kebab,
    /// Exactly as listed (`-b`, `--buffer`: Python's `argparse`, no negation).
    AsListed,
}

impl CommandLine {
    /// Whether `words` (a command, the program first) start this runner.
    pub(crate) fn starts(&self, words: &[&str]) -> bool {
        let Some((program, arguments)) = words.split_first() else {
            return false;
        };
        let marked = match self.marked {
            Marked::Anywhere(markers) => markers.iter().all(|m| arguments.contains(m)),
            Marked::AfterProgram(markers) => arguments.get(..markers.len()) == Some(markers),
        };
        self.programs.contains(program) && marked && !words.iter().any(|w| self.unless.iter().any(|u| w.starts_with(u)))
    }

    /// How many words at `words[at]` make one free option: 1 (a flag, or an option and its value joined by `=`),
    /// 2 (an option that takes a value, and the value), or 0 (not free).
    pub(crate) fn free_at(&self, words: &[&str], at: usize) -> usize {
        let word = words[at];
        if let Some((name, value)) = word.split_once('=') {
            return usize::from(self.takes(name).is_some_and(|takes| takes.accepts(value)));
        }
        match self.takes(word) {
            Some(Takes::Flag) => 1,
            Some(takes) => 2 * usize::from(words.get(at + 1).is_some_and(|value| takes.accepts(value))),
            None => 0,
        }
    }

    /// What the option spelled `word` takes, where it is free: for a flag, its negation too.
    fn takes(&self, word: &str) -> Option<Takes> {
        let named = |word: &str| {
            self.aliases
                .iter()
                .find(|(alias, _)| *alias == word)
                .map(|(_, name)| *name)
                .or_else(|| {
                    self.options
                        .iter()
                        .map(|(option, _)| *option)
                        .find(|option| self.spells(option, word))
                })
        };
        let option = |name: &str| self.options.iter().find(|(o, _)| *o == name).map(|(_, t)| *t);
        if let Some(takes) = named(word).and_then(option) {
            return Some(takes);
        }
        let negated = word
            .strip_prefix("--no-")
            .filter(|_| self.spelling != Spelling::AsListed)?;
        named(&format!("--{negated}"))
            .and_then(option)
            .filter(|takes| matches!(takes, Takes::Flag))
    }

    /// Whether the runner reads `word` as `option`.
    fn spells(&self, option: &str, word: &str) -> bool {
        if self.spelling == Spelling::AsListed {
            return word == option;
        }
        word.strip_prefix("--").is_some_and(|name| match self.spelling {
            Spelling::CamelOrKebab => name == option || name == kebab(option),
            _ => name == kebab(option),
        })
    }
}

impl Takes {
    /// Whether `value` is one this option is free with: plain characters only, so no quote or expansion can
    /// carry another word inside it.
    fn accepts(self, value: &str) -> bool {
        match self {
            Takes::Flag => false,
            Takes::Count => {
                let digits = value.strip_suffix('%').unwrap_or(value);
                !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
            }
            Takes::OneOf(values) => values.contains(&value),
        }
    }
}

/// `maxWorkers` as `max-workers`.
fn kebab(camel: &str) -> String {
    let mut out = String::with_capacity(camel.len() + 4);
    for c in camel.chars() {
        if c.is_ascii_uppercase() {
            out.push('-');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const RUNNER: CommandLine = CommandLine {
        programs: &["runner"],
        marked: Marked::Anywhere(&[]),
        options: &[
            ("maxWorkers", Takes::Count),
            ("silent", Takes::Flag),
            ("reporter", Takes::OneOf(&["dot"])),
        ],
        aliases: &[("-w", "maxWorkers")],
        spelling: Spelling::CamelOrKebab,
        unless: &["--outputFile"],
    };

    fn free(line: &str, at: usize) -> usize {
        RUNNER.free_at(&line.split_whitespace().collect::<Vec<_>>(), at)
    }

    /// Each spelling of a free option with a free value is one option; a flag never takes the next word, and a
    /// value that is not plain, or not one the runner ships, is not free.
    #[test]
    fn an_option_is_free_by_its_name_and_its_value() {
        for (line, words) in [
            ("runner --maxWorkers=2", 1),
            ("runner --max-workers=50%", 1),
            ("runner --maxWorkers 2", 2),
            ("runner -w 2", 2),
            ("runner -w=2", 1),
            ("runner --silent", 1),
            ("runner --no-silent", 1),
            ("runner --silent calc", 1),
            ("runner --reporter=dot", 1),
            ("runner --reporter dot", 2),
            ("runner --maxWorkers calc", 0),
            ("runner --maxWorkers=\"2\"", 0),
            ("runner --maxWorkers=$N", 0),
            ("runner --maxWorkers=", 0),
            ("runner --silent=calc", 0),
            ("runner --no-maxWorkers", 0),
            ("runner --reporter=./hide.js", 0),
            ("runner --reporter ./hide.js", 0),
            ("runner --max_workers=2", 0),
            ("runner --maxworkers=2", 0),
            ("runner -maxWorkers=2", 0),
            ("runner --testNamePattern=add", 0),
        ] {
            assert_eq!(free(line, 1), words, "{line}");
        }
    }

    /// The runner is its program with every marker, and not beside a word that sends its output elsewhere.
    #[test]
    fn a_runner_is_its_program_and_markers() {
        let node = CommandLine {
            programs: &["node"],
            marked: Marked::Anywhere(&["--test"]),
            ..RUNNER
        };
        let unittest = CommandLine {
            programs: &["python3", "python"],
            marked: Marked::AfterProgram(&["-m", "unittest"]),
            ..RUNNER
        };
        assert!(unittest.starts(&["python3", "-m", "unittest", "-b"]));
        assert!(unittest.starts(&["python", "-m", "unittest"]));
        assert!(!unittest.starts(&["python3", "-m", "pytest", "-m", "unittest"]));
        assert!(!unittest.starts(&["python3", "-m"]));
        assert!(node.starts(&["node", "--test", "t/"]));
        assert!(!node.starts(&["node", "t.js"]));
        assert!(!node.starts(&["nodejs", "--test"]));
        assert!(RUNNER.starts(&["runner"]));
        assert!(!RUNNER.starts(&[]));
        assert!(!RUNNER.starts(&["runner", "--outputFile=x"]));
        assert!(!RUNNER.starts(&["./runner"]));
    }

    #[test]
    fn camel_case_is_spelled_in_kebab_case() {
        assert_eq!(kebab("maxWorkers"), "max-workers");
        assert_eq!(kebab("fileParallelism"), "file-parallelism");
        assert_eq!(kebab("silent"), "silent");
    }
}
