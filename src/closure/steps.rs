//! Steps of the run: a sealed part whose change the oracle can judge by what it *did* in the promise's run, not
//! by its text (issue 39, item 3: "code the test script sources or runs" must complete).
//!
//! A step is code the verify runs **in a process of its own, beside the runner**: npm's `pretest` (npm runs it as
//! `sh -c TEXT` and waits for it before it starts the `test` script), or a line of a script the verify runs that
//! is one external program with literal words (`python3 -c '…'`), whose status reaches nothing but `set -e`'s
//! stop (`closure::script`). Such a process shares nothing with the rest of the run but the file system and the
//! kernel: it cannot set a variable, a function, a trap or a working directory of the shell that started it,
//! nor the status that shell hands back. So what a step can do to the verdict, it does by **writing something
//! the rest of the run then reads** (a module the tests import, a shim on `PATH`, a file in `$HOME`, a bytecode
//! cache, the test package's initialiser), or by a process that outlives it and acts later, or by another
//! process's memory. `oracle::steps` checks exactly those in the promise's trace, per process; a step that did
//! none of them is free, whatever its text.
//!
//! This module only says which moved parts are steps and how to recognise each step's first process in a trace
//! (its argument vector); the verdict is `oracle::steps`'. Each ecosystem that runs steps answers through its
//! row of [`READERS`].

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::parts::Scope;
use super::{Closure, MovedPart};

/// How a step's first process is known in a trace: the argument vector its program was started with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A shell started on this text (`sh -c TEXT`, whatever the shell: npm's `script-shell` may name another).
    ShellText(String),
    /// A program started with exactly these words (a script's line, as the shell splits it).
    Argv(Vec<String>),
    /// A line make runs for a recipe (`closure::make_plan`): by its shell on the text (`SHELL -c LINE`), or as
    /// the line's words where make starts the program itself (GNU make's fast path, for a line no shell needs to
    /// read).
    RecipeLine(String),
}

impl Step {
    /// Whether a process started with `argv` is this step's first.
    pub fn started(&self, argv: &[String]) -> bool {
        match self {
            Step::ShellText(text) => argv.len() == 3 && argv[1] == "-c" && argv[2] == *text,
            Step::Argv(words) => argv == words.as_slice(),
            Step::RecipeLine(line) => {
                (argv.len() == 3 && argv[1] == "-c" && argv[2] == *line)
                    || argv.iter().map(String::as_str).eq(line.split_whitespace())
            }
        }
    }
}

/// What a promise's trace showed a step doing that the rest of the run could feel (see `oracle::steps`); the
/// reason a step's part stays moved.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "how", content = "what")]
pub enum Finding {
    /// It wrote this path, and another process of the run touched it after.
    Fed(String),
    /// A process it started was still running when the run went on.
    Outlived,
    /// It wrote into another process's memory (`process_vm_writev`, `/proc/N/mem`).
    Memory(String),
    /// The run's trace could not be read whole, so nothing about the step can be shown.
    Unread(String),
    /// No process of the run was started as this step: it cannot be told apart from the rest.
    NotSeen,
    /// More than one process of the run was started as this step, none below another (a step whose line is the
    /// goal's own): which are the step's cannot be told.
    Twice,
}

/// One ecosystem's reading of its steps: given a sealed file's scope, the moved part's label and the file's
/// bytes now (and the part's sealed digest), the steps that make up the whole of the move, or `None` when the
/// move is not only steps.
pub type Reader = fn(&Scope, &MovedPart, &[u8], Option<&str>) -> Option<Vec<Step>>;

/// Every ecosystem's reading of its steps, one line each.
pub const READERS: &[Reader] = &[super::derive::js::steps, super::script::steps];

impl Closure {
    /// The steps a moved part consists of, where every change in it is steps (see the module docs); `None`:
    /// the move is judged as before.
    pub fn steps(&self, root: &Path, moved: &MovedPart) -> Option<Vec<Step>> {
        let bytes = std::fs::read(root.join(&moved.path)).ok()?;
        self.steps_if(moved, &bytes)
    }

    /// The steps a moved part would consist of if its file held `bytes` (a file tool's edit, before it runs: the
    /// guard lets a change that is only steps through, for the promise to judge by what it does).
    pub fn steps_if(&self, moved: &MovedPart, bytes: &[u8]) -> Option<Vec<Step>> {
        let file = self.files.iter().find(|f| f.path == moved.path)?;
        let sealed = file.parts.get(&moved.part).map(String::as_str);
        READERS
            .iter()
            .find_map(|read| read(&file.scope, moved, bytes, sealed))
            .filter(|steps| !steps.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::super::derive::js;
    use super::*;
    use crate::closure::{PartChange, Why};

    fn moved(part: &str, change: PartChange) -> MovedPart {
        MovedPart {
            path: "package.json".to_string(),
            part: part.to_string(),
            change,
            why: Why::Configures("npm test".to_string()),
        }
    }

    fn scripts(names: &[&str]) -> Scope {
        Scope::Json(
            names
                .iter()
                .map(|n| vec!["scripts".to_string(), (*n).to_string()])
                .collect(),
        )
    }

    /// A recipe line make runs is started by its shell on the text, or as its words where make starts the program
    /// itself; nothing else is.
    #[test]
    fn a_recipe_line_is_known_by_its_shell_or_by_its_words() {
        let step = Step::RecipeLine("go vet ./...".to_string());
        let argv = |words: &[&str]| words.iter().map(|w| w.to_string()).collect::<Vec<_>>();
        assert!(step.started(&argv(&["/bin/sh", "-c", "go vet ./..."])));
        assert!(step.started(&argv(&["go", "vet", "./..."])));
        assert!(!step.started(&argv(&["go", "vet"])));
        assert!(!step.started(&argv(&["/bin/sh", "-c", "go vet ./... && true"])));
    }

    #[test]
    fn the_pre_script_of_the_verifys_script_is_a_step_and_no_other_key_is() {
        let scope = scripts(&["pretest", "test", "posttest"]);
        let bytes = br#"{"scripts":{"pretest":"node --check a.js","test":"node --test","posttest":"x"}}"#;
        assert_eq!(
            js::steps(&scope, &moved("scripts.pretest", PartChange::Added), bytes, None),
            Some(vec![Step::ShellText("node --check a.js".to_string())])
        );
        for (part, change) in [
            ("scripts.test", PartChange::Changed),
            ("scripts.posttest", PartChange::Added),
            ("scripts.pretest", PartChange::Removed),
        ] {
            assert_eq!(
                js::steps(&scope, &moved(part, change.clone()), bytes, None),
                None,
                "{part}"
            );
        }
        // `npm run prepare`: `prepare` is the verify's own script, not the step of a script `pare`.
        let prepare = scripts(&["preprepare", "prepare", "postprepare"]);
        let bytes = br#"{"scripts":{"prepare":"node --test"}}"#;
        assert_eq!(
            js::steps(&prepare, &moved("scripts.prepare", PartChange::Changed), bytes, None),
            None
        );
    }

    #[test]
    fn a_step_is_known_by_the_words_it_was_started_with() {
        let argv = |words: &[&str]| words.iter().map(|w| (*w).to_string()).collect::<Vec<_>>();
        let shell = Step::ShellText("node --check a.js".to_string());
        assert!(shell.started(&argv(&["sh", "-c", "node --check a.js"])));
        assert!(shell.started(&argv(&["/bin/bash", "-c", "node --check a.js"])));
        assert!(!shell.started(&argv(&["sh", "-c", "node --test"])));
        let words = Step::Argv(argv(&["python3", "-c", "x"]));
        assert!(words.started(&argv(&["python3", "-c", "x"])));
        assert!(!words.started(&argv(&["python3", "-c", "x", "y"])));
    }
}
