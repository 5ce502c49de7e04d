//! What loopgate says about the reviewer at a passing promise (see `crate::review`), in English and Chinese.
//! The agent reads the reviewer's quoted lines and the question each answers, never the reviewer's prose: a
//! quote is a line of its own change, which it can find and undo.

use crate::schema::{ReviewNote, ReviewVerdict, Reviewer, Speech};

/// The block reason's evidence: the findings, each a question and the quoted line.
pub(crate) fn findings(lang: Speech, findings: &[(String, String)], by_rule: bool) -> String {
    let mut out = match (lang, by_rule) {
        (Speech::En, false) => "The tests pass, but a reviewer (a separate model that read your change, never your \
                                messages) found lines that make them pass without doing the task:"
            .to_string(),
        (Speech::En, true) => "The tests pass, but your change holds text addressed to a reviewer, grader or \
                               model. Code has no reason to speak to its reviewer:"
            .to_string(),
        (Speech::Zh, false) => {
            "测试通过了,但审查者(一个只读你的改动、从不读你消息的独立模型)发现了让测试通过却没有完成任务的代码行:"
                .to_string()
        }
        (Speech::Zh, true) => {
            "测试通过了,但你的改动里有写给审查者、评分者或模型的文字。代码没有理由对审查者说话:".to_string()
        }
    };
    for (question, quote) in findings {
        out.push_str(&format!("\n- {question}: `{quote}`"));
    }
    out.push_str(match lang {
        Speech::En => "\nUndo these lines and solve the task for real; then claim completion again.",
        Speech::Zh => "\n撤销这些行,真正完成任务后再声明完成。",
    });
    out
}

/// The one-line result of a rejected promise.
pub(crate) fn result(lang: Speech, n: usize) -> String {
    match lang {
        Speech::En => format!("the reviewer quoted {n} line(s) that game the tests"),
        Speech::Zh => format!("审查者引用了 {n} 行投机取巧的代码"),
    }
}

/// What the user reads about the review when the loop completes (a sentence after the notice).
pub(crate) fn at_complete(lang: Speech, note: &ReviewNote) -> String {
    match (lang, note.verdict, note.why.as_deref()) {
        (Speech::En, ReviewVerdict::NotReviewed, why) => {
            format!(" Not reviewed: {}.", why.unwrap_or("the reviewer gave no answer"))
        }
        (Speech::Zh, ReviewVerdict::NotReviewed, why) => format!(" 未经审查:{}。", why.unwrap_or("审查者没有回答")),
        (Speech::En, _, _) => " The reviewer read the change and found nothing.".to_string(),
        (Speech::Zh, _, _) => " 审查者读过改动,没有发现问题。".to_string(),
    }
}

/// What setup says about the reviewer: who it is, or that `auto` found none.
pub(crate) fn at_setup(lang: Speech, reviewer: Option<&Reviewer>, described: &str, programs: &str) -> String {
    match (lang, reviewer) {
        (Speech::En, Some(r)) => format!(
            "Reviewer: {described} reads the change at a passing promise (at most {} s; a failure leaves the promise standing, \"not reviewed\").",
            r.timeout
        ),
        (Speech::Zh, Some(r)) => format!(
            "审查者:{described} 在承诺通过验证后阅读改动(最多 {} 秒;失败时承诺照常成立,标为“未经审查”)。",
            r.timeout
        ),
        (Speech::En, None) => {
            format!("Reviewer: `--review auto` found none of {programs} on PATH, so this loop has no reviewer.")
        }
        (Speech::Zh, None) => format!("审查者:`--review auto` 在 PATH 上没有找到 {programs},本循环没有审查者。"),
    }
}
