//! The environment recorded at the baseline, and the environment of every later oracle run built from it.
//!
//! Setup records the variables its process has (the slash command's, i.e. Claude Code's, or the terminal's
//! that ran `loopgate setup`), which the baseline run gets. Every later oracle run gets exactly those,
//! whatever the process that asks has: the Stop hook's environment is Claude Code's, which the agent cannot
//! change, but `loopgate verify` from the agent's shell inherits every variable the agent exported
//! (`PYTHONPATH`, `PYTEST_ADDOPTS`, `NODE_OPTIONS`, `RUSTFLAGS`…), and such a run writes to the same room.
//!
//! Three kinds of variable are not taken as recorded:
//! - **per process or per session** ([`PER_SESSION`]): they differ between the setup process and the hook
//!   for honest reasons (a new shell, another terminal, a new Claude Code session) and steer no runner; an
//!   oracle run takes them from its own process, and goes without them where that has none.
//! - **secrets** (a name that holds `TOKEN`, `SECRET`, `PASSWORD`, `API_KEY`, `CREDENTIAL`…): their values
//!   are not written to disk; only the name is recorded, and a run takes the value from its own process (a
//!   rotated token keeps working). A secret the baseline did not have is not passed.
//! - a value that is not UTF-8 is not recorded (the seal's companions are JSON); such a variable is absent
//!   from later runs.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::caches::{self, CACHES, Cache, Shared};

/// Variables that vary per process or per session: never recorded; taken from the process that runs.
pub(crate) const PER_SESSION: &[&str] = &[
    "_",
    "PWD",
    "OLDPWD",
    "SHLVL",
    "CLAUDE_CODE_SESSION_ID",
    "CLAUDE_CODE_SSE_PORT",
    "CLAUDE_ENV_FILE",
    "CLAUDE_CODE_ENTRYPOINT",
    "TERM_SESSION_ID",
    "WINDOWID",
    "SSH_AUTH_SOCK",
    "SSH_AGENT_PID",
    "SSH_CONNECTION",
    "SSH_CLIENT",
    "SSH_TTY",
    "XDG_SESSION_ID",
    "DBUS_SESSION_BUS_ADDRESS",
    "TMUX",
    "TMUX_PANE",
    "STY",
    "INVOCATION_ID",
    "JOURNAL_STREAM",
    "GPG_AGENT_INFO",
    "KITTY_WINDOW_ID",
    "ITERM_SESSION_ID",
    "WEZTERM_PANE",
    "COLUMNS",
    "LINES",
];

/// Parts of a name that mark a secret (compared in upper case).
const SECRET_MARKS: &[&str] = &[
    "TOKEN",
    "SECRET",
    "PASSWORD",
    "PASSWD",
    "API_KEY",
    "APIKEY",
    "ACCESS_KEY",
    "PRIVATE_KEY",
    "CREDENTIAL",
];

/// The baseline's environment and the room's decisions: a companion of the seal (`seal::ROOM`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Recorded {
    /// Every variable of the baseline run but the per-session ones and the secrets, with its value.
    pub vars: BTreeMap<String, String>,
    /// The secrets' names.
    #[serde(default)]
    pub secrets: BTreeSet<String>,
    /// The caches left to the user, and why.
    #[serde(default)]
    pub shared: Vec<Shared>,
    /// The ecosystems' decisions (see `channels`): whose report stood at the baseline, whether the project has
    /// a test runner of its own; flattened, a bool field per key.
    #[serde(flatten)]
    pub flags: super::channels::Flags,
    /// A pass must also hold in the events of these runners' start hooks (`unittest`, `mocha`; see `hook`):
    /// the baseline's events named exactly the tests its output did.
    #[serde(default)]
    pub hook_report: Option<String>,
    /// The command lines of the processes that ran the baseline's run under a hook that reports over the room's
    /// socket: each owes a run at every promise (`hook::record`).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    pub hook_runs: BTreeSet<String>,
    /// The project asks pytest for a report of its own: the room adds none.
    #[serde(default)]
    pub junit_theirs: bool,
    /// Where the oracle's runs stand; `None` for a loop set up before the room had a tree (the project's own).
    #[serde(default)]
    pub tree: Option<super::TreeState>,
}

impl Recorded {
    /// Records `vars` (the setup process's environment) for a project at `root` verified by `command`.
    pub(crate) fn take(vars: impl IntoIterator<Item = (OsString, OsString)>, root: &Path, command: &str) -> Self {
        let mut recorded = Recorded::default();
        for (name, value) in vars {
            let (Some(name), Some(value)) = (name.to_str(), value.to_str()) else {
                continue;
            };
            if PER_SESSION.contains(&name) {
                continue;
            }
            if secret(name) {
                recorded.secrets.insert(name.to_string());
            } else {
                recorded.vars.insert(name.to_string(), value.to_string());
            }
        }
        recorded.shared = caches::decide(root, command, &recorded.vars);
        recorded.junit_theirs = caches::junit_theirs(root, command, &recorded.vars);
        super::take_theirs(root, &recorded.vars, &mut recorded.flags);
        recorded.tree = Some(super::TreeState::decide(&recorded.vars));
        recorded
    }

    /// The caches this room makes private.
    pub(crate) fn private(&self) -> impl Iterator<Item = &'static Cache> + '_ {
        CACHES
            .iter()
            .copied()
            .filter(|cache| cache.applies(&self.vars) && !self.shared.iter().any(|s| s.var == cache.name()))
    }

    /// The variables of a run, before the caches: as recorded, plus the per-session ones and the secrets from
    /// `current`.
    pub(crate) fn for_run(&self, current: impl Fn(&str) -> Option<OsString>) -> BTreeMap<String, OsString> {
        let mut vars: BTreeMap<String, OsString> = self
            .vars
            .iter()
            .map(|(name, value)| (name.clone(), OsString::from(value)))
            .collect();
        let from_process = PER_SESSION
            .iter()
            .copied()
            .chain(self.secrets.iter().map(String::as_str));
        for name in from_process {
            if let Some(value) = current(name) {
                vars.insert(name.to_string(), value);
            }
        }
        vars
    }
}

/// For a run in the copy at `copy` of the project at `root` (`TreeState::Copied`): `PWD` is the copy, and every
/// value that names the project or a path below it (each entry of a `:`-separated list alike, as `PYTHONPATH`
/// holds) names the same place in the copy, so the run reads the copy's files, not the project's.
pub(crate) fn repoint(env: &mut super::Env, root: &Path, copy: &Path) {
    let (root, copy) = (root.to_string_lossy(), copy.to_string_lossy());
    let moved = |entry: &str| match entry.strip_prefix(root.as_ref()) {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => format!("{copy}{rest}"),
        _ => entry.to_string(),
    };
    env.retain(|(name, _)| name != "PWD");
    for (_, value) in env.iter_mut() {
        if let Some(text) = value.to_str().filter(|text| text.contains(root.as_ref())) {
            *value = OsString::from(text.split(':').map(moved).collect::<Vec<_>>().join(":"));
        }
    }
    env.push((OsString::from("PWD"), OsString::from(copy.as_ref())));
}

/// Whether a variable's name marks it as a secret.
fn secret(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    SECRET_MARKS.iter().any(|mark| upper.contains(mark))
}
