//! What `make` will run for the verify command's goals, as make itself resolves it — recorded at the baseline and
//! compared at each promise, so that make is judged by what it will run and not by the text of one file.
//!
//! The textual seal (`makefile.rs`, `closure.rs`) reads the Makefile the way a person does; make reads more:
//! `GNUmakefile` / `makefile` / `Makefile` precedence, `-f`, `include`s named by `$(shell …)`, makefiles it
//! remakes before reading them, `VPATH` / `vpath` searches that pick which file `$<` is, pattern and built-in
//! rules, `.DEFAULT`, target-specific variables, `MAKEFLAGS`. Rather than re-implement each, the oracle asks make:
//! `make -n -p --trace ARGS…` prints, for every target it would update, the file and line its recipe comes from
//! followed by the recipe as it would be run (every variable expanded, `$<` resolved through `VPATH`), then its
//! whole database (each target's recipe as written, with its `-`/`@`/`+` prefixes, its target-specific
//! variables, whether it is phony, and make's own variables).
//!
//! **Which targets are compared.** The goals and every target make would update for them but a build step:
//! those run commands for their effect (the test runner). A build step — a reached target that is neither a
//! goal nor phony and whose recipe writes the file it names (`calc.o: calc.c` / `cc -c -o $@ $<`, the same
//! test as the textual seal's, `makefile::builds_a_file`) — has code for its product, the agent's to change; what a build recipe could do to the test side is kept out by the
//! world (the tests stand as sealed and read-only in the room, the closure's files are sealed), so a build-rule
//! change for code completes. For each compared target: the lines make will run, its recipe as written, its
//! target-specific variables; and, for all: `SHELL`, `.SHELLFLAGS`, `MAKEFLAGS` and the special targets that
//! change how every recipe runs (`.ONESHELL`, `.IGNORE`, `.POSIX`, `.EXPORT_ALL_VARIABLES`). A new target, a
//! comment, reformatting, a variable renamed or moved to an included file, a command put in a variable of plain
//! text (`Database::plain_references`): none of these changes what make resolves, so none is named.
//!
//! **Why the dry run is safe to run.** `make -n` is not inert: it still expands `$(shell …)`, runs recipe lines
//! marked `+` or naming `$(MAKE)`, and remakes the makefiles it includes. So it runs exactly where the verify
//! command runs — with the oracle run's own request (its room's environment, tree, mount namespace and plane),
//! just before that run: it executes nothing the verify command would not, and nowhere the verify would not. At
//! setup the code is the user's, as in the baseline run itself. Its output is read line by line in full (the
//! verify runner's line seam), its log kept in the room only until it is read.
//!
//! **What the dry run cannot show, the plan reads from the makefiles** (`plan/unseen.rs`): a makefile can tell
//! a dry run (`n` in `MAKEFLAGS`) and show it another plan, and make's database does not say which variables it
//! exports to the recipes. So the plan also keeps, from every makefile make lists as read (`MAKEFILE_LIST`, read
//! where the dry run ran), the lines that export or can read how make was called, and the value of every
//! variable the makefiles set in the recipes' environment. With those, the plan judges a plain `make` call
//! alone: where it is recorded, setup leaves the makefiles out of the textual seal
//! (`Closure::leave_makefiles_to`), so a new `-include local.mk` setting a variable no recipe uses completes.
//!
//! **A makefile make remakes** runs its recipe in the dry run too, where it can tell the dry run from the run;
//! where the dry run updated a target no goal reaches, make is asked again after the run, every such target
//! assumed up to date, and its plan is held to the dry run's ([`Remade`]).
//!
//! **What it does not see.** A reached file target whose recipe runs the tests (`results.txt: ; pytest > $@`) is
//! compared as a build step, i.e. not. A build step that puts a remade makefile back as the dry run had it,
//! after the run's make read it, is not seen either. Only a verify command that is one plain `make` (or `gmake`) call is
//! resolved; anything else (`cd sub && make`, a script calling make), or a plain call whose goals make could not
//! resolve at setup, keeps the textual seal (`makefile.rs`, `closure.rs`) alone.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::{MovedPart, PartChange, Why};
use crate::verify::VerifyRequest;

#[path = "plan/accept.rs"]
mod accept;
#[path = "plan/printing.rs"]
mod printing;
#[path = "plan/shell.rs"]
mod shell;
#[path = "plan/unseen.rs"]
mod unseen;

/// Special targets that change how every recipe runs, whichever target it belongs to.
const SPECIAL: &[&str] = &[".ONESHELL", ".IGNORE", ".POSIX", ".EXPORT_ALL_VARIABLES"];
/// Make's own variables that decide how a recipe line is run.
const GLOBALS: &[&str] = &["SHELL", ".SHELLFLAGS", "MAKEFLAGS"];
/// The longest the dry run may take: it only reads makefiles (and whatever `$(shell …)` they run).
const DRY_RUN_LIMIT: Duration = Duration::from_secs(60);
/// The most lines of the dry run's output read; make's database of a large project is a few thousand.
const MAX_LINES: usize = 200_000;
/// Label of the part that holds make's own variables and the special targets.
const HOW_RECIPES_RUN: &str = "how make runs every recipe";
/// Label of a makefile make reads now and did not at the baseline, named beside a moved part.
const NOW_READ: &str = "a makefile make now reads";
/// Label of the makefiles' text when it could not be read where the dry run ran: no plan is recorded without
/// them, and at a promise the part is named, so it is never judged without them.
const UNREAD: &str = "(the makefiles make read could not be read)";

/// What make resolved for the verify command's goals: label → what that part holds (see the module doc).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MakePlan {
    /// The verify command's make call, as run (`make -s test`).
    pub(crate) call: String,
    /// One entry per compared target (`test:`) and one for how every recipe runs.
    pub(crate) parts: BTreeMap<String, String>,
    /// The makefile each compared target's recipe comes from (`Makefile`), to name in a rejection.
    #[serde(default)]
    pub(crate) from: BTreeMap<String, String>,
    /// The user accepted a change to one of the makefiles (`loopgate allow`): the next promise takes the plan
    /// afresh, where its run stands, instead of comparing with this one.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) retake: bool,
    /// The makefiles make read (`MAKEFILE_LIST`), relative to where it ran.
    #[serde(default)]
    pub(crate) makefiles: Vec<String>,
    /// What the dry run cannot show (see `plan/unseen.rs`): label → text, its makefile in `from`. `None` in a
    /// plan recorded before these were kept, which is then compared without them (its loop kept the textual seal).
    #[serde(default)]
    pub(crate) unseen: Option<BTreeMap<String, String>>,
    /// The makefiles a rejection named, which the user may accept by name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) named: Vec<String>,
    /// The makefiles as the user accepted them (`loopgate allow`, see `plan/accept.rs`): name → digest.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub(crate) accepted: BTreeMap<String, String>,
    /// What the baseline's tests read of the environment (the closure's, `schema::EnvReads`): a variable they read
    /// steers the run wherever a makefile sets it (`runner::steers_in`). Kept with the plan so that every later
    /// reading of it asks with the same names.
    #[serde(default, skip_serializing_if = "crate::schema::EnvReads::is_empty")]
    pub(crate) reads: crate::schema::EnvReads,
    /// Recorded as [`Steps::Recording`] does: a target's header names only the compared targets, and a step new
    /// at a promise is free. `false` in a plan recorded before (every target named in a header, every reached
    /// target compared), which is then compared as it was recorded.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub(crate) new_steps_free: bool,
    /// At a promise, each step new since the baseline ([`Steps::Since`]) with its recipe lines as make will run
    /// them: judged by what it does in the run (`oracle::steps`), not by its text.
    #[serde(skip)]
    pub(crate) new_steps: BTreeMap<String, Vec<String>>,
    /// The targets make updated that no goal reaches: the makefiles it remade before reading them ([`Remade`]).
    #[serde(skip)]
    pub(crate) remade: Vec<String>,
}

/// Which of the targets make would update for the goals a plan compares, beside the goals themselves (always
/// compared). A phony target or one whose recipe writes no file of its name runs commands for their effect, and
/// one of them runs the tests, so at the baseline each is compared. A step that is new at a promise — reached
/// now, not compared at the baseline (`test: vet` with a new `vet: go vet ./...`) — is not compared by its
/// text: it is a step of the run, judged by what its processes do in the promise's run (`oracle::steps`, as a
/// new `pretest` is): free when nothing it wrote is touched by the rest of the run (a checker, a linter, a
/// directory made), refused when the run reads what it wrote (a `conftest.py`, bytecode, a file in `$HOME`) or
/// it leaves a process running. The goal's own recipe, still compared, runs every test after it; dropping or
/// reordering a compared step still changes the goal's header.
#[derive(Clone, Copy)]
enum Steps<'a> {
    /// A plan recorded before new steps were free: every reached target of effect, and every target a header
    /// names.
    AsBefore,
    /// At the baseline: every reached target of effect; a header names only those.
    Recording,
    /// At a promise: those of them the baseline's plan (its parts) compared too.
    Since(&'a BTreeMap<String, String>),
}

impl Steps<'_> {
    /// The steps a promise compares for `sealed`.
    fn since(sealed: &MakePlan) -> Steps<'_> {
        if sealed.new_steps_free {
            Steps::Since(&sealed.parts)
        } else {
            Steps::AsBefore
        }
    }

    /// Whether a reached target of effect (`target`) is compared.
    fn keeps(&self, target: &str) -> bool {
        match self {
            Steps::AsBefore | Steps::Recording => true,
            Steps::Since(parts) => parts.contains_key(&format!("{target}:")),
        }
    }
}

impl MakePlan {
    /// Whether accepting the path `accepted` (project-relative) accepts a change to this plan: it names one
    /// of the makefiles a compared recipe comes from.
    pub(crate) fn comes_from(&self, accepted: &str) -> bool {
        self.from
            .values()
            .chain(&self.makefiles)
            .chain(&self.named)
            .any(|makefile| makefile == accepted)
    }
}

/// The words after `make` when `command` is one plain `make` (or `gmake`) call, else `None`.
fn make_arguments(command: &str) -> Option<Vec<&str>> {
    if command.contains([
        '$', '`', ';', '&', '|', '<', '>', '(', ')', '\'', '"', '\\', '\n', '*', '?',
    ]) {
        return None;
    }
    let mut words = command.split_whitespace();
    let program = words.next()?;
    let name = Path::new(program).file_name()?.to_str()?;
    matches!(name, "make" | "gmake").then(|| words.collect())
}

/// At the baseline: what make will run for the verify's goals, asked where and as `request` runs the verify
/// command; `None` when the verify command is not one plain make call or make could not say (it is not
/// installed, or the makefiles do not parse): then only the textual seal holds.
pub(crate) fn record(request: &VerifyRequest, reads: &crate::schema::EnvReads) -> Option<MakePlan> {
    resolve(request, reads, Steps::Recording, &[]).and_then(|now| {
        let read = now.plan.unseen.as_ref().is_some_and(|kept| !kept.contains_key(UNREAD));
        (now.resolved && read).then_some(now.plan)
    })
}

/// What a promise's dry run found: the parts that moved, the steps new since the baseline, each with the
/// processes it starts (to be judged by what they do in the run, `oracle::steps`), and, where make remade a
/// makefile, what to hold the run's makefiles to ([`Remade`]).
#[derive(Debug, Default)]
pub(crate) struct Checked {
    pub(crate) moved: Vec<MovedPart>,
    pub(crate) steps: Vec<(MovedPart, Vec<super::steps::Step>)>,
    pub(crate) remade: Option<Remade>,
}

/// A promise's dry run in which make updated a target no goal reaches — a makefile it remakes before reading it
/// (`-include .gen.mk` with a rule for `.gen.mk`) — to be held to what make read in the verify's own run
/// ([`Remade::read_again`]).
///
/// **Why.** Make remakes its makefiles in a dry run too, and the recipe that does can tell the dry run from the
/// run (`n` and `--trace` in `MAKEFLAGS`): it can leave the include empty for the dry run and write one that
/// exports what the tests read for the run, which make then reads. What the run's make read stays on disk
/// after it. So make is asked again after the run, with every such target assumed up to date (`-o`: it remakes
/// none, and reads each as the run left it), and its plan held to the dry run's.
#[derive(Debug)]
pub(crate) struct Remade {
    sealed: MakePlan,
    before: MakePlan,
}

impl Remade {
    /// What differs between the plan of the promise's dry run and the plan make gives, where and as `request`
    /// runs, from the makefiles as the run left them; nothing where make cannot be asked.
    pub(crate) fn read_again(&self, request: &VerifyRequest) -> Vec<MovedPart> {
        let steps = Steps::since(&self.sealed);
        let Some(after) = resolve(request, &self.sealed.reads, steps, &self.before.remade) else {
            return Vec::new();
        };
        moved(&self.before, &after.plan)
            .into_iter()
            .map(|moved| MovedPart {
                part: format!("{} (read by the run's make)", moved.part),
                why: Why::Configures(self.sealed.call.clone()),
                ..moved
            })
            .collect()
    }
}

/// At a promise: what moved in what make will run since `sealed` was recorded, asked where and as `request`
/// runs the verify command. A plan that no longer resolves differs from the baseline's; a dry run that cannot
/// start at all (make gone from the room) names nothing, and the run itself fails.
pub(crate) fn check(sealed: &MakePlan, request: &VerifyRequest) -> Checked {
    let Some(Resolution { plan: now, .. }) = resolve(request, &sealed.reads, Steps::since(sealed), &[]) else {
        return Checked::default();
    };
    let steps = now
        .new_steps
        .iter()
        .map(|(label, lines)| {
            let part = MovedPart {
                path: now.from.get(label).cloned().unwrap_or_else(|| "Makefile".to_string()),
                part: format!("{label} as make resolves it"),
                change: PartChange::Added,
                why: Why::Configures(sealed.call.clone()),
            };
            let lines = lines.iter().map(|line| super::steps::Step::RecipeLine(line.clone()));
            (part, lines.collect())
        })
        .collect();
    Checked {
        moved: moved(sealed, &now),
        steps,
        remade: (!now.remade.is_empty()).then(|| Remade {
            sealed: sealed.clone(),
            before: now,
        }),
    }
}

/// At the first promise after the user accepted a change to the makefiles: the plan taken afresh where and as
/// `request` runs, if the makefiles make reads are as the user accepted them; else what differs (see
/// `plan/accept.rs`). A dry run that cannot start names nothing, as in [`check`], and keeps the sealed plan.
pub(crate) fn retake(sealed: &MakePlan, request: &VerifyRequest) -> Result<MakePlan, Vec<MovedPart>> {
    match resolve(request, &sealed.reads, Steps::Recording, &[]) {
        Some(now) => accept::retaken(sealed, now.plan, now.resolved, &now.texts),
        None => Ok(sealed.clone()),
    }
}

/// What one dry run resolved: the plan, whether make resolved the goals, and the text of each makefile it read.
struct Resolution {
    plan: MakePlan,
    resolved: bool,
    texts: BTreeMap<String, String>,
}

/// Runs `make -n -p --trace` in `request`'s place; what it resolved ([`Resolution`]); `reads`, what the tests
/// read of the environment, steers with the classifier; `steps`, which reached targets are compared;
/// `assume_old`, targets make is told not to remake (`-o`).
fn resolve(
    request: &VerifyRequest,
    reads: &crate::schema::EnvReads,
    steps: Steps,
    assume_old: &[String],
) -> Option<Resolution> {
    let args = make_arguments(request.command)?;
    let program = request.command.split_whitespace().next()?;
    let old: Vec<String> = assume_old
        .iter()
        .map(|target| format!("-o {} ", crate::verify::sh_quote(target)))
        .collect();
    let dry = format!("{program} -n -p --trace {}{} 2>/dev/null", old.concat(), args.join(" "));
    let mut lines: Vec<String> = Vec::new();
    let outcome = run_beside(request, &dry, "make-plan", &mut |line| {
        if lines.len() < MAX_LINES {
            lines.push(String::from_utf8_lossy(line).into_owned());
        }
    })?;
    if matches!(outcome.exit_code, Some(126 | 127)) && lines.is_empty() {
        return None;
    }
    let goals: Vec<&str> = args
        .iter()
        .copied()
        .filter(|a| !a.starts_with('-') && !a.contains('='))
        .collect();
    let resolved = outcome.passed();
    let environment: BTreeMap<String, String> = match request.env {
        Some(env) => env
            .iter()
            .map(|(k, v)| (k.to_string_lossy().into_owned(), v.to_string_lossy().into_owned()))
            .collect(),
        None => std::env::vars_os()
            .map(|(k, v)| (k.to_string_lossy().into_owned(), v.to_string_lossy().into_owned()))
            .collect(),
    };
    let mut plan = MakePlan {
        call: request.command.to_string(),
        ..plan_of(
            &lines,
            &goals,
            resolved,
            &|name| environment.get(name).cloned(),
            reads,
            steps,
        )
    };
    let texts = read_makefiles(request, &plan.makefiles, &curdir(&lines));
    plan.keep_unseen_lines(&texts);
    Some(Resolution { plan, resolved, texts })
}

/// Make's working directory in the dry run's database (`CURDIR`), where the makefiles it lists are.
fn curdir(lines: &[String]) -> String {
    let (_, database) = split_database(lines);
    Database::read(database)
        .variable("CURDIR")
        .unwrap_or_else(|| ".".into())
}

/// The text of each of `makefiles` (relative to `dir`), read where and as `request` runs: the dry run's room
/// may be a mount namespace, and a makefile make remade exists only there. When they cannot be read, the
/// text of one [`UNREAD`] file.
fn read_makefiles(request: &VerifyRequest, makefiles: &[String], dir: &str) -> BTreeMap<String, String> {
    if makefiles.is_empty() {
        return BTreeMap::new();
    }
    // Each file's text follows a line no makefile can know in advance, so none can fake where the next begins.
    let marker = crate::verify::unforeseeable_mark("makefile");
    let names: Vec<String> = makefiles.iter().map(|f| crate::verify::sh_quote(f)).collect();
    let command = format!(
        "cd {} || exit 1; for f in {}; do printf '%s %s\\n' '{marker}' \"$f\"; cat -- \"$f\" 2>/dev/null; echo; done",
        crate::verify::sh_quote(dir),
        names.join(" ")
    );
    let mut texts: BTreeMap<String, String> = BTreeMap::new();
    let mut current: Option<String> = None;
    let mut read = 0;
    let outcome = run_beside(request, &command, "make-files", &mut |line| {
        let line = String::from_utf8_lossy(line);
        let line = line.trim_end_matches(['\n', '\r']);
        if let Some(name) = line.strip_prefix(&marker).and_then(|rest| rest.strip_prefix(' ')) {
            current = Some(name.to_string());
            texts.entry(name.to_string()).or_default();
        } else if let Some(name) = &current
            && read < MAX_LINES
        {
            read += 1;
            let text = texts.entry(name.clone()).or_default();
            text.push_str(line);
            text.push('\n');
        }
    });
    if !outcome.is_some_and(|o| o.passed()) {
        return BTreeMap::from([(UNREAD.to_string(), String::new())]);
    }
    texts
}

/// Runs one of the plan's own commands beside the verify, within the dry run's limit (`verify::run_beside`).
/// `None` when it could not run.
fn run_beside(
    request: &VerifyRequest,
    command: &str,
    what: &str,
    on_line: &mut (dyn FnMut(&[u8]) + Send),
) -> Option<crate::verify::VerifyOutcome> {
    crate::verify::run_beside(request, command, what, DRY_RUN_LIMIT, on_line).ok()
}

/// The plan in the dry run's output `lines` for `goals` (make's default goal when none is named);
/// `inherited` gives a name's value in the run's environment, where it has one; `steps`, which reached targets
/// are compared. The makefiles' own lines are added by [`MakePlan::keep_unseen_lines`].
fn plan_of(
    lines: &[String],
    goals: &[&str],
    resolved: bool,
    inherited: &dyn Fn(&str) -> Option<String>,
    reads: &crate::schema::EnvReads,
    steps: Steps,
) -> MakePlan {
    let (trace, database) = split_database(lines);
    let db = Database::read(database);
    // Where the recipes run, and the `PATH` they find programs on: a script a recipe starts by its path is read
    // as its `#!` line runs it (`closure::recipe_line::as_interpreted`).
    let dir = std::path::PathBuf::from(db.variable("CURDIR").unwrap_or_else(|| ".".into()));
    let path = inherited("PATH");
    let mut goals: Vec<String> = goals.iter().map(|g| g.to_string()).collect();
    if goals.is_empty() {
        goals.extend(db.variable(".DEFAULT_GOAL"));
    }
    let mut parts = BTreeMap::new();
    let mut from = BTreeMap::new();
    // Each target make would update: its makefile, its recipe lines as compared, and as make will run them.
    let mut runs: Vec<(String, String, Vec<String>, Vec<String>)> = Vec::new();
    for line in trace {
        match traced_target(line) {
            Some((file, target)) => runs.push((target, file, Vec::new(), Vec::new())),
            None => {
                if let Some((_, _, recipe, raw)) = runs.last_mut()
                    && !db.is_banner(line)
                {
                    let line = crate::closure::recipe_line::as_interpreted(line.trim_end(), &dir, path.as_deref());
                    recipe.push(unseen::without_free_settings(&line, inherited, reads));
                    raw.push(line.trim_end().to_string());
                }
            }
        }
    }
    // A phony target counts when make would update it for the goals (and `steps` keeps it); a goal always does.
    let reached: Vec<String> = runs.iter().map(|(t, _, _, _)| t.clone()).collect();
    let wanted = db.below(&goals);
    let remade: Vec<String> = reached
        .iter()
        .filter(|t| !wanted.contains(t.as_str()))
        .cloned()
        .collect();
    let goal = |target: &str| goals.iter().any(|g| g == target);
    let of_effect = |target: &str| {
        reached.iter().any(|r| r == target)
            && (db.phony(target) || !super::makefile::builds_a_file(target, db.recipe(target)))
    };
    let compared = |target: &str| goal(target) || (of_effect(target) && steps.keeps(target));
    // A header names the compared targets only, but in a plan recorded before that rule, where it names every one.
    let named = |target: &str| matches!(steps, Steps::AsBefore) || compared(target);
    let mut new_steps = BTreeMap::new();
    for (target, file, recipe, raw) in runs {
        if compared(&target) {
            let entry: &mut String = parts.entry(format!("{target}:")).or_default();
            entry.push_str(&format!("runs:\n{}\n", recipe.join("\n")));
            from.insert(format!("{target}:"), file);
        } else if !goal(&target) && of_effect(&target) && !raw.is_empty() {
            from.insert(format!("{target}:"), file);
            new_steps.insert(format!("{target}:"), raw);
        }
    }
    // A goal make would not update (a file of its name now exists) runs nothing: that is a part too.
    for target in db.targets().filter(|t| compared(t)) {
        let entry = parts.entry(format!("{target}:")).or_default();
        entry.push_str(&db.entry(target, reads, inherited, &dir, &named));
    }
    for goal in &goals {
        parts.entry(format!("{goal}:")).or_default();
    }
    let mut how = String::new();
    for name in GLOBALS {
        let value = db.variable(name).unwrap_or_default();
        // What changes only what make prints changes nothing it runs (`plan/printing.rs`), nor do the
        // jobserver's descriptors, which differ from run to run.
        let value = if *name == "MAKEFLAGS" {
            printing::without_inert(&value)
        } else {
            value
                .split(' ')
                .filter(|w| !w.starts_with("--jobserver"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        how.push_str(&format!("{name} = {value}\n"));
    }
    for special in SPECIAL.iter().filter(|s| db.has_target(s)) {
        how.push_str(&format!("{special}:\n"));
    }
    if !resolved {
        how.push_str("(make could not resolve the goals)\n");
    }
    parts.insert(HOW_RECIPES_RUN.to_string(), how);
    let mut kept = BTreeMap::new();
    let export_all = db.has_target(".EXPORT_ALL_VARIABLES");
    for (label, text, file) in unseen::environment(db.origins(), inherited, export_all, reads) {
        kept.insert(label.clone(), text);
        from.insert(label, file);
    }
    let makefiles = db
        .variable("MAKEFILE_LIST")
        .unwrap_or_default()
        .split_whitespace()
        .map(str::to_string)
        .collect();
    MakePlan {
        call: String::new(),
        parts,
        from,
        retake: false,
        makefiles,
        unseen: Some(kept),
        reads: reads.clone(),
        new_steps_free: !matches!(steps, Steps::AsBefore),
        new_steps,
        remade,
        ..MakePlan::default()
    }
}

impl super::Closure {
    /// Leaves the makefiles of a plain `make` call to its recorded plan: the makefile's text seal, the names make
    /// would read before it (sealed as absent) and its includes, all derived for the make call
    /// (`ecosystem/make/closure.rs`), are dropped; what its recipes run (a script, its runner's configuration)
    /// stays. The plan sees what they guarded, and more (see the module doc); keeping them beside it would name
    /// a new `-include local.mk` that changes nothing make runs. A makefile another reading seals whole stays.
    pub(crate) fn leave_makefiles_to(&mut self, _plan: &MakePlan) {
        let make: Vec<Why> = self
            .files
            .iter()
            .filter(|f| matches!(&f.scope, super::Scope::Read(read) if read.kind.is(&super::makefile::READING)))
            .map(|f| f.why.clone())
            .collect();
        self.files.retain(|f| !make.contains(&f.why));
        self.watches.retain(|w| !make.contains(&w.why));
    }
}

impl MakePlan {
    /// Keeps the lines of the makefiles make read (`texts`: name → text) that the dry run cannot judge.
    fn keep_unseen_lines(&mut self, texts: &BTreeMap<String, String>) {
        let kept = self.unseen.get_or_insert_with(BTreeMap::new);
        if texts.contains_key(UNREAD) {
            kept.insert(UNREAD.to_string(), String::new());
        }
        for (label, text, file) in unseen::makefile_parts(texts, &self.reads) {
            kept.insert(label.clone(), text);
            self.from.insert(label, file);
        }
    }
}

/// The dry run's own lines (trace lines and the recipes make would run), and make's last database: make prints
/// one when it has read its makefiles, and again after remaking one it then re-reads, between the traces.
fn split_database(lines: &[String]) -> (Vec<&String>, &[String]) {
    let mut trace = Vec::new();
    let mut database: &[String] = &[];
    let mut start = None;
    for (i, line) in lines.iter().enumerate() {
        match start {
            None if line.starts_with("# Make data base") => start = Some(i),
            None => trace.push(line),
            Some(from) if line.starts_with("# Finished Make data base") => {
                database = &lines[from..i];
                start = None;
            }
            Some(_) => {}
        }
    }
    // A database cut short (the output's cap) is still the last one make printed.
    if let Some(from) = start {
        database = &lines[from..];
    }
    (trace, database)
}

/// `(file, target)` of a `--trace` line: `Makefile:4: update target 'test' due to: …`, `Makefile:6: target
/// 'unit' does not exist`, `<builtin>: update target 'x' due to: x.c`.
fn traced_target(line: &str) -> Option<(String, String)> {
    let (place, said) = line.split_once(": ")?;
    let rest = said
        .strip_prefix("update target '")
        .or_else(|| said.strip_prefix("target '"))?;
    let (target, tail) = rest.split_once('\'')?;
    if !(tail.starts_with(" due to:") || tail == " does not exist") {
        return None;
    }
    let file = place.rsplit_once(':').map_or(place, |(file, _)| file);
    Some((file.to_string(), target.to_string()))
}

/// Make's database as `-p` prints it: its variables, and an entry per target (blank-line separated).
struct Database<'a> {
    variables: BTreeMap<&'a str, &'a str>,
    /// The comment make prints above each variable: where it comes from (`# makefile (from 'Makefile', line 1)`).
    origins: BTreeMap<&'a str, &'a str>,
    entries: Vec<(&'a str, Vec<&'a str>)>,
}

impl<'a> Database<'a> {
    fn read(lines: &'a [String]) -> Self {
        let mut variables = BTreeMap::new();
        let mut origins = BTreeMap::new();
        let mut comment = "";
        let mut entries: Vec<(&str, Vec<&str>)> = Vec::new();
        let mut in_files = false;
        let mut not_a_target = false;
        let mut current: Option<usize> = None;
        for line in lines {
            let line = line.as_str();
            if line.starts_with("# Files") {
                in_files = true;
                continue;
            }
            if line.is_empty() {
                current = None;
                continue;
            }
            if !in_files {
                if let Some((name, value)) = variable_line(line) {
                    variables.insert(name, value);
                    origins.insert(name, comment);
                }
                comment = if line.starts_with('#') { line } else { "" };
                continue;
            }
            if line == "# Not a target:" {
                not_a_target = true;
                continue;
            }
            if let Some(i) = current {
                entries[i].1.push(line);
                continue;
            }
            if line.starts_with('#') || line.starts_with('\t') {
                continue;
            }
            let Some((name, _)) = line.split_once(':') else {
                continue;
            };
            if std::mem::take(&mut not_a_target) {
                continue;
            }
            // A target-specific variable (`test: FOO := 1`) joins its target's entry.
            match entries.iter().position(|(n, _)| *n == name) {
                Some(i) => entries[i].1.push(line),
                None => entries.push((name, vec![line])),
            }
            if !is_target_variable(line) {
                current = entries.iter().position(|(n, _)| *n == name);
            }
        }
        Database {
            variables,
            origins,
            entries,
        }
    }

    fn variable(&self, name: &str) -> Option<String> {
        self.variables.get(name).map(|v| v.to_string())
    }

    /// Each variable with its value and the comment make printed above it.
    fn origins(&self) -> impl Iterator<Item = (&'a str, &'a str, &'a str)> + '_ {
        self.variables
            .iter()
            .map(|(name, value)| (*name, *value, self.origins.get(name).copied().unwrap_or_default()))
    }

    fn has_target(&self, name: &str) -> bool {
        self.entries.iter().any(|(n, _)| *n == name)
    }

    /// Whether a recipe line only prints literal words (`plan/printing.rs::only_prints`), a banner the plan leaves
    /// out, but under `.ONESHELL`, where the recipe is one script and its last line gives the status.
    fn is_banner(&self, line: &str) -> bool {
        printing::only_prints(line) && !self.has_target(".ONESHELL")
    }

    /// `goals` and every target they depend on, all the way down (normal and order-only prerequisites, as each
    /// target's header in the database names them).
    fn below(&self, goals: &[String]) -> std::collections::BTreeSet<String> {
        let mut seen = std::collections::BTreeSet::new();
        let mut todo: Vec<String> = goals.to_vec();
        while let Some(target) = todo.pop() {
            let headers: Vec<&str> = self
                .entries
                .iter()
                .filter(|(n, _)| *n == target)
                .flat_map(|(_, lines)| lines.iter().copied())
                .filter(|line| {
                    line.strip_prefix(target.as_str())
                        .is_some_and(|rest| rest.starts_with(':'))
                })
                .filter(|line| !is_target_variable(line))
                .collect();
            if !seen.insert(target.clone()) {
                continue;
            }
            for header in headers {
                let prerequisites = header[target.len()..].trim_start_matches(':');
                todo.extend(prerequisites.split_whitespace().filter(|p| *p != "|").map(String::from));
            }
        }
        seen
    }

    fn targets(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(n, _)| *n)
    }

    /// A target's recipe lines as written.
    fn recipe(&self, name: &str) -> Vec<&str> {
        let lines = self
            .entries
            .iter()
            .filter(|(n, _)| *n == name)
            .flat_map(|(_, lines)| lines);
        lines.filter_map(|l| l.strip_prefix('\t')).collect()
    }

    fn phony(&self, name: &str) -> bool {
        self.entries
            .iter()
            .any(|(n, lines)| *n == name && lines.iter().any(|l| l.starts_with("#  Phony target")))
    }

    /// A target's entry without what changes with the tree's state or the makefile's layout: its header,
    /// target-specific variables, phony status and recipe as written.
    /// The entry of target `name` as compared; its recipe lines without their free settings of a runner's
    /// options variable (`unseen::without_free_settings`, given `inherited`), its header naming the targets
    /// `named` keeps.
    fn entry(
        &self,
        name: &str,
        reads: &crate::schema::EnvReads,
        inherited: &dyn Fn(&str) -> Option<String>,
        dir: &Path,
        named: &dyn Fn(&str) -> bool,
    ) -> String {
        let mut out = String::new();
        for (_, lines) in self.entries.iter().filter(|(n, _)| *n == name) {
            for line in lines {
                if line.starts_with('\t') && self.is_banner(line) {
                    continue;
                }
                let kept = line.starts_with('\t')
                    || line.starts_with("#  Phony target")
                    || line.starts_with("#  recipe to execute")
                    || (!line.starts_with('#') && !data_for_the_recipe(line, reads));
                if kept {
                    // `#  recipe to execute (from 'Makefile', line 4):` moves with every line added above.
                    let line = match line.split_once(" (from '") {
                        Some((head, _)) if line.starts_with('#') => head.to_string(),
                        _ => match line.strip_prefix('\t') {
                            Some(recipe) => {
                                let recipe = crate::closure::recipe_line::as_interpreted(
                                    &self.plain_references(name, recipe),
                                    dir,
                                    inherited("PATH").as_deref(),
                                );
                                format!("\t{}", unseen::without_free_settings(&recipe, inherited, reads))
                            }
                            None if !line.starts_with('#') && !is_target_variable(line) => self.header(line, named),
                            None => line.to_string(),
                        },
                    };
                    out.push_str(&line);
                    out.push('\n');
                }
            }
        }
        out
    }
}

impl Database<'_> {
    /// A target's header (`test: tests/test_more.py | out`) but for its prerequisites that are plain files, no
    /// target of the database: make only checks that such a file exists and how old it is, and runs nothing for
    /// it, so listing one (a new test file the goal depends on) changes nothing make runs; a missing one fails
    /// the run. A prerequisite make has a rule for stays where `named` keeps it (what its rule runs is compared
    /// as a target reached; a build step's or a new step's is not, see [`Steps`]), as does every word of a header
    /// make printed some other way.
    fn header(&self, line: &str, named: &dyn Fn(&str) -> bool) -> String {
        let Some(at) = line.find(':') else {
            return line.to_string();
        };
        let colons = line[at..].bytes().take_while(|b| *b == b':').count();
        let (head, prerequisites) = line.split_at(at + colons);
        let kept: Vec<&str> = prerequisites
            .split_whitespace()
            .filter(|word| *word == "|" || (self.has_target(word) && named(word)))
            .collect();
        // An order-only mark with nothing after it orders nothing.
        let kept = match kept.split_last() {
            Some((&"|", before)) => before.to_vec(),
            _ => kept,
        };
        if kept.is_empty() {
            head.to_string()
        } else {
            format!("{head} {}", kept.join(" "))
        }
    }

    /// `recipe` (a line of target `target`'s recipe as written) with each `$(NAME)` / `${NAME}` of a variable whose
    /// value make holds as plain text replaced by that text, as make will expand it: so `$(PYTHON) -m unittest`
    /// under `PYTHON ?= python3` is the recipe `python3 -m unittest` was, and putting a command in a variable (an
    /// everyday refactor) moves nothing (`tests/gaming/honest_changes_6.rs`). Left as written, so compared as
    /// text: a reference to a variable whose value expands anything (`$`: a function, another variable, how make
    /// was called), one the target sets for itself (its target-specific value is compared in the entry), make's
    /// own (`MAKE*`, `MFLAGS`, `CURDIR`, `SHELL`) and any computed or automatic name. What the recipe will run,
    /// expanded whole, is compared beside it (`runs:`), so this only decides what the text as written says.
    fn plain_references(&self, target: &str, recipe: &str) -> String {
        let own: Vec<&str> = self
            .entries
            .iter()
            .filter(|(n, _)| *n == target)
            .flat_map(|(_, lines)| lines.iter())
            .filter(|line| is_target_variable(line))
            .filter_map(|line| line.split_once(':').map(|(_, rest)| rest.trim_start()))
            .filter_map(|rest| {
                let rest = rest.strip_prefix("export ").unwrap_or(rest);
                rest.split([' ', '=', ':', '?', '+']).next()
            })
            .collect();
        let plain = |name: &str| -> Option<&str> {
            let word = !name.is_empty()
                && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                && !name.as_bytes()[0].is_ascii_digit();
            let makes = name.starts_with("MAKE") || matches!(name, "MFLAGS" | "CURDIR" | "SHELL");
            if !word || makes || own.contains(&name) {
                return None;
            }
            self.variables.get(name).copied().filter(|v| !v.contains('$'))
        };
        let mut out = String::with_capacity(recipe.len());
        let mut rest = recipe;
        while let Some(at) = rest.find('$') {
            out.push_str(&rest[..at]);
            let after = &rest[at + 1..];
            let close = match after.as_bytes().first() {
                Some(b'(') => Some(')'),
                Some(b'{') => Some('}'),
                _ => None,
            };
            let replaced = close.and_then(|close| {
                let end = after.find(close)?;
                let value = plain(&after[1..end])?;
                Some((value, end + 1))
            });
            match replaced {
                Some((value, used)) => {
                    out.push_str(value);
                    rest = &after[used..];
                }
                None => {
                    // `$$` is one literal `$`: keep both and move past them.
                    let skip = usize::from(after.starts_with('$')) + 1;
                    out.push_str(&rest[at..at + skip]);
                    rest = &rest[at + skip..];
                }
            }
        }
        out.push_str(rest);
        out
    }
}

/// `NAME = value` (or `:=`, `::=`, `?=`, `+=`) at the start of a database line.
fn variable_line(line: &str) -> Option<(&str, &str)> {
    if line.starts_with('#') || line.starts_with('\t') {
        return None;
    }
    for op in [" ::= ", " := ", " = ", " ?= ", " += "] {
        if let Some((name, value)) = line.split_once(op)
            && !name.contains([' ', ':'])
        {
            return Some((name, value));
        }
    }
    None
}

/// Whether a database line is a target-specific variable that is only data for the recipe's programs
/// (`test: export CALC_MODE = strict`, `test: LOG_LEVEL := debug`): what it does to the recipe's own lines shows
/// in the lines make will run, which are compared, and in the environment no program of the run reads it to
/// decide what runs or counts, nor do the sealed tests (`runner::steers_in`), or its value holds only words that
/// change what is printed (`runner::steers_as`). Make's own variables (`SHELL`, `.SHELLFLAGS`, `MAKEFLAGS`, any
/// name starting with `.`) and a computed name stay in the target's entry.
fn data_for_the_recipe(line: &str, reads: &crate::schema::EnvReads) -> bool {
    if !is_target_variable(line) {
        return false;
    }
    let Some((_, rest)) = line.split_once(": ") else {
        return false;
    };
    let name = rest
        .split_whitespace()
        .find(|w| !matches!(*w, "export" | "unexport" | "override" | "private"))
        .unwrap_or_default();
    // Its value as make's database prints it (`test: export PYTEST_ADDOPTS := --tb=short`), judged with the name.
    let value = [" ::= ", " := ", " = ", " ?= ", " += "]
        .iter()
        .find_map(|op| rest.split_once(op).map(|(_, value)| value.trim()));
    !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !GLOBALS.contains(&name)
        && !match value {
            Some(value) => crate::runner::steers_as(name, value, reads),
            None => crate::runner::steers_in(name, reads),
        }
}

/// Whether a database line `test: FOO := 1` is a target-specific variable, not a rule's header.
fn is_target_variable(line: &str) -> bool {
    line.split_once(": ").is_some_and(|(_, rest)| {
        [" = ", " := ", " ::= ", " += ", " ?= "]
            .iter()
            .any(|op| rest.contains(op))
    })
}

/// The parts of `now` that differ from `sealed`, as moved parts of the makefile each comes from; where any
/// moved, each makefile make now reads that it did not read at the baseline is named too (the likely place of
/// the change: a new `GNUmakefile`, a new included file).
pub(crate) fn moved(sealed: &MakePlan, now: &MakePlan) -> Vec<MovedPart> {
    let why = Why::Configures(sealed.call.clone());
    let part = |label: &str, change: PartChange| {
        let path = now
            .from
            .get(label)
            .or_else(|| sealed.from.get(label))
            .cloned()
            .unwrap_or_else(|| "Makefile".to_string());
        MovedPart {
            path,
            part: label.to_string(),
            change,
            why: why.clone(),
        }
    };
    let mut moved: Vec<MovedPart> = differences(&sealed.parts, &now.parts)
        // A recipe shell that only fails sooner (bash with `-eu -o pipefail`) is judged by value (`plan/shell.rs`).
        .filter(|(label, _)| {
            *label != HOW_RECIPES_RUN
                || !matches!(
                    (sealed.parts.get(*label), now.parts.get(*label)),
                    (Some(was), Some(is)) if shell::fails_no_less(was, is)
                )
        })
        .map(|(label, change)| MovedPart {
            part: format!("{label} as make resolves it"),
            ..part(label, change)
        })
        .collect();
    // A plan recorded before the unseen parts were kept has none to compare.
    if let (Some(was), Some(is)) = (&sealed.unseen, &now.unseen) {
        moved.extend(differences(was, is).map(|(label, change)| MovedPart {
            // `local.mk: its exports …` is named as the part `its exports …` of `local.mk`.
            part: label.split_once(": ").map_or(label, |(_, part)| part).to_string(),
            ..part(label, change)
        }));
    }
    if !moved.is_empty() {
        let new = now.makefiles.iter().filter(|m| !sealed.makefiles.contains(m));
        moved.extend(new.map(|makefile| MovedPart {
            path: makefile.clone(),
            part: NOW_READ.to_string(),
            change: PartChange::Added,
            why: why.clone(),
        }));
    }
    moved
}

/// The labels whose text differs between `was` and `is`, and how.
fn differences<'a>(
    was: &'a BTreeMap<String, String>,
    is: &'a BTreeMap<String, String>,
) -> impl Iterator<Item = (&'a str, PartChange)> {
    let labels: std::collections::BTreeSet<&String> = was.keys().chain(is.keys()).collect();
    labels.into_iter().filter_map(|label| {
        let change = match (was.get(label), is.get(label)) {
            (Some(a), Some(b)) if a == b => return None,
            (Some(_), Some(_)) => PartChange::Changed,
            (None, _) => PartChange::Added,
            (_, None) => PartChange::Removed,
        };
        Some((label.as_str(), change))
    })
}

#[cfg(test)]
#[path = "plan/tests.rs"]
mod tests;
