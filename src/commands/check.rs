//! `loopgate check --base REF`: the oracle as a CI check on a pull request. A check is a one-shot loop whose
//! baseline is the base commit: the loop's own machinery, not a second implementation of it.
//!
//! The stages, each a value the next takes:
//!
//! 1. **configure** — the base commit (`git rev-parse REF^{commit}`) and its `.loopgate.toml` (`config`, read with
//!    `git show`, never from the head), turned into `setup`'s own flags and validated as `setup` validates them;
//! 2. **baseline** — a clone of the base in a private temporary directory (`tree::Scratch`), where `setup::start` seals the
//!    oracle and runs the verify command once, in the room, as it does for a loop: every base test by name, the
//!    test files' signatures, the verify command's closure, the held-out tests (`--holdout-from`). No content
//!    snapshot of what the run read outside the project: nothing of the head runs before its judged run, so the
//!    world outside is still the one the baseline read (it was most of the check's cost; BENCHMARKS.md);
//! 3. **head** — the clone made to hold the user's checkout (`tree::overlay_head`): the change as a loop's agent
//!    would have left it;
//! 4. **judge** — `oracle::judge`, exactly as at a loop's promise: the sealed inputs first (an edited, deleted or
//!    skipped base test, a changed runner configuration is named and the command does not run), then the
//!    command in the room, every base test by name, the held-out tests after a pass;
//! 5. **report** — the verdict read into an `outcome::Outcome` and rendered (`render`): text or JSON on stdout,
//!    the Markdown summary (`--summary`, `$GITHUB_STEP_SUMMARY`), the HTML report, GitHub's annotations and
//!    outputs. The loop is ended and its seal removed, and the clone is deleted with the scratch: nothing of the
//!    user's (their loop, their checkout, their repository's worktrees) is touched.
//!
//! Exit codes: 0 the head passed, 1 it did not (`exit_codes::CHECK_FAILED`), 2 bad input (a REF that is no
//! commit, a bad `.loopgate.toml`, no verify command).

mod config;
mod outcome;
mod render;
pub(crate) mod tree;

use std::path::{Path, PathBuf};

use crate::cli::CheckArgs;
use crate::commands::run::tournament::{run_git as git, toplevel};
use crate::commands::setup;
use crate::error::Error;
use crate::exit_codes;
use crate::lifecycle::{Lookup, lookup};
use crate::oracle::{self, Caller};
use crate::project::Project;

use outcome::{Judgement, Outcome};

/// Runs `loopgate check`.
pub(crate) fn run(args: CheckArgs) -> Result<u8, Error> {
    let cwd = Project::for_terminal().root;
    let repo = toplevel(&cwd).map_err(|_| {
        Error::Usage(format!(
            "`loopgate check` needs a git repository: `{}` is not in one",
            cwd.display()
        ))
    })?;
    let base_commit = resolve(&repo, &args.base)?;
    let origin = config::Origin { base: &args.base };
    let file = read_config(&repo, &base_commit, &origin, args.verify.is_some())?;
    let setup_args = file.setup_args(&origin, args.verify.clone(), args.holdout_from.clone())?;
    let mut config = setup::Config::from_args(setup_args, std::io::empty())?;
    // Nothing of the head runs between the base's run and its own: no snapshot of the world outside is needed.
    config.snapshot = false;
    let html = args.html.clone().or_else(|| file.report.html.clone());
    let head_commit = git(&repo, &["rev-parse", "HEAD"]).unwrap_or_default();
    let head_dirty = !git(&repo, &["status", "--porcelain"])?.is_empty();

    let scratch = tree::Scratch::new()?;
    scratch.check_out(&repo, &base_commit)?;
    let project = Project { root: scratch.tree() };
    let started = setup::start(&config, project.clone())?;
    let changed = tree::overlay_head(&repo, &project.root);
    let judged = changed.and_then(|changed| judge(&project, started.baseline.as_ref()).map(|j| (changed, j)));
    drop(scratch);
    let (changed, mut judgement) = judged?;
    if changed.iter().any(|path| path == config::NAME) {
        judgement.notes.push(format!(
            "the head changes `{}`; the check used the base's (a change to it takes effect once merged)",
            config::NAME
        ));
    }
    // The reviewer (a separate model that reads the change, never the agent's words) joins here where one is
    // configured: its findings are added to `judgement.findings` and fail the check like any other.
    let outcome = Outcome {
        passed: judgement.passed,
        base: args.base.clone(),
        base_commit,
        head_commit,
        head_dirty,
        verify: config.loop_config.verify.verify_command.clone().unwrap_or_default(),
        exit: judgement.exit,
        tests: judgement.tests,
        findings: judgement.findings,
        notes: judgement.notes,
        output_tail: judgement.output_tail,
    };
    publish(&outcome, &args, &cwd, html.as_deref())?;
    Ok(if outcome.passed {
        exit_codes::OK
    } else {
        exit_codes::CHECK_FAILED
    })
}

/// The commit `name` names in `repo`; bad input (exit 2) if none.
fn resolve(repo: &Path, name: &str) -> Result<String, Error> {
    let spec = format!("{name}^{{commit}}");
    match git(repo, &["rev-parse", "--verify", "--quiet", "--end-of-options", &spec]) {
        Ok(sha) if !name.trim().is_empty() && !sha.is_empty() => Ok(sha),
        _ => Err(Error::Usage(format!(
            "`--base {name}` is not a commit in `{}`: fetch it first (`git fetch origin main`; in GitHub Actions check out with `fetch-depth: 0`)",
            repo.display()
        ))),
    }
}

/// The base's `.loopgate.toml`; with none there, defaults if `--verify` stands in, else bad input.
fn read_config(repo: &Path, base: &str, origin: &config::Origin, have_verify: bool) -> Result<config::File, Error> {
    let listed = git(repo, &["ls-tree", "--name-only", base, "--", config::NAME])?;
    if listed.is_empty() {
        if have_verify {
            return Ok(config::File::default());
        }
        return Err(Error::Usage(format!(
            "`{}` is not on the base `{}`: commit one there with `verify = \"…\"` (docs/ci.md), or pass `--verify CMD` for a local check",
            config::NAME,
            origin.base
        )));
    }
    let text = git(repo, &["show", &format!("{base}:{}", config::NAME)])?;
    config::File::parse(&text, origin)
}

/// The oracle's verdict on the tree as it stands (the head), against the baseline `setup` took.
fn judge(project: &Project, baseline: Option<&crate::testjudge::baseline::Baseline>) -> Result<Judgement, Error> {
    let Lookup::Loop(active) = lookup(project)? else {
        return Err(Error::NoLoop {
            root: project.root.clone(),
        });
    };
    let tether = crate::process::tether::arm(&project.root);
    let verdict = oracle::judge(&active, 1, Caller::StopHook);
    drop(tether);
    Ok(Judgement::of(&verdict?, baseline))
}

/// Writes the outcome everywhere it is asked for; stdout gets text (or JSON), and, inside GitHub Actions, the
/// annotations.
fn publish(o: &Outcome, args: &CheckArgs, cwd: &Path, html: Option<&Path>) -> Result<(), Error> {
    let at = |path: &Path| -> PathBuf { cwd.join(path) };
    let html = html.map(at);
    if let Some(path) = &html {
        write(path, &render::html(o), false)?;
    }
    let step_summary = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|v| !v.is_empty());
    let summary = args.summary.as_deref().map(at);
    match (&summary, &step_summary) {
        (Some(path), _) => write(path, &render::markdown(o), false)?,
        (None, Some(path)) => write(Path::new(path), &render::markdown(o), true)?,
        (None, None) => {}
    }
    if let Some(path) = std::env::var_os("GITHUB_OUTPUT").filter(|v| !v.is_empty()) {
        let shown = summary.as_deref().or(step_summary.as_deref().map(Path::new));
        write(Path::new(&path), &render::outputs(o, shown, html.as_deref()), true)?;
    }
    if args.json {
        crate::say(serde_json::to_string_pretty(o).unwrap_or_default());
    } else {
        if std::env::var("GITHUB_ACTIONS").is_ok_and(|v| v == "true") {
            print!("{}", render::annotations(o));
        }
        print!("{}", crate::printable::printable(&render::text(o)));
    }
    Ok(())
}

/// Writes (or, for GitHub's files, appends) `text` to `path`.
fn write(path: &Path, text: &str, append: bool) -> Result<(), Error> {
    use std::io::Write;
    let mut options = std::fs::OpenOptions::new();
    options.create(true);
    if append {
        options.append(true);
    } else {
        options.write(true).truncate(true);
    }
    options
        .open(path)
        .and_then(|mut f| f.write_all(text.as_bytes()))
        .map_err(|source| Error::Io {
            action: "write the check's result to",
            path: path.to_path_buf(),
            source,
        })
}
