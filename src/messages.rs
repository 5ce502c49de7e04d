//! Every sentence loopgate shows the model or the user, in English and Chinese.
//!
//! Kept in one place so the two languages stay in step and the wording can be reviewed (and snapshot-tested)
//! as a whole. Functions take the facts and return finished text; no caller assembles sentences itself.

use crate::schema::Speech;

pub(crate) mod agents;
pub(crate) mod aware;
pub(crate) mod baseline;
pub(crate) mod breach;
pub(crate) mod cap;
pub mod finding;
pub(crate) mod holdout;
pub(crate) mod review;
pub(crate) mod room;
pub(crate) mod runner;

include!(concat!(env!("OUT_DIR"), "/ecosystem/messages.rs"));

/// The ecosystems' words for a new file their runners would load on their own (`messages::breach::shadow`), one
/// line per ecosystem with such files of its own; a shadow none words is said to be new.
const SHADOW_WORDS: &[fn(Speech, &crate::closure::observed::Shadow) -> Option<String>] = &[python::shadow];

/// The examples the usage errors show, in the words of the ecosystem they are taken from.
pub(crate) use rust::{EXAMPLE_VERIFY, INSTALL_ELSEWHERE};

/// What setup and `status` say of a report channel of the room (`room::channels`), in its ecosystem's words.
pub(crate) struct ReportWords {
    /// Setup's sentence, in English and in Chinese, each with its leading space as the line needs.
    pub(crate) en: &'static str,
    pub(crate) zh: &'static str,
    /// `status`'s clause for what the verdict reads.
    pub(crate) verdict_reads: &'static str,
}

/// The ecosystems' words for their report channels, one line per ecosystem with a channel.
const REPORT_WORDS: &[fn(&str) -> Option<ReportWords>] = &[python::report, cpp::report, jvm::report, php::report];

/// The ecosystems' words for why a cache of theirs stays the user's (`room::caches::Why`), one line per
/// ecosystem with such a rule; a reason none words is shown by its stored name.
const WHY_WORDS: &[fn(&crate::room::caches::Why) -> Option<String>] = &[rust::why, python::why];

/// The ecosystems' places outside the project that a run reads on its own (`room::outside::PLACES`), each as a
/// list's item in its folder's words, one line per ecosystem with such places.
const OUTSIDE_WORDS: &[fn(Speech) -> &'static str] = &[python::outside, js::outside, rust::outside, go::outside];

/// Every ecosystem's places outside the project, as one list (`the user site-packages, ~/.npmrc, …`).
pub(crate) fn outside_places(lang: Speech) -> String {
    let items: Vec<&str> = OUTSIDE_WORDS.iter().map(|words| words(lang)).collect();
    items.join(if lang == Speech::Zh { "、" } else { ", " })
}

/// The words of the report channel stored under `key` (`room::channels::ReportChannel::key`).
pub(crate) fn report_words(key: &str) -> Option<ReportWords> {
    REPORT_WORDS.iter().find_map(|words| words(key))
}

/// The ecosystems' own words for their `--verify auto` facts (`detect::Fact`), each registered folder's
/// `messages.rs` (a fact is its own folder's alone, so the order is no matter): `detect_reason` words the facts every ecosystem shares and asks these for the rest, so a new
/// ecosystem's facts are worded in its folder. A fact none answers is shown by its name rather than dropped.
const FACT_WORDS: &[fn(Speech, &crate::detect::Own) -> Option<String>] = &each_messages!(fact);

/// Escalation by cumulative promise rejections: 1–2 reminder, 3–4 reassess, 5+ forced pivot.
pub(crate) fn escalation(lang: Speech, rejections: u64) -> Option<&'static str> {
    Some(match (lang, rejections) {
        (_, 0) => return None,
        (Speech::En, 1..=2) => {
            "Reminder: the oracle decides, not you. Run `loopgate verify` and read its output before you promise again."
        }
        (Speech::En, 3..=4) => {
            "REASSESS. Your fixes keep failing the oracle. Re-read the verify output line by line, write down three different hypotheses for the failure, and test the most likely one before changing code."
        }
        (Speech::En, _) => {
            "FORCED PIVOT. You have been rejected five times or more: you are solving the wrong problem. Go back to the requirement, question every assumption you made, and take a different approach from scratch."
        }
        (Speech::Zh, 1..=2) => "提醒:完成与否由验证命令判定,而不是你。再次承诺前先运行 `loopgate verify` 并阅读输出。",
        (Speech::Zh, 3..=4) => {
            "重新评估。你的修复一再未通过验证。逐行重读验证输出,写下三个不同的失败假设,先验证最可能的一个再改代码。"
        }
        (Speech::Zh, _) => {
            "强制转向。你已被拒绝五次以上:你在解决错误的问题。回到需求本身,质疑你做过的每个假设,换一种全新的方法。"
        }
    })
}

/// Pressure by iteration count, so long loops change tactics instead of repeating themselves.
pub(crate) fn pressure(lang: Speech, iteration: u64) -> Option<&'static str> {
    Some(match (lang, iteration) {
        (_, 0..=3) => return None,
        (Speech::En, 4..=7) => "You are several iterations in: if the current approach is not converging, change it.",
        (Speech::En, 8..=15) => "Read `git log` and `loopgate history` before acting: know what was already tried.",
        (Speech::En, 16..=30) => "Check you are not repeating yourself: compare `git diff` with earlier attempts.",
        (Speech::En, 31..=50) => "Many iterations without success: rethink the root cause, not the symptom.",
        (Speech::En, 51..=100) => "Question the requirement itself: is the verify command testing what the task asks?",
        (Speech::En, _) => {
            "Over 100 iterations. Give an honest assessment; if the task is truly impossible, say so with <loop-abort>reason</loop-abort>."
        }
        (Speech::Zh, 4..=7) => "已经迭代多次:如果当前方法没有收敛,换一种方法。",
        (Speech::Zh, 8..=15) => "行动前先阅读 `git log` 和 `loopgate history`:了解已经尝试过什么。",
        (Speech::Zh, 16..=30) => "检查你是否在重复自己:把 `git diff` 与之前的尝试对比。",
        (Speech::Zh, 31..=50) => "多次迭代仍未成功:重新思考根本原因,而不是表面症状。",
        (Speech::Zh, 51..=100) => "质疑需求本身:验证命令是否在测试任务真正要求的东西?",
        (Speech::Zh, _) => {
            "已超过 100 次迭代。请给出诚实的评估;如果任务确实不可能完成,用 <loop-abort>原因</loop-abort> 说明。"
        }
    })
}

/// The first line of every block reason.
pub(crate) fn header(lang: Speech, iteration: u64, max_iterations: u64, what: &str, rejections: u64) -> String {
    let of = if max_iterations > 0 {
        format!("/{max_iterations}")
    } else {
        String::new()
    };
    match lang {
        Speech::En => format!("[loopgate] iteration {iteration}{of} · {what} · promise rejections: {rejections}"),
        Speech::Zh => {
            format!("[loopgate] 第 {iteration}{of} 次迭代 · {what} · 承诺被拒次数:{rejections}")
        }
    }
}

/// What happened at this stop, for the header.
pub(crate) fn event_name(lang: Speech, event: Event) -> &'static str {
    match (lang, event) {
        (Speech::En, Event::Continue) => "not done yet",
        (Speech::En, Event::PromiseRejected) => "PROMISE REJECTED: the verify command failed",
        (Speech::En, Event::PromiseTimedOut) => "PROMISE REJECTED: the verify command timed out",
        (Speech::En, Event::VerifyTimedOut) => "verify command timed out",
        (Speech::En, Event::SealBroken) => "PROMISE REJECTED: the oracle's sealed inputs were changed",
        (Speech::En, Event::VerifyFailed) => "verify command still failing",
        (Speech::En, Event::CountsRegressed) => {
            "REJECTED: the verify passed with fewer tests run, or more skipped, than before"
        }
        (Speech::Zh, Event::Continue) => "尚未完成",
        (Speech::Zh, Event::PromiseRejected) => "承诺被拒绝:验证命令失败",
        (Speech::Zh, Event::PromiseTimedOut) => "承诺被拒绝:验证命令超时",
        (Speech::Zh, Event::VerifyTimedOut) => "验证命令超时",
        (Speech::Zh, Event::SealBroken) => "承诺被拒绝:验证所依赖的受保护输入被修改",
        (Speech::Zh, Event::VerifyFailed) => "验证命令仍然失败",
        (Speech::Zh, Event::CountsRegressed) => "被拒绝:验证通过了,但运行的测试比之前少或跳过的更多",
        (Speech::En, Event::TestsShort) => {
            "REJECTED: the verify passed, but not every test of the baseline ran and passed"
        }
        (Speech::Zh, Event::TestsShort) => "被拒绝:验证通过了,但并非所有基线测试都运行并通过",
        (Speech::En, Event::HeldOutFailed) => "PROMISE REJECTED: the verify passed, but held-out tests failed",
        (Speech::Zh, Event::HeldOutFailed) => "承诺被拒绝:验证通过了,但保留测试失败",
        (Speech::En, Event::ReviewRejected) => "PROMISE REJECTED: the verify passed, but the reviewer found gaming",
        (Speech::Zh, Event::ReviewRejected) => "承诺被拒绝:验证通过了,但审查者发现了投机取巧",
    }
}

/// Kinds of stop that send the agent back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Event {
    Continue,
    PromiseRejected,
    PromiseTimedOut,
    SealBroken,
    VerifyFailed,
    VerifyTimedOut,
    /// The verify passed, but the count ratchet rejected it.
    CountsRegressed,
    /// The command exited 0 but baseline tests did not run and pass, or no results were reported.
    TestsShort,
    /// The verify passed, but the held-out tests (`--holdout`) did not.
    HeldOutFailed,
    /// The verify passed, but the reviewer (`--review`) quoted lines that game the tests.
    ReviewRejected,
}

/// Section titles of the reason.
pub(crate) fn section(lang: Speech, name: Section) -> &'static str {
    match (lang, name) {
        (Speech::En, Section::Summary) => "Failure summary:",
        (Speech::En, Section::Task) => "Your task (unchanged):",
        (Speech::Zh, Section::Summary) => "失败摘要:",
        (Speech::Zh, Section::Task) => "你的任务(未变):",
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Section {
    Summary,
    Task,
}

/// Title of the verify output tail.
pub(crate) fn output_tail(lang: Speech, command: &str, result: &str, log: &str) -> String {
    match lang {
        Speech::En => format!("Last lines of `{command}` ({result}; full log: {log}):"),
        Speech::Zh => format!("`{command}` 的最后几行输出({result};完整日志:{log}):"),
    }
}

/// How to leave the loop honestly.
pub fn how_to_finish(lang: Speech, promise: &str, has_verify: bool) -> String {
    match (lang, has_verify) {
        (Speech::En, true) => format!(
            "When the work is done, run `loopgate verify` yourself; once it passes, reply with <promise>{promise}</promise> and loopgate runs the sealed verify command to confirm.\nNeed something only the user can give (credentials, a decision)? Reply <loop-pause>what you need</loop-pause>. Truly impossible? Reply <loop-abort>why</loop-abort>."
        ),
        (Speech::En, false) => format!(
            "When the task is truly complete, reply with <promise>{promise}</promise> (there is no verify command: you are on your honor).\nNeed something only the user can give? Reply <loop-pause>what you need</loop-pause>. Truly impossible? Reply <loop-abort>why</loop-abort>."
        ),
        (Speech::Zh, true) => format!(
            "工作完成后,先自己运行 `loopgate verify`;通过后回复 <promise>{promise}</promise>,loopgate 会运行受保护的验证命令确认。\n需要只有用户能提供的东西(凭据、决定)?回复 <loop-pause>你需要什么</loop-pause>。确实无法完成?回复 <loop-abort>原因</loop-abort>。"
        ),
        (Speech::Zh, false) => format!(
            "任务真正完成后,回复 <promise>{promise}</promise>(没有验证命令:全凭诚信)。\n需要只有用户能提供的东西?回复 <loop-pause>你需要什么</loop-pause>。确实无法完成?回复 <loop-abort>原因</loop-abort>。"
        ),
    }
}

/// Called out when the failure is the same as at the previous rejection.
pub(crate) fn same_failure(lang: Speech, times: u64) -> String {
    match lang {
        Speech::En => format!(
            "This is the SAME failure as last time ({times} times in a row): your last change did not affect it."
        ),
        Speech::Zh => format!("这与上次的失败完全相同(连续 {times} 次):你上次的修改没有影响它。"),
    }
}

/// Told to model and user when the state file disagreed with the seal.
pub(crate) fn tampered(lang: Speech, what: &str) -> String {
    match lang {
        Speech::En => format!("TAMPERING DETECTED: {what}. The sealed oracle was restored and still judges this loop."),
        Speech::Zh => format!("检测到篡改:{what}。已恢复受保护的验证设置,本循环仍由它判定。"),
    }
}

/// Why a session is being given the loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Handover {
    /// A paused loop adopted by this session.
    Adopted,
    /// A loop started from a terminal (bound to no session yet), taken up by this session.
    Started,
    /// This session's own loop, re-injected after compaction or a resume.
    Reinjected,
}

/// The opening of the context a session start hands the model.
pub(crate) fn handover(lang: Speech, kind: Handover, iteration: u64, max_iterations: u64) -> String {
    let of = if max_iterations > 0 {
        format!("/{max_iterations}")
    } else {
        String::new()
    };
    match (lang, kind) {
        (Speech::En, Handover::Adopted) => format!(
            "[loopgate] This session has taken over a paused loop (iteration {iteration}{of}). Read `.claude/pua-loop-history.jsonl` (or run `loopgate history`) to see what was tried, then continue the task below. Stopping sends you back to work until the oracle passes."
        ),
        (Speech::En, Handover::Started) => format!(
            "[loopgate] This session has taken up a loop started from a terminal (iteration {iteration}{of}). Work on the task below. Stopping sends you back to work until the oracle passes."
        ),
        (Speech::Zh, Handover::Started) => format!(
            "[loopgate] 本会话接手了一个从终端启动的循环(第 {iteration}{of} 次迭代)。请完成下面的任务。在验证通过之前,停止会让你回到工作中。"
        ),
        (Speech::En, Handover::Reinjected) => format!(
            "[loopgate] Reminder after context compaction: you are inside a loop (iteration {iteration}{of}). Stopping sends you back to work until the oracle passes."
        ),
        (Speech::Zh, Handover::Adopted) => format!(
            "[loopgate] 本会话接手了一个已暂停的循环(第 {iteration}{of} 次迭代)。先阅读 `.claude/pua-loop-history.jsonl`(或运行 `loopgate history`)了解已尝试的内容,然后继续下面的任务。在验证通过之前,停止会让你回到工作中。"
        ),
        (Speech::Zh, Handover::Reinjected) => format!(
            "[loopgate] 上下文压缩后的提醒:你正处于一个循环中(第 {iteration}{of} 次迭代)。在验证通过之前,停止会让你回到工作中。"
        ),
    }
}

/// Labels inside the handover context.
pub(crate) fn handover_label(lang: Speech, label: HandoverLabel) -> &'static str {
    match (lang, label) {
        (Speech::En, HandoverLabel::PausedBecause) => "The loop was paused because the agent needed:",
        (Speech::En, HandoverLabel::Notes) => "Notes left in `.claude/pua-loop-context.md`:",
        (Speech::En, HandoverLabel::LastFailure) => "Last verify failure:",
        (Speech::Zh, HandoverLabel::PausedBecause) => "循环暂停的原因是代理需要:",
        (Speech::Zh, HandoverLabel::Notes) => "`.claude/pua-loop-context.md` 中留下的笔记:",
        (Speech::Zh, HandoverLabel::LastFailure) => "上一次验证失败:",
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HandoverLabel {
    PausedBecause,
    Notes,
    LastFailure,
}

/// What `loopgate setup` prints: the agent reads it as the start of its work.
pub(crate) fn briefing(
    state: &crate::state::State,
    sealed_files: usize,
    closure: (usize, usize),
    tests: (usize, usize),
) -> String {
    let f = &state.fields;
    let lang = f.config.lang;
    let none = if lang == Speech::Zh { "无" } else { "none" };
    let iterations = if f.config.limits.max_iterations > 0 {
        f.config.limits.max_iterations.to_string()
    } else {
        none.to_string()
    };
    let duration = f
        .config
        .limits
        .max_duration
        .map_or_else(|| none.to_string(), crate::duration::format_secs);
    let when = match (lang, f.config.verify.verify_on) {
        (Speech::En, crate::state::VerifyOn::Promise) => "runs when you promise",
        (Speech::En, crate::state::VerifyOn::Always) => "runs at every stop",
        (Speech::Zh, crate::state::VerifyOn::Promise) => "在你承诺时运行",
        (Speech::Zh, crate::state::VerifyOn::Always) => "每次停止时运行",
    };
    let verify = match (&f.config.verify.verify_command, lang) {
        (Some(cmd), Speech::En) => format!(
            "Verify command (sealed; editing files cannot change it): `{cmd}` (timeout {}s, {when})",
            f.config.verify.verify_timeout
        ),
        (Some(cmd), Speech::Zh) => format!(
            "验证命令(已封存,修改文件无法改变它):`{cmd}`(超时 {} 秒,{when})",
            f.config.verify.verify_timeout
        ),
        (None, Speech::En) => {
            "No verify command: your promise alone completes the loop, so make it honest.".to_string()
        }
        (None, Speech::Zh) => "没有验证命令:你的承诺本身就会结束循环,所以必须诚实。".to_string(),
    };
    let sealed = match lang {
        _ if f.config.sealed.is_empty() => String::new(),
        Speech::En => format!(
            "\nSealed files ({sealed_files} now, matching {}): do not modify, add or delete them.",
            f.config.sealed.join(", ")
        ),
        Speech::Zh => format!(
            "\n受保护的文件(当前 {sealed_files} 个,匹配 {}):不要修改、添加或删除。",
            f.config.sealed.join(", ")
        ),
    };
    let closure = breach::briefing(
        lang,
        &f.config.opt_out,
        closure,
        tests,
        f.config.verify.verify_command.is_some(),
    );
    let (title, task, limits, files) = match lang {
        Speech::En => (
            "loop started",
            "Task:",
            format!("Limits: max iterations {iterations}; max duration {duration}."),
            "History: `.claude/pua-loop-history.jsonl` (`loopgate history`); status: `loopgate status`.",
        ),
        Speech::Zh => (
            "循环已开始",
            "任务:",
            format!("限制:最大迭代次数 {iterations};最长时间 {duration}。"),
            "历史:`.claude/pua-loop-history.jsonl`(`loopgate history`);状态:`loopgate status`。",
        ),
    };
    let unbound = match lang {
        _ if !f.progress.session_id.is_empty() => "",
        Speech::En => {
            "\nNo Claude Code session was given: the next session that starts in this project adopts the loop (or run `loopgate resume --session-id ID`)."
        }
        Speech::Zh => {
            "\n未指定 Claude Code 会话:此项目中下一个启动的会话会接手该循环(或运行 `loopgate resume --session-id ID`)。"
        }
    };
    format!(
        "[loopgate] {title}: `{}`\n\n{task}\n{}\n\n{verify}\n{limits}{sealed}{closure}{unbound}\n\n{}\n{files}",
        f.config.loop_id,
        state.task.trim_end(),
        how_to_finish(
            lang,
            &f.config.completion_promise,
            f.config.verify.verify_command.is_some()
        ),
    )
}

/// What `--verify auto` chose, and why, printed by `setup` before the briefing.
pub(crate) fn verify_detected(lang: Speech, found: &crate::detect::Detected) -> String {
    let why = detect_reason(lang, &found.why);
    let also = match (lang, found.also.is_empty()) {
        (_, true) => String::new(),
        (Speech::En, false) => format!(" Also found: `{}`.", found.also.join("`, `")),
        (Speech::Zh, false) => format!("还找到了:`{}`。", found.also.join("`、`")),
    };
    match lang {
        Speech::En => format!(
            "[loopgate] --verify auto chose `{}`: {why}. It is sealed like any verify command.{also}",
            found.command
        ),
        Speech::Zh => format!(
            "[loopgate] --verify auto 选择了 `{}`:{why}。它与手动指定的验证命令一样被封存。{also}",
            found.command
        ),
    }
}

/// The facts behind a `--verify auto` choice, as one clause (`Cargo.toml is a workspace, …`).
pub(crate) fn detect_reason(lang: Speech, facts: &[crate::detect::Fact]) -> String {
    use crate::detect::Fact;
    let one = |fact: &Fact| match (lang, fact) {
        (Speech::En, Fact::Recipe { file, target }) => format!("{file} has a `{target}` recipe"),
        (Speech::En, Fact::Target { file, target }) => format!("{file} has a `{target}` target"),
        (Speech::En, Fact::NotOnPath { program }) => format!("note: `{program}` is not on PATH here"),
        (Speech::Zh, Fact::Recipe { file, target }) => format!("{file} 中有 `{target}` 配方"),
        (Speech::Zh, Fact::Target { file, target }) => format!("{file} 中有 `{target}` 目标"),
        (Speech::Zh, Fact::NotOnPath { program }) => format!("注意:此处 PATH 中没有 `{program}`"),
        (_, Fact::Own(own)) => FACT_WORDS
            .iter()
            .find_map(|words| words(lang, own))
            .unwrap_or_else(|| format!("{own:?}")),
    };
    let parts: Vec<String> = facts.iter().map(one).collect();
    parts.join(if lang == Speech::Zh { "," } else { ", " })
}

/// Said once at setup when the machine cannot confine the agent's commands (`confine::probe`).
/// Claude Code's sandbox is named only to a Claude Code user (`cli::client`): no other CLI has that install.
pub(crate) fn control_plane_unprotected(lang: Speech, why: &str) -> String {
    let claude = crate::cli::client() == crate::cli::Agent::Claude;
    match (lang, claude) {
        (Speech::En, true) => format!(
            "[loopgate] control plane: unprotected ({why}) — the agent's commands are not confined; loopgate's own checks still apply, and Claude Code's sandbox (`loopgate install --sandbox`) adds an OS boundary."
        ),
        (Speech::En, false) => format!(
            "[loopgate] control plane: unprotected ({why}) — the agent's commands are not confined; loopgate's own checks still apply."
        ),
        (Speech::Zh, true) => format!(
            "[loopgate] 控制面:未受保护({why})——智能体的命令未被隔离;loopgate 自身的检查仍然有效,Claude Code 的沙箱(`loopgate install --sandbox`)可增加操作系统边界。"
        ),
        (Speech::Zh, false) => {
            format!("[loopgate] 控制面:未受保护({why})——智能体的命令未被隔离;loopgate 自身的检查仍然有效。")
        }
    }
}

/// The line `setup` prints about checkpoints: on (and how to use them), or why not.
pub(crate) fn checkpoints_at_setup(lang: Speech, setup: &crate::checkpoint::Setup) -> String {
    use crate::checkpoint::Setup;
    match (lang, setup) {
        (Speech::En, Setup::On) => "[loopgate] Checkpoints: the working tree is saved at every stop (start = 0); `loopgate checkpoints` lists them, `loopgate diff N` compares, `loopgate rollback N` restores.".into(),
        (Speech::En, Setup::Off) => "[loopgate] Checkpoints: off (`--no-checkpoints`).".into(),
        (Speech::En, Setup::NotGit) => "[loopgate] Checkpoints: off, this project is not a git repository (they are git commits under refs/loopgate/).".into(),
        (Speech::En, Setup::Failed(why)) => format!("[loopgate] Checkpoints: off for this loop, git failed: {why}"),
        (Speech::Zh, Setup::On) => "[loopgate] 检查点:每次停止时保存工作区(开始时为 0);`loopgate checkpoints` 列出,`loopgate diff N` 比较,`loopgate rollback N` 恢复。".into(),
        (Speech::Zh, Setup::Off) => "[loopgate] 检查点:已关闭(`--no-checkpoints`)。".into(),
        (Speech::Zh, Setup::NotGit) => "[loopgate] 检查点:已关闭,此项目不是 git 仓库(检查点是 refs/loopgate/ 下的 git 提交)。".into(),
        (Speech::Zh, Setup::Failed(why)) => format!("[loopgate] 检查点:本循环已关闭,git 出错:{why}"),
    }
}

/// A verify that exited 0 but ran no tests.
pub(crate) fn no_tests_ran(lang: Speech, required: bool) -> String {
    match (lang, required) {
        (Speech::En, true) => "The verify command exited 0 but ran NO tests, and this loop requires tests (`--require-tests`): that is a failure. Make sure the tests are found and run.".into(),
        (Speech::En, false) => "Suspicious: the verify command passed but ran no tests.".into(),
        (Speech::Zh, true) => "验证命令以 0 退出,但没有运行任何测试,而本循环要求运行测试(`--require-tests`):这算失败。请确保测试被找到并运行。".into(),
        (Speech::Zh, false) => "可疑:验证命令通过了,但没有运行任何测试。".into(),
    }
}

/// One count the test-count ratchet saw move the wrong way: `ran 40 → 37`, `skipped 0 → 3`.
pub(crate) fn count_moved(lang: Speech, count: crate::testjudge::ratchet::Count, best: u64, now: u64) -> String {
    use crate::testjudge::ratchet::Count;
    match (lang, count) {
        (Speech::En, Count::Ran) => format!("ran {best} → {now}"),
        (Speech::En, Count::Skipped) => format!("skipped {best} → {now}"),
        (Speech::Zh, Count::Ran) => format!("运行的测试 {best} → {now}"),
        (Speech::Zh, Count::Skipped) => format!("跳过的测试 {best} → {now}"),
    }
}

/// The user's one-line result of a pass the count ratchet rejected, with how to accept it.
pub(crate) fn counts_result(lang: Speech, moved: &str) -> String {
    match lang {
        Speech::En => format!("exit 0, but {moved}; if that is intended, accept it with `loopgate allow --counts`"),
        Speech::Zh => format!("以 0 退出,但 {moved};如果这是预期的,用 `loopgate allow --counts` 接受"),
    }
}

/// Every count of the ratchet that moved, for a message: `ran 40 → 37; skipped 0 → 3` (or in Chinese).
pub(crate) fn counts_moved(lang: Speech, moved: &[crate::testjudge::ratchet::MovedCount]) -> String {
    let separator = if lang == Speech::Zh { ";" } else { "; " };
    moved
        .iter()
        .map(|m| count_moved(lang, m.count, m.best, m.now))
        .collect::<Vec<_>>()
        .join(separator)
}

/// A verify that exited 0 but ran fewer tests, or skipped more, than the loop has seen; `moved`
/// is [`counts_moved`]'s list.
pub(crate) fn counts_regressed(lang: Speech, moved: &str) -> String {
    match lang {
        Speech::En => format!(
            "The verify command passed, but it ran fewer tests or skipped more than this loop has seen ({moved}), so the pass does not count. Deleting, skipping or ignoring a test does not finish the task: restore the tests and make them pass. Only the user can accept fewer tests (`loopgate allow --counts`, in their terminal)."
        ),
        Speech::Zh => format!(
            "验证命令通过了,但运行的测试比本循环见过的少,或跳过的更多({moved}),因此这次通过不算数。删除、跳过或忽略测试并不能完成任务:请恢复这些测试并让它们通过。只有用户可以接受更少的测试(在其终端中运行 `loopgate allow --counts`)。"
        ),
    }
}

/// The score gate's verdict on a run that exited 0.
pub(crate) fn score_below(lang: Speech, score: f64, gate: &crate::score::ScoreGate) -> String {
    let (better, op) = direction_words(lang, gate.direction);
    match lang {
        Speech::En => format!(
            "Score {score} does not meet the target {op} {} ({better} is better).",
            gate.target
        ),
        Speech::Zh => format!("分数 {score} 未达到目标 {op} {}({better})。", gate.target),
    }
}

/// The score gate met.
pub(crate) fn score_met(lang: Speech, score: f64, gate: &crate::score::ScoreGate) -> String {
    let (_, op) = direction_words(lang, gate.direction);
    match lang {
        Speech::En => format!("Score {score} meets the target {op} {}.", gate.target),
        Speech::Zh => format!("分数 {score} 达到目标 {op} {}。", gate.target),
    }
}

/// No score in the output.
pub(crate) fn score_missing(lang: Speech, gate: &crate::score::ScoreGate) -> String {
    match lang {
        Speech::En => format!(
            "No score found in the verify output (pattern `{}`): the loop cannot complete without one.",
            gate.regex
        ),
        Speech::Zh => format!("验证输出中没有找到分数(模式 `{}`):没有分数循环无法完成。", gate.regex),
    }
}

fn direction_words(lang: Speech, direction: crate::score::Direction) -> (&'static str, &'static str) {
    use crate::score::Direction;
    match (lang, direction) {
        (Speech::En, Direction::Higher) => ("higher", ">="),
        (Speech::En, Direction::Lower) => ("lower", "<="),
        (Speech::Zh, Direction::Higher) => ("越高越好", ">="),
        (Speech::Zh, Direction::Lower) => ("越低越好", "<="),
    }
}

/// Called out when nothing in the working tree changed since the previous stop.
pub(crate) fn unchanged_tree(lang: Speech, streak: u64) -> String {
    match lang {
        Speech::En => format!(
            "Nothing in the working tree changed since the last iteration ({streak} in a row). Act: change code, or pause if you are blocked."
        ),
        Speech::Zh => format!("自上次迭代以来工作区没有任何变化(连续 {streak} 次)。请行动:修改代码,或者在受阻时暂停。"),
    }
}

/// The answer to a last message that gave up, asked the user or named a blocker without a pause or abort tag:
/// nobody reads questions inside a loop, so pause if truly blocked, otherwise decide and keep going.
pub(crate) fn give_up_guidance(lang: Speech, kind: crate::giveup::Kind, phrase: &str, streak: u64) -> String {
    use crate::giveup::Kind;
    let what = match (lang, kind) {
        (Speech::En, Kind::GivingUp) => format!(
            "You wrote \"{phrase}\": that reads as giving up, but you did not pause or abort, so the loop goes on."
        ),
        (Speech::En, Kind::AskingUser) => format!(
            "You asked the user something (\"{phrase}\"), but nobody answers inside the loop: this message comes straight back to you."
        ),
        (Speech::En, Kind::ExternalBlocker) => {
            format!("You named something outside your reach (\"{phrase}\") without pausing the loop.")
        }
        (Speech::Zh, Kind::GivingUp) => format!("你写了“{phrase}”:这像是在放弃,但你没有暂停或中止,所以循环会继续。"),
        (Speech::Zh, Kind::AskingUser) => {
            format!("你向用户提了问题(“{phrase}”),但循环中没有人会回答:这条消息会直接回到你这里。")
        }
        (Speech::Zh, Kind::ExternalBlocker) => format!("你提到了你无法处理的外部条件(“{phrase}”),但没有暂停循环。"),
        (Speech::En, Kind::TalkOnly) => {
            "Since loopgate sent you back you used no tool and wrote no tag: talking does not move the loop, and this message comes straight back to you.".to_string()
        }
        (Speech::Zh, Kind::TalkOnly) => {
            "自 loopgate 让你继续以来,你没有使用任何工具,也没有写任何标签:只说话不会推进循环,这条消息会直接回到你这里。".to_string()
        }
    };
    let how = match (lang, kind) {
        (Speech::En, Kind::AskingUser) => {
            "Decide yourself with the most reasonable reading of the task and note the assumption; only if the user alone can decide, reply <loop-pause>your question</loop-pause>."
        }
        (Speech::En, _) => {
            "If you are truly blocked on something only the user can give (credentials, access, a decision), reply <loop-pause>exactly what you need</loop-pause> so they can provide it and resume. Otherwise keep going: work around it (a mock, a local substitute, another approach) and make progress this iteration."
        }
        (Speech::Zh, Kind::AskingUser) => {
            "请按对任务最合理的理解自行决定,并记下你的假设;只有当必须由用户决定时,才回复 <loop-pause>你的问题</loop-pause>。"
        }
        (Speech::Zh, _) => {
            "如果你确实被只有用户能提供的东西阻塞(凭据、访问权限、决定),回复 <loop-pause>你具体需要什么</loop-pause>,以便用户提供后继续。否则请继续:绕过它(模拟、本地替代、换一种方法),在本次迭代中取得进展。"
        }
    };
    let repeat = match lang {
        _ if streak < 2 => String::new(),
        Speech::En => format!(
            " That is {streak} in a row: after {} with nothing changed, loopgate pauses the loop for the user.",
            crate::giveup::STALL_AFTER
        ),
        Speech::Zh => format!(
            "这已经是连续第 {streak} 次;连续 {} 次且没有任何修改时,loopgate 会暂停循环等待用户。",
            crate::giveup::STALL_AFTER
        ),
    };
    format!("{what} {how}{repeat}")
}

/// Why a loop was paused as stalled; also the report's detail line.
pub(crate) fn stall_reason(lang: Speech, kind: Stall, count: u64) -> String {
    match (lang, kind) {
        (Speech::En, Stall::NoChange) => format!("no working-tree change in {count} iterations"),
        (Speech::En, Stall::SameFailure) => {
            format!("the same failure {count} times in a row with nothing changed since")
        }
        (Speech::En, Stall::Plateau) => format!("no better score in {count} verifies"),
        (Speech::En, Stall::GaveUp) => {
            format!("the agent said it was blocked {count} times in a row without pausing, and changed nothing")
        }
        (Speech::Zh, Stall::NoChange) => format!("{count} 次迭代中工作区没有变化"),
        (Speech::Zh, Stall::SameFailure) => format!("连续 {count} 次相同的失败,且之后没有任何修改"),
        (Speech::Zh, Stall::Plateau) => format!("{count} 次验证分数没有提高"),
        (Speech::Zh, Stall::GaveUp) => format!("代理连续 {count} 次表示受阻却没有暂停,也没有做任何修改"),
    }
}

/// Kinds of stall the circuit breaker recognizes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Stall {
    NoChange,
    SameFailure,
    Plateau,
    /// The agent kept giving up without a pause tag (`giveup`).
    GaveUp,
}

/// How a verify run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ended {
    Exit(i32),
    Signal(i32),
    TimedOut,
}

/// `exit 101 after 3.2s`, `timed out after 600s`, `killed by signal 9 after 1.0s`, plus the score if any.
pub(crate) fn verify_result(lang: Speech, ended: Ended, secs: f64, score: Option<f64>) -> String {
    let text = match (lang, ended) {
        (Speech::En, Ended::Exit(code)) => format!("exit {code} after {secs:.1}s"),
        (Speech::En, Ended::Signal(signal)) => format!("killed by signal {signal} after {secs:.1}s"),
        (Speech::En, Ended::TimedOut) => format!("timed out after {secs:.0}s"),
        (Speech::Zh, Ended::Exit(code)) => format!("{secs:.1} 秒后以 {code} 退出"),
        (Speech::Zh, Ended::Signal(signal)) => format!("{secs:.1} 秒后被信号 {signal} 终止"),
        (Speech::Zh, Ended::TimedOut) => format!("{secs:.0} 秒后超时"),
    };
    match (lang, score) {
        (_, None) => text,
        (Speech::En, Some(score)) => format!("{text}, score {score}"),
        (Speech::Zh, Some(score)) => format!("{text},分数 {score}"),
    }
}

/// One-liners for the user (`systemMessage`).
pub(crate) mod user {
    use crate::cli::slash_command;
    use crate::schema::Speech;

    pub(crate) fn complete(lang: Speech, iteration: u64, rejections: u64, verified: bool) -> String {
        match (lang, verified) {
            (Speech::En, true) => format!(
                "loopgate: ✅ verified complete after {iteration} iteration(s), {rejections} rejected promise(s)."
            ),
            (Speech::En, false) => {
                format!("loopgate: ✅ complete (honor system, no verify command) after {iteration} iteration(s).")
            }
            (Speech::Zh, true) => {
                format!("loopgate:✅ 经验证完成,共 {iteration} 次迭代,{rejections} 次承诺被拒。")
            }
            (Speech::Zh, false) => {
                format!("loopgate:✅ 已完成(诚信模式,无验证命令),共 {iteration} 次迭代。")
            }
        }
    }

    pub(crate) fn rejected(lang: Speech, iteration: u64, result: &str) -> String {
        match lang {
            Speech::En => {
                let next = iteration + 1;
                format!(
                    "loopgate: ❌ promise rejected at iteration {iteration} ({result}); the agent continues with iteration {next}."
                )
            }
            Speech::Zh => {
                let next = iteration + 1;
                format!("loopgate:❌ 第 {iteration} 次迭代的承诺被拒绝({result});继续第 {next} 次迭代。")
            }
        }
    }

    pub(crate) fn iteration(lang: Speech, iteration: u64, max: u64) -> String {
        let of = if max > 0 { format!("/{max}") } else { String::new() };
        match lang {
            Speech::En => format!("loopgate: iteration {iteration}{of}"),
            Speech::Zh => format!("loopgate:第 {iteration}{of} 次迭代"),
        }
    }

    pub(crate) fn limit(lang: Speech, what: &str, iteration: u64) -> String {
        match lang {
            Speech::En => format!(
                "loopgate: ⏹ loop ended: {what} reached at iteration {iteration}, task NOT verified. See `loopgate history`."
            ),
            Speech::Zh => format!(
                "loopgate:⏹ 循环结束:在第 {iteration} 次迭代达到 {what},任务未通过验证。见 `loopgate history`。"
            ),
        }
    }

    pub(crate) fn aborted(lang: Speech, reason: &str) -> String {
        match lang {
            Speech::En => format!("loopgate: ⏹ the agent aborted the loop: {reason}"),
            Speech::Zh => format!("loopgate:⏹ 代理中止了循环:{reason}"),
        }
    }

    pub(crate) fn adopted(lang: Speech, loop_id: &str) -> String {
        match lang {
            Speech::En => format!("loopgate: ▶ this session resumed loop `{loop_id}`."),
            Speech::Zh => format!("loopgate:▶ 本会话继续了循环 `{loop_id}`。"),
        }
    }

    pub(crate) fn stalled(lang: Speech, why: &str, report: &str) -> String {
        // The commands as the user can type them here (bare once `loopgate install` wrote them).
        let (resume, cancel) = (slash_command("resume-loop"), slash_command("cancel-loop"));
        match lang {
            Speech::En => format!(
                "loopgate: ⏸ loop paused as STALLED: {why}. Report: {report}. Give the agent what it lacks, then type {resume} in this session (or start a new session here), or {cancel}."
            ),
            Speech::Zh => format!(
                "loopgate:⏸ 循环因停滞而暂停:{why}。报告:{report}。给代理补充所缺信息后在本会话输入 {resume} 继续(或在此项目开始新会话),或 {cancel}。"
            ),
        }
    }

    pub(crate) fn report(lang: Speech, path: &str) -> String {
        match lang {
            Speech::En => format!(" (report: {path})"),
            Speech::Zh => format!("(报告:{path})"),
        }
    }

    pub(crate) fn suspicious(lang: Speech) -> String {
        match lang {
            Speech::En => " ⚠ the verify passed but ran no tests.".into(),
            Speech::Zh => " ⚠ 验证通过了,但没有运行任何测试。".into(),
        }
    }

    pub(crate) fn paused(lang: Speech, need: &str) -> String {
        let resume = slash_command("resume-loop");
        match lang {
            Speech::En => format!(
                "loopgate: ⏸ loop paused, the agent needs: {need}. Answer it, then type {resume} in this session (or start a new session here)."
            ),
            Speech::Zh => {
                format!(
                    "loopgate:⏸ 循环已暂停,代理需要:{need}。回答后在本会话输入 {resume} 继续(或在此项目开始新会话)。"
                )
            }
        }
    }
}

/// What `/pua-loop … --candidates N` prints instead of starting a loop: the terminal command of the tournament.
pub(crate) fn tournament_from_slash_command(lang: Speech, command: &str) -> String {
    match lang {
        Speech::En => format!(
            "No loop was started. A tournament (--candidates) runs several agent processes of its own, each in its \
             own worktree, outside this session: run it in your terminal, from the repository's top level:\n\n    \
             {command}\n\nthen `loopgate accept` to take the winner (see docs/tournament.md). Do not work on the task \
             in this session; tell the user this in one line."
        ),
        Speech::Zh => format!(
            "没有启动循环。锦标赛(--candidates)会在本会话之外启动多个独立的智能体进程,各自在自己的工作树中运行:请在终端中、\
             在仓库顶层运行:\n\n    {command}\n\n然后用 `loopgate accept` 采纳胜者(见 docs/tournament.md)。不要在本会话中处理该任务;\
             用一行话告诉用户这一点。"
        ),
    }
}

#[cfg(test)]
mod tests {
    /// The note of places covered outside the project lists every ecosystem's places, in both languages.
    #[test]
    fn the_covered_outside_note_lists_every_ecosystems_places() {
        for lang in [Speech::En, Speech::Zh] {
            let note = room::covered_outside(lang, &["~/.x".to_string()]);
            for words in OUTSIDE_WORDS {
                assert!(note.contains(words(lang)), "{note}");
            }
        }
        assert!(room::covered_outside(Speech::En, &[]).contains(
            "(the user site-packages, ~/.npmrc, ~/.node_modules, cargo's user configuration, Go's user configuration)"
        ));
    }

    use super::*;

    #[test]
    fn escalation_levels_follow_the_spec() {
        assert_eq!(escalation(Speech::En, 0), None);
        assert!(escalation(Speech::En, 2).expect("reminder").starts_with("Reminder"));
        assert!(escalation(Speech::En, 3).expect("reassess").starts_with("REASSESS"));
        assert!(
            escalation(Speech::En, 4)
                .expect("reassess")
                .contains("three different hypotheses")
        );
        assert!(escalation(Speech::En, 5).expect("pivot").starts_with("FORCED PIVOT"));
        assert!(escalation(Speech::Zh, 9).expect("pivot").starts_with("强制转向"));
    }

    #[test]
    fn pressure_levels_follow_the_spec() {
        let at = |i| pressure(Speech::En, i).unwrap_or("");
        assert_eq!(at(3), "");
        assert!(at(4).contains("change it"));
        assert!(at(8).contains("git log") && at(15).contains("git log"));
        assert!(at(16).contains("git diff") && at(30).contains("git diff"));
        assert!(at(31).contains("root cause"));
        assert!(at(51).contains("requirement") && at(100).contains("requirement"));
        assert!(at(101).contains("loop-abort"));
        for i in [4, 8, 16, 31, 51, 101] {
            assert!(pressure(Speech::Zh, i).is_some());
        }
    }

    /// Every `--verify auto` fact is worded in both languages, and an ecosystem's fact by its own folder alone:
    /// none falls through to the name-only fallback, and no two ecosystems claim one.
    #[test]
    fn every_detect_fact_is_worded_once_in_each_language() {
        use crate::detect::{Fact, cpp, go, js, jvm, php, python, ruby, rust, shell};
        let facts = [
            Fact::Recipe {
                file: "justfile",
                target: "test",
            },
            Fact::Target {
                file: "Makefile",
                target: "test",
            },
            Fact::own(rust::Found::Cargo { workspace: true }),
            Fact::own(rust::Found::Cargo { workspace: false }),
            Fact::own(rust::Found::Nextest { installed: true }),
            Fact::own(rust::Found::Nextest { installed: false }),
            Fact::own(go::Found::GoMod),
            Fact::own(js::Found::NodeScript),
            Fact::own(js::Found::Lockfile {
                file: "pnpm-lock.yaml",
                manager: "pnpm",
            }),
            Fact::own(js::Found::PackageManagerField { manager: "yarn" }),
            Fact::own(js::Found::NoLockfile),
            Fact::own(python::Found::PytestConfig { file: "pytest.ini" }),
            Fact::own(python::Found::Conftest),
            Fact::own(python::Found::TestFiles { dir: "tests" }),
            Fact::own(python::Found::Pyproject),
            Fact::own(python::Found::Virtualenv {
                python: ".venv/bin/python",
            }),
            Fact::own(python::Found::Runner {
                lock: "uv.lock",
                tool: "uv",
            }),
            Fact::own(python::Found::Python3),
            Fact::own(shell::Found::BatsFiles { dir: "test" }),
            Fact::own(cpp::Found::CMakeTests),
            Fact::own(ruby::Found::RubyTests {
                dir: "spec",
                runner: "rspec",
            }),
            Fact::own(ruby::Found::RakeTestTask { file: "Rakefile" }),
            Fact::own(php::Found::Phpunit {
                file: Some("phpunit.xml"),
                composer: true,
            }),
            Fact::own(php::Found::Phpunit {
                file: None,
                composer: false,
            }),
            Fact::own(jvm::Found::MavenPom { wrapper: true }),
            Fact::own(jvm::Found::MavenPom { wrapper: false }),
            Fact::NotOnPath { program: "x".into() },
        ];
        for lang in [Speech::En, Speech::Zh] {
            for fact in &facts {
                let said = detect_reason(lang, std::slice::from_ref(fact));
                assert_ne!(said, format!("{fact:?}"), "{fact:?} has no words in {lang:?}");
                if let Fact::Own(own) = fact {
                    let claims = FACT_WORDS.iter().filter(|words| words(lang, own).is_some()).count();
                    assert_eq!(claims, 1, "{fact:?} is worded by {claims} ecosystems");
                }
            }
        }
        assert_eq!(
            detect_reason(
                Speech::En,
                &[
                    Fact::own(cpp::Found::CMakeTests),
                    Fact::own(rust::Found::Cargo { workspace: false })
                ]
            ),
            "CMakeLists.txt turns testing on (ctest), Cargo.toml is here"
        );
    }

    /// Every new file that shadows what the baseline used is worded in both languages, an ecosystem's by its
    /// folder (none falls back to the bare "is new").
    #[test]
    fn every_shadow_is_worded_in_each_language() {
        use crate::closure::observed::{Shadow, ShadowKind};
        let kinds = [
            ShadowKind::Module {
                name: "calc".into(),
                used: "src/calc.py".into(),
            },
            ShadowKind::PathFile,
            ShadowKind::Plugin,
            ShadowKind::Configuration,
        ];
        for lang in [Speech::En, Speech::Zh] {
            for kind in &kinds {
                let shadow = Shadow {
                    path: "x".into(),
                    kind: kind.clone(),
                };
                let said = breach::shadow(lang, &shadow);
                assert_ne!(said, "`x` is new", "{kind:?} in {lang:?}");
                assert!(said.contains("`x`"), "{said}");
            }
        }
    }
}
