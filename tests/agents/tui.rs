//! The agents' interactive UIs in a terminal (tmux, `tests/support/tmux.rs`): a user starts a loop the way
//! `docs/agents.md` says (Codex: the skill `$pua-loop …`; Gemini CLI: the command `/pua-loop …`; Copilot CLI: the
//! skill `/pua-loop …`), the stop hook
//! rejects one promise and the loop completes; then a loop the agent pauses is cancelled the documented way. On
//! the way the agent's command tries to overwrite the CLI's hook configuration and loopgate's installed command:
//! both stay as they were, and the next loop still starts.
//! Checked: what the UI showed the user (loopgate's own sentences, never another CLI's command names, never
//! "Unrecognized command") and what the scripted model received (the rejection, with no HTML entities).

use std::time::Duration;

use crate::client::{Agent, config_dir, prepare};
use crate::common::{CHECK_SH, TASK};
use crate::harness::Project;
use crate::mock_api::{MockApi, Reply};
use crate::tmux::Pane;

/// The agent CLI `version` running interactively in the project, past its first-run questions, at its prompt.
fn start(project: &Project, agent: Agent, version: &str, api: &MockApi) -> Pane {
    let mut env = project.env();
    env.extend(agent.env(api));
    let base = project.dir.parent().expect("scenario dir");
    let bin = agent.bin_of(version);
    let minute = Duration::from_secs(60);
    match agent {
        Agent::Codex => {
            let mut pane = Pane::start(
                base,
                &env,
                &project.dir,
                &bin,
                &["--dangerously-bypass-approvals-and-sandbox"],
                "›",
            );
            // Codex asks once per folder whether to trust it; the user says yes.
            let screen = pane.wait_until("Codex's prompt", minute, |s| {
                s.contains("Trust this folder?") || s.contains("Ask Codex")
            });
            if screen.contains("Trust this folder?") {
                pane.press_until("Enter", "Codex's prompt", |s| {
                    s.contains("Ask Codex") && !s.contains("Trust this folder?")
                });
            }
            pane
        }
        Agent::Gemini => {
            // The folder trusted, as Gemini's own dialog records it (hooks run only in a trusted folder).
            let root = std::fs::canonicalize(&project.dir).expect("the project's path");
            let rules = serde_json::json!({root.display().to_string(): "TRUST_FOLDER"});
            std::fs::write(
                config_dir(project, agent).join("trustedFolders.json"),
                rules.to_string(),
            )
            .expect("write trustedFolders.json");
            let mut pane = Pane::start(base, &env, &project.dir, &bin, &["--yolo"], "*");
            pane.wait_until("Gemini's prompt", minute, |s| s.contains("Type your message"));
            pane
        }
        Agent::Copilot => {
            let mut pane = Pane::start(base, &env, &project.dir, &bin, &["--allow-all"], "❯");
            pane.wait_until("Copilot's prompt", minute, |s| s.contains("? help"));
            pane
        }
        Agent::Opencode => panic!("opencode's interactive UI is not driven by this suite (docs/agents.md)"),
    }
}

/// How the user types loopgate's command `name` in this agent's interactive UI (`docs/agents.md`).
fn command(agent: Agent, name: &str) -> String {
    match agent {
        Agent::Codex => format!("${name}"),
        Agent::Gemini | Agent::Copilot | Agent::Opencode => format!("/{name}"),
    }
}

/// Types `line` into the agent's input box and sends it. In Codex a bare `$name` leaves the skill list open,
/// where Enter picks the skill (Codex writes it into the box): a second Enter sends it, as a user does.
fn send(pane: &mut Pane, agent: Agent, line: &str) {
    if !matches!(agent, Agent::Codex) || line.contains(' ') {
        pane.type_line(line);
        return;
    }
    pane.type_text(line);
    pane.wait_until("Codex's skill list", Duration::from_secs(30), |s| s.contains("[Skill]"));
    pane.press("Enter");
    pane.wait_until("the skill picked", Duration::from_secs(30), |s| !s.contains("[Skill]"));
    std::thread::sleep(Duration::from_millis(300));
    pane.press("Enter");
}

/// The text of every request the scripted model answered: what the model read, turn by turn.
fn read_by_model(api: &MockApi) -> Vec<String> {
    api.requests()
        .iter()
        .filter(|r| r.scripted)
        .map(|r| r.message_text())
        .collect()
}

fn statuses_end_with(project: &Project, status: &str) -> bool {
    project.statuses().last().is_some_and(|s| s == status)
}

/// The CLI's own hook configuration and loopgate's installed start command, in its configuration directory.
fn own_files(agent: Agent) -> (&'static str, &'static str) {
    match agent {
        Agent::Codex => ("hooks.json", "skills/pua-loop/SKILL.md"),
        Agent::Gemini => ("settings.json", "commands/pua-loop.toml"),
        Agent::Copilot => ("hooks/loopgate.json", "skills/pua-loop/SKILL.md"),
        Agent::Opencode => ("plugin/loopgate.js", "plugin/loopgate.js"),
    }
}

/// Words another CLI's user would read and this one's must not: other CLIs' names and command spellings, the
/// CLI's own failure notes that loopgate's answer would otherwise come with.
fn foreign(agent: Agent) -> &'static [&'static str] {
    match agent {
        Agent::Codex => &[
            "Claude Code",
            "/pua-loop",
            "/cancel-loop",
            "/loopgate:",
            "/prompts:",
            "Unrecognized command",
        ],
        Agent::Gemini => &["Claude Code", "$pua-loop", "$cancel-loop", "/loopgate:", "/prompts:"],
        Agent::Copilot | Agent::Opencode => &[
            "Claude Code",
            "$pua-loop",
            "$cancel-loop",
            "/loopgate:",
            "/prompts:",
            "Unknown command",
        ],
    }
}

/// Whether `text` says `word` as a word of its own (`/pua-loop`, not a path such as `skills/pua-loop/SKILL.md`).
fn names(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let next = text[at + word.len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || "/._-".contains(c))
            && !next.is_some_and(|c| c.is_alphanumeric() || "/-".contains(c))
    })
}

/// A line of the CLI's own tips, which it picks at random (Codex 0.169.0: "Tip: Moving from Claude Code? Use
/// /import …"): the CLI's words, not loopgate's.
fn cli_tip(line: &str) -> bool {
    line.trim_start_matches(|c: char| c.is_whitespace() || "└│".contains(c))
        .starts_with("Tip:")
}

pub fn loop_started_in_the_interactive_ui(agent: Agent, version: &str) {
    let project = Project::new();
    project.write("check.sh", CHECK_SH).write("src.txt", "broken\n");
    let api = MockApi::start_for(agent.wire());
    prepare(&project, agent, &api);
    let promise = || Reply::text("I believe the work is complete.\n\n<promise>LOOP_DONE</promise>");
    // The agent's first command also goes for the CLI's own hook configuration and loopgate's installed command,
    // from a script (which the guard does not read: only the kernel's confinement stands in the way): both stay,
    // and the next loop still runs.
    let (hooks, installed) = own_files(agent);
    let dir = config_dir(&project, agent);
    let before = [&hooks, &installed].map(|f| std::fs::read(dir.join(f)).expect("installed"));
    let attack: String = [hooks, installed]
        .iter()
        .map(|f| format!("printf '{{}}' > '{}'\n", dir.join(f).display()))
        .collect();
    project.write("attack.sh", &attack);
    api.push([
        Reply::bash("sh attack.sh; echo still-broken > src.txt"),
        promise(),
        Reply::bash("echo fixed > src.txt"),
        promise(),
    ]);
    let mut pane = start(&project, agent, version, &api);
    let minutes = |n: u64| Duration::from_secs(60 * n);

    send(
        &mut pane,
        agent,
        &format!(
            "{} \"{TASK}\" --verify 'sh check.sh' --max-iterations 10",
            command(agent, "pua-loop")
        ),
    );
    pane.wait_until("the loop to complete", minutes(3), |_| {
        statuses_end_with(&project, "complete")
    });
    // Copilot CLI shows no hook's message to the user (1.0.102): its user reads the loop's end in `loopgate status`.
    if !matches!(agent, Agent::Copilot) {
        pane.wait_until("loopgate's completion line", minutes(1), |s| {
            s.contains("verified complete")
        });
    }
    let on = format!("{agent:?} {version}");
    for (file, was) in [&hooks, &installed].iter().zip(&before) {
        assert_eq!(
            &std::fs::read(dir.join(file)).expect("still there"),
            was,
            "{on}: the agent rewrote `{file}`:\n{}",
            pane.seen
        );
    }
    assert_eq!(
        project.statuses(),
        ["init", "promise_rejected", "complete"],
        "{on}:\n{}",
        pane.seen
    );
    assert_eq!(project.read("src.txt"), "fixed\n");
    let model_read = read_by_model(&api);
    let last = model_read.last().cloned().unwrap_or_default();
    // The attack ran and the kernel refused it (not, say, a command that never ran); both files are as they were
    // (above). One refusal is enough here: Gemini CLI's shell tool sometimes drops the last line of a command's
    // output when the command ends at once.
    let refused = model_read.get(1).cloned().unwrap_or_default();
    assert!(
        refused.contains("attack.sh: ") && refused.contains("cannot create"),
        "{on}: the agent's writes were refused:\n{refused}"
    );
    assert!(
        last.contains(TASK) && last.contains("VERIFY-MARK-7"),
        "{on}: the briefing and the rejection reached the model:\n{last}"
    );
    // No HTML entities in what the model read (Codex escapes a stop hook's reason, Gemini a hook's context:
    // loopgate's have nothing to escape), and the tags written out where the CLI leaves them.
    assert!(
        !model_read
            .iter()
            .any(|t| t.contains("&lt;") || t.contains("&gt;") || t.contains("&amp;")),
        "{on}: the model read:\n{last}"
    );
    assert!(
        model_read
            .iter()
            .any(|t| t.contains("reply with <promise>LOOP_DONE</promise>")),
        "{on}: the tag written out where the CLI escapes nothing (Codex: the briefing, Gemini: the rejection):\n{last}"
    );

    // A second loop, paused by the agent, cancelled by the user.
    api.push([
        Reply::text("I need the release date first.\n<loop-pause>the release date</loop-pause>"),
        Reply::text("The loop is cancelled."),
    ]);
    send(
        &mut pane,
        agent,
        &format!(
            "{} \"write the release notes\" --verify 'sh check.sh'",
            command(agent, "pua-loop")
        ),
    );
    pane.wait_until("the agent to pause the loop", minutes(2), |_| {
        statuses_end_with(&project, "paused")
    });
    send(&mut pane, agent, &command(agent, "cancel-loop"));
    pane.wait_until("the loop to be cancelled", minutes(2), |_| {
        statuses_end_with(&project, "cancelled")
    });
    pane.wait_until("the model's answer", minutes(1), |s| {
        s.contains("The loop is cancelled.")
    });
    assert!(!project.loop_live(), "{on}");
    let said = read_by_model(&api);
    for word in foreign(agent) {
        assert!(
            !pane.seen.lines().filter(|l| !cli_tip(l)).any(|l| names(l, word)),
            "{on}: the UI showed {word:?}:\n{}",
            pane.seen
        );
        for text in &said {
            assert!(
                !text.lines().any(|l| l.contains("loopgate") && names(l, word)),
                "{on}: loopgate told the model {word:?}:\n{text}"
            );
        }
    }
}

/// Codex, its interactive UI: the user edited loopgate's Stop hook (so Codex no longer trusts it) and types
/// `$pua-loop …`. Codex asks whether to review the hooks; the user goes on without trusting them, and loopgate
/// (its prompt hook, still trusted) says at once, on the screen and to the model, that no loop started, with the
/// fix.
pub fn untrusted_stop_hook_said_at_the_start(agent: Agent, version: &str) {
    let project = Project::new();
    project.write("check.sh", CHECK_SH).write("src.txt", "broken\n");
    let api = MockApi::start_for(agent.wire());
    prepare(&project, agent, &api);
    let hooks_path = config_dir(&project, agent).join("hooks.json");
    let mut hooks: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&hooks_path).expect("hooks.json")).expect("JSON");
    hooks["hooks"]["Stop"][0]["hooks"][0]["timeout"] = 600.into();
    std::fs::write(&hooks_path, hooks.to_string()).expect("write hooks.json");
    api.push([Reply::text("The loop did not start, as loopgate says.")]);

    let mut pane = start(&project, agent, version, &api);
    let minute = Duration::from_secs(60);
    send(
        &mut pane,
        agent,
        &format!("{} \"{TASK}\" --verify 'sh check.sh'", command(agent, "pua-loop")),
    );
    // Codex asks, once it has started, whether to review the changed hook; the user goes on without trusting it
    // (the third choice, two below the first).
    pane.wait_until("Codex's review of the edited hook", minute, |s| {
        s.contains("without trusting")
    });
    pick_choice(&mut pane, 3);
    // The refusal shows on the screen before Codex sends the turn to the model; the model's scripted answer on
    // the screen is what proves the request was made, so the read below cannot race it.
    pane.wait_until(
        "loopgate's refusal and the model's answer on the screen",
        minute * 2,
        |s| s.contains("the loop did NOT start") && s.contains("as loopgate says"),
    );
    assert!(project.state().is_none(), "no loop started:\n{}", pane.seen);
    let text = read_by_model(&api).join("\n");
    assert!(
        text.contains("the loop did NOT start: Codex's Stop hook is not trusted")
            && text.contains("loopgate install --agent codex"),
        "Codex {version}: the model is told, with the fix:\n{text}"
    );
}

/// Moves a numbered list's mark (`› 1. …`) down to `choice` and presses Enter. Each Down waits for the mark to
/// move before the next: on a loaded machine a key pressed while the list still draws is lost, and Enter would
/// take the first choice.
fn pick_choice(pane: &mut Pane, choice: usize) {
    let marked = |s: &str| {
        s.lines().find_map(|line| {
            let rest = line.trim_start().strip_prefix('›')?.trim_start();
            rest.split_once(". ")?.0.parse::<usize>().ok()
        })
    };
    let mut at = pane.wait_until("a marked choice", Duration::from_secs(30), |s| marked(s).is_some());
    for _ in 0..choice * 3 {
        match marked(&at) {
            Some(now) if now == choice => break,
            Some(now) => {
                pane.press(if now < choice { "Down" } else { "Up" });
                at = pane.wait_until("the mark to move", Duration::from_secs(30), |s| {
                    marked(s).is_some_and(|moved| moved != now)
                });
            }
            None => at = pane.screen(),
        }
    }
    assert_eq!(
        marked(&at),
        Some(choice),
        "the mark never reached choice {choice}:\n{}",
        pane.seen
    );
    pane.press("Enter");
}

/// Gemini CLI, its interactive UI, in a folder the user marked untrusted (`DO_NOT_TRUST`, as Gemini's dialog
/// writes it): Gemini runs none of loopgate's hooks there, so `/pua-loop …` reaches the model as the command's
/// text, whose note tells the model that no loop started and what to tell the user. No loop starts.
pub fn untrusted_folder_said_at_the_start(agent: Agent, version: &str) {
    let project = Project::new();
    project.write("check.sh", CHECK_SH).write("src.txt", "broken\n");
    let api = MockApi::start_for(agent.wire());
    prepare(&project, agent, &api);
    api.push([Reply::text(
        "loopgate: the loop did NOT start: Gemini CLI runs no hooks in an untrusted folder.",
    )]);
    let root = std::fs::canonicalize(&project.dir).expect("the project's path");
    let rules = serde_json::json!({root.display().to_string(): "DO_NOT_TRUST"});
    std::fs::write(
        config_dir(&project, agent).join("trustedFolders.json"),
        rules.to_string(),
    )
    .expect("write trustedFolders.json");
    let mut env = project.env();
    env.extend(agent.env(&api));
    let base = project.dir.parent().expect("scenario dir");
    // In an untrusted folder Gemini drops `--yolo`: the input box is marked `>`, not YOLO's `*`.
    let mut pane = Pane::start(base, &env, &project.dir, &agent.bin_of(version), &["--yolo"], ">");
    let minute = Duration::from_secs(60);
    pane.wait_until("Gemini's prompt", minute, |s| s.contains("Type your message"));
    send(
        &mut pane,
        agent,
        &format!("{} \"{TASK}\" --verify 'sh check.sh'", command(agent, "pua-loop")),
    );
    pane.wait_until("the model's answer", minute * 2, |s| {
        s.contains("the loop did NOT start")
    });
    assert!(project.state().is_none(), "no loop started:\n{}", pane.seen);
    let text = read_by_model(&api).join("\n");
    assert!(
        text.contains("NO loop started") && text.contains("Trust this folder (/permissions)"),
        "Gemini {version}: the command's note reached the model:\n{text}"
    );
}
