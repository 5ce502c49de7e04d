//! Why the guard denies a tool call, and the message the model reads.
//!
//! Every reason says what is protected and what to do instead, in one or two sentences, so the agent gets
//! back to work rather than trying the next way around the guard.

/// What a denied call would have touched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Kind {
    /// The state file, the history, the verify logs or the seal store: loopgate's own record.
    Record,
    /// A file under `--seal`.
    Sealed,
    /// Part of the control plane outside the project (`guard::PlanePath`): what it is.
    Plane(&'static str),
}

/// How a path the agent named led to a protected one, when not by its own name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Route {
    /// `written` resolves (symlinks, `..` after a link) to `resolved`.
    Symlink { written: String, resolved: String },
    /// `written` is the protected file under another name (same device and inode).
    HardLink { written: String },
}

/// A protected path reached by a write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Hit {
    pub(crate) kind: Kind,
    /// The protected path as the model knows it (relative to the project root where possible).
    pub(crate) protected: String,
    /// The path the command names, when it only *contains* the protected one (`rm -rf .claude`).
    pub(crate) via: Option<String>,
    /// How the named path reached the protected one (a symlink, a hard link), for the reason.
    pub(crate) route: Option<Route>,
}

/// How a sealed file the guard refuses is put back, should an earlier change have reached it: the same
/// advice the promise's rejection gives (`oracle::breach`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Undo {
    /// It did not exist when the loop started and must stay absent: `rm -- FILE`.
    Remove,
    /// Git tracks it: `git checkout -- FILE`.
    Git,
    /// Neither (untracked, outside the project, or no git repository): its content as it was at setup.
    ByHand,
}

impl Undo {
    /// The clause that ends a deny reason for `path`.
    fn advice(self, path: &str) -> String {
        match self {
            Undo::Remove => format!(
                "it did not exist when the loop started and must stay absent; if you created it, remove it \
                 with `rm -- {path}`"
            ),
            Undo::Git => format!("to undo an earlier change, run `git checkout -- {path}`"),
            Undo::ByHand => format!(
                "git does not track it, so to undo an earlier change put its content back as it was when the \
                 loop started; only the user can accept a change, with `loopgate allow {path}` in a terminal"
            ),
        }
    }
}

/// A reason to deny.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Finding {
    Hit(Hit),
    /// `loopgate cancel | setup | resume | seal | allow` run by the agent.
    Loopgate(&'static str),
    /// Nesting too deep to analyse.
    TooComplex,
    /// A command longer than the guard analyses (its length in bytes).
    TooLarge(usize),
}

const FINISH: &str = "to finish, reply with <promise>…</promise> (the verify command decides); \
                      to stop, reply with <loop-abort>reason</loop-abort>";

impl Finding {
    /// The `permissionDecisionReason` the model reads; `undo` says how a sealed file is put back.
    pub(crate) fn reason(&self, undo: Undo) -> String {
        let Finding::Hit(hit) = self else {
            return self.plain_reason(undo);
        };
        match &hit.route {
            Some(Route::Symlink { written, resolved }) => format!(
                "loopgate: `{written}` resolves through a symbolic link to `{resolved}`. {}",
                self.plain_reason(undo).trim_start_matches("loopgate: ")
            ),
            Some(Route::HardLink { written }) => format!(
                "loopgate: `{written}` is a hard link to `{}` (same file). {}",
                hit.protected,
                self.plain_reason(undo).trim_start_matches("loopgate: ")
            ),
            None => self.plain_reason(undo),
        }
    }

    /// The reason without the route.
    fn plain_reason(&self, undo: Undo) -> String {
        match self {
            Finding::Hit(Hit {
                kind: Kind::Plane(what),
                protected,
                via,
                ..
            }) => {
                let named = via.as_ref().map_or_else(
                    || format!("`{protected}`"),
                    |via| format!("`{via}`, which holds `{protected}`,"),
                );
                format!(
                    "loopgate: writing {named} is refused: it is {what}, part of the loop's control plane that \
                     only the user changes (from their own terminal); {FINISH}."
                )
            }
            Finding::Hit(Hit {
                kind: Kind::Record,
                protected,
                via: None,
                ..
            }) => {
                format!(
                    "loopgate: `{protected}` is protected while this loop runs (loopgate's record of the loop, or \
                     the settings that enforce it) and is not yours to edit; {FINISH}."
                )
            }
            Finding::Hit(Hit {
                kind: Kind::Record,
                protected,
                via: Some(via),
                ..
            }) => format!(
                "loopgate: this would change `{via}`, which holds `{protected}`, loopgate's record of this loop \
                 and not yours to edit. Name only the paths you mean; {FINISH}."
            ),
            Finding::Hit(Hit {
                kind: Kind::Sealed,
                protected,
                via: None,
                ..
            }) => format!(
                "loopgate: `{protected}` is sealed for this loop — the oracle judges your work against it. \
                 Change the code under test instead; {}.",
                undo.advice(protected)
            ),
            Finding::Hit(Hit {
                kind: Kind::Sealed,
                protected,
                via: Some(via),
                ..
            }) => format!(
                "loopgate: this would change `{via}`, which holds `{protected}`, sealed for this loop — the \
                 oracle judges your work against it. Name only the paths you mean; for `{protected}`, {}.",
                undo.advice(protected)
            ),
            Finding::Loopgate("cancel") => {
                "loopgate: only the user can cancel the loop (/loopgate:cancel-loop); if the \
                 task is impossible, reply with <loop-abort>reason</loop-abort>."
                    .to_owned()
            }
            Finding::Loopgate("setup") => {
                format!(
                    "loopgate: only the user starts a loop (/loopgate:pua-loop), and one is already running here; {FINISH}."
                )
            }
            Finding::Loopgate("resume") => "loopgate: only the user resumes a loop; if you need something from \
                 the user, reply with <loop-pause>what you need</loop-pause>."
                .to_owned(),
            Finding::Loopgate("allow") => "loopgate: only the user can accept a change to the oracle's sealed \
                 inputs (`loopgate allow` in their own terminal); undo your change, or ask with \
                 <loop-pause>what you need</loop-pause>."
                .to_owned(),
            Finding::Loopgate(_) => "loopgate: the seal is fixed by the user at setup and cannot change inside \
                 the loop; change the code under test instead, or reply with <loop-abort>reason</loop-abort> \
                 if the oracle itself is wrong."
                .to_owned(),
            Finding::TooComplex => "loopgate: this command nests too deeply for the guard to check; split it \
                 into simpler commands."
                .to_owned(),
            Finding::TooLarge(bytes) => format!(
                "loopgate: this command is {:.1} MiB, more than the guard checks ({} MiB); write large content \
                 with the Write tool, or split the command.",
                *bytes as f64 / 1_048_576.0,
                super::shell::MAX_COMMAND / 1_048_576
            ),
        }
    }
}
