//! What loopgate says about Claude Code's stop-hook block cap (see `stop::block_cap`), in English and Chinese.

use crate::schema::Speech;

/// For the model, appended to the last block the cap allows without a tool call: Claude Code's, or loopgate's own
/// (`own`) for an agent that has none.
pub(crate) fn last_warning(lang: Speech, cap: u64, own: bool) -> String {
    let cli = crate::cli::client().title();
    match (lang, own) {
        (Speech::En, true) => format!(
            "LAST CONTINUATION WITHOUT A TOOL: this is continuation {cap} in a row without a tool call, the last one loopgate allows; if you stop again without using a tool, loopgate lets your turn end. Use a tool now (run `loopgate verify`, read the failing code, make a change), or if you are stuck say so with <loop-pause>what you need</loop-pause> or <loop-abort>why</loop-abort>."
        ),
        (Speech::Zh, true) => format!(
            "最后一次无工具续行:这是连续第 {cap} 次没有工具调用的续行,也是 loopgate 允许的最后一次;如果你再次不使用工具就停止,loopgate 会让你的回合结束。现在就使用工具(运行 `loopgate verify`、阅读失败的代码、做出修改);如果受阻,用 <loop-pause>你需要什么</loop-pause> 或 <loop-abort>原因</loop-abort> 说明。"
        ),
        (Speech::En, false) => format!(
            "LAST CONTINUATION WITHOUT A TOOL: this is continuation {cap} in a row without a tool call, the last one {cli} allows; if you stop again without using a tool, {cli} ends your turn. Use a tool now (run `loopgate verify`, read the failing code, make a change), or if you are stuck say so with <loop-pause>what you need</loop-pause> or <loop-abort>why</loop-abort>."
        ),
        (Speech::Zh, false) => format!(
            "最后一次无工具续行:这是连续第 {cap} 次没有工具调用的续行,也是 {cli} 允许的最后一次;如果你再次不使用工具就停止,{cli} 会结束你的回合。现在就使用工具(运行 `loopgate verify`、阅读失败的代码、做出修改);如果受阻,用 <loop-pause>你需要什么</loop-pause> 或 <loop-abort>原因</loop-abort> 说明。"
        ),
    }
}

/// For the user: loopgate let the turn end at the cap; the loop goes on with the next message.
pub(crate) fn yielded(lang: Speech, blocks: u64, next_iteration: u64) -> String {
    match lang {
        Speech::En => format!(
            "loopgate: ⏸ the agent used no tool in its last {blocks} continuation(s), and Claude Code ends a turn after that many stop-hook blocks in a row (CLAUDE_CODE_STOP_HOOK_BLOCK_CAP), so loopgate let it stop here. The loop is still running (next: iteration {next_iteration}): send a message (e.g. \"continue\") to go on, or /cancel-loop (/loopgate:cancel-loop) to end it."
        ),
        Speech::Zh => format!(
            "loopgate:⏸ 代理在最近 {blocks} 次续行中没有使用任何工具,而 Claude Code 在连续这么多次 Stop 钩子阻止后会结束回合(CLAUDE_CODE_STOP_HOOK_BLOCK_CAP),所以 loopgate 让它在此停下。循环仍在运行(下一次:第 {next_iteration} 次迭代):发送一条消息(例如“继续”)即可继续,或用 /cancel-loop(/loopgate:cancel-loop)结束。"
        ),
    }
}

/// For the user: loopgate stopped a runaway at its own cap (`LOOPGATE_BLOCK_CAP`) in an agent that has no cap of
/// its own and would go on blocked forever; the loop goes on with the next message.
pub(crate) fn own_cap_yielded(lang: Speech, blocks: u64, next_iteration: u64) -> String {
    let cancel = crate::cli::slash_command("cancel-loop");
    match lang {
        Speech::En => format!(
            "loopgate: ⏸ the agent used no tool in its last {blocks} continuation(s). This agent has no limit of its own on stop-hook blocks in a row, so loopgate stops a runaway here (LOOPGATE_BLOCK_CAP; 0 turns this off). The loop is still running (next: iteration {next_iteration}): send a message (e.g. \"continue\") to go on, or {cancel} (`loopgate cancel` in a terminal) to end it."
        ),
        Speech::Zh => format!(
            "loopgate:⏸ 代理在最近 {blocks} 次续行中没有使用任何工具。这个代理自身对连续的 Stop 钩子阻止没有上限,所以 loopgate 在此止住失控的循环(LOOPGATE_BLOCK_CAP;设为 0 可关闭)。循环仍在运行(下一次:第 {next_iteration} 次迭代):发送一条消息(例如“继续”)即可继续,或用 {cancel}(终端中用 `loopgate cancel`)结束。"
        ),
    }
}

/// For the user: a turn loopgate had blocked ended without coming back (noticed at the next stop or start).
/// `own`: the cap is loopgate's (the agent has none).
pub(crate) fn turn_ended(lang: Speech, blocks: u64, cap: Option<u64>, iteration: u64, own: bool) -> String {
    let cap = cap.map_or_else(
        || match lang {
            Speech::En => "off".to_string(),
            Speech::Zh => "已关闭".to_string(),
        },
        |cap| cap.to_string(),
    );
    let cli = crate::cli::client().title();
    let whose = match (lang, own) {
        (Speech::En, true) => "loopgate's cap on them".to_string(),
        (Speech::En, false) => format!("{cli}'s stop-hook block cap"),
        (Speech::Zh, true) => "loopgate 的上限".to_string(),
        (Speech::Zh, false) => format!("{cli} 的 Stop 钩子阻止上限"),
    };
    let cancel = match (crate::cli::client(), lang) {
        (crate::cli::Agent::Claude, Speech::En) => "/cancel-loop or /loopgate:cancel-loop".to_string(),
        (crate::cli::Agent::Claude, Speech::Zh) => "/cancel-loop 或 /loopgate:cancel-loop".to_string(),
        (other, _) => other.command("cancel-loop"),
    };
    match lang {
        Speech::En => format!(
            "loopgate: ⚠ the agent's previous turn ended although loopgate had asked it to continue ({blocks} block(s) in a row without a tool call; {whose}: {cap}), or it was interrupted. Recorded as `turn_ended`; the loop is still running at iteration {iteration} ({cancel} ends it)."
        ),
        Speech::Zh => format!(
            "loopgate:⚠ 代理的上一个回合在 loopgate 要求继续后结束了(连续 {blocks} 次阻止且没有工具调用;{whose}:{cap}),或者被中断了。已记录为 `turn_ended`;循环仍在第 {iteration} 次迭代运行({cancel} 可结束)。"
        ),
    }
}

/// For `loopgate status`, when the loop's latest record says its last turn ended without loopgate letting it
/// (`turn_ended`) or at Claude Code's block cap (`block_cap`): what ended it and how to go on.
pub(crate) fn status_line(lang: Speech, cap_reached: bool, iteration: u64) -> String {
    match (lang, cap_reached) {
        (Speech::En, true) => format!(
            "the agent's turn ended at iteration {iteration}: Claude Code's stop-hook block cap (it used no tool in the continuations loopgate asked for). The loop is still running: send a message in the session (e.g. \"continue\") to go on, or /cancel-loop to end it"
        ),
        (Speech::En, false) => format!(
            "the agent's turn ended at iteration {iteration} although loopgate had asked it to continue (Claude Code's block cap, Esc, an API error or --max-turns). The loop is still running: send a message in the session to go on, or /cancel-loop to end it"
        ),
        (Speech::Zh, true) => format!(
            "代理的回合在第 {iteration} 次迭代结束:Claude Code 的 Stop 钩子阻止次数上限(在 loopgate 要求的续行中没有使用任何工具)。循环仍在运行:在会话中发送一条消息(例如“继续”)即可继续,或用 /cancel-loop 结束"
        ),
        (Speech::Zh, false) => format!(
            "代理的回合在第 {iteration} 次迭代结束,尽管 loopgate 要求它继续(Claude Code 的阻止上限、Esc、API 错误或 --max-turns)。循环仍在运行:在会话中发送一条消息即可继续,或用 /cancel-loop 结束"
        ),
    }
}

/// For the user (and `loopgate status`): the agent's turn ended on an API error (`error`, when known); the loop
/// is still running and the next message in the session resumes it.
pub(crate) fn stop_failure(lang: Speech, error: Option<&str>, iteration: u64) -> String {
    let error = error.map_or_else(String::new, |e| format!(" ({e})"));
    match lang {
        Speech::En => format!(
            "loopgate: the agent's turn ended on an API error{error} at iteration {iteration}. The loop is still running: send a message in the session (e.g. \"continue\") once the API answers again, or /cancel-loop to end it."
        ),
        Speech::Zh => format!(
            "loopgate:代理的回合在第 {iteration} 次迭代因 API 错误{error}而结束。循环仍在运行:API 恢复后在会话中发送一条消息(例如“继续”)即可继续,或用 /cancel-loop 结束。"
        ),
    }
}
