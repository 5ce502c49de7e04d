//! The budgets a stop measures from Claude Code's transcript: `--max-tokens` (tokens) and `--max-cost` (those
//! tokens priced by the table of `cost`, the one `loopgate run` prices with, its user rows sealed at setup).
//!
//! One incremental read serves both (`tokens::advance`, its cursor in the loop's progress). A budget that cannot
//! be measured at a stop — no transcript, an unreadable one, no usage recorded since the loop started, a model
//! no row prices — is said at that stop, never silently lifted; the loop's end says what was spent, or that
//! nothing was ever measured.

use std::path::Path;

use crate::cost::{self, Prices};
use crate::schema::Speech;
use crate::state::StateFields;
use crate::tokens;

use super::Survey;

/// Reads what the transcript added since the last stop into the loop's counters, and this turn's receipt into
/// `survey`; the warning for the user when a budget in force could not be measured.
pub(super) fn count(f: &mut StateFields, transcript: Option<&Path>, survey: &mut Survey) -> Option<String> {
    let limits = &f.config.limits;
    let flags = match (limits.max_tokens.is_some(), limits.max_cost.is_some()) {
        (false, false) => return None,
        (true, false) => "`--max-tokens` is",
        (false, true) => "`--max-cost` is",
        (true, true) => "`--max-tokens` and `--max-cost` are",
    };
    let since = f.started().ok();
    let path = match transcript {
        Some(path) => path,
        None => {
            return Some(format!(
                "{flags} not enforced at this stop: the hook input has no `transcript_path`"
            ));
        }
    };
    let cursor = f
        .progress
        .tokens
        .transcript_cursor
        .get_or_insert_with(tokens::Cursor::default);
    let usage = match tokens::advance(cursor, path, since) {
        Ok(usage) => usage,
        Err(err) => {
            return Some(format!(
                "{flags} not enforced at this stop: failed to read the transcript `{}`: {err} (the count stays at {})",
                path.display(),
                spent_so_far(f)
            ));
        }
    };
    f.progress.tokens.tokens_used += usage.all();
    let max = f.config.limits.max_cost?;
    let prices = Prices::from_rows(&f.config.limits.prices);
    let turn = cost::priced(&usage.per_model, &prices);
    let spent = match &f.progress.tokens.spent {
        Some(before) if usage.reports > 0 => cost::total([before, &turn]),
        Some(before) => before.clone(),
        None if usage.reports > 0 => turn.clone(),
        None => {
            return Some(format!(
                "`--max-cost {}` is not enforced yet: the transcript `{}` has recorded no usage since the loop started (an agent that reports none cannot be held to a dollar budget)",
                cost::dollars(max),
                path.display()
            ));
        }
    };
    let unpriced: Vec<&str> = usage
        .per_model
        .iter()
        .filter(|(model, t)| t.all() > 0 && prices.of(model).is_none())
        .map(|(model, _)| model.as_str())
        .collect();
    let warning = spent.cost_usd.is_none().then(|| {
        let models = if unpriced.is_empty() {
            "a model no row prices (an earlier stop named it)".to_string()
        } else {
            format!("`{}`, which no row prices", unpriced.join("`, `"))
        };
        format!(
            "`--max-cost {}` is not enforced: the session used {models}; add a row to `{}` (docs/cost.md) and set the loop up again",
            cost::dollars(max),
            cost::default_file().display()
        )
    });
    f.progress.tokens.spent = Some(spent);
    if usage.reports > 0 {
        survey.usage = Some(turn);
    }
    warning
}

/// Whether `--max-cost` is spent.
pub(super) fn cost_spent(f: &StateFields) -> bool {
    let spent = f.progress.tokens.spent.as_ref().and_then(|s| s.cost_usd);
    f.config
        .limits
        .max_cost
        .zip(spent)
        .is_some_and(|(max, spent)| spent >= max)
}

/// What the loop has spent, for the user at each stop and at its end (with `--max-cost`): the receipt against
/// the budget, or that the transcript never reported any usage, so the budget was never measured. (Mid-loop,
/// an unmeasured budget is the stop's own warning, see [`count`].) With `--max-tokens` alone, the tokens counted
/// against it, at the end. `loopgate cancel` says the same when it ends the loop.
pub(crate) fn said(lang: Speech, f: &StateFields, at_end: bool) -> Option<String> {
    let Some(max) = f.config.limits.max_cost.map(cost::dollars) else {
        let max = f.config.limits.max_tokens.filter(|_| at_end)?;
        let used = f.progress.tokens.tokens_used;
        return Some(match lang {
            Speech::En => format!(" Used {used} tokens of --max-tokens {max}."),
            Speech::Zh => format!(" 已使用 {used} 个 token(--max-tokens {max})。"),
        });
    };
    Some(match (&f.progress.tokens.spent, lang) {
        (Some(spent), Speech::En) if !at_end => format!(" · spent {} of --max-cost {max}", cost::describe(spent)),
        (Some(spent), Speech::En) => format!(" Spent {} of --max-cost {max}.", cost::describe(spent)),
        (Some(spent), Speech::Zh) => format!(" 已花费 {}(--max-cost {max})。", cost::describe(spent)),
        (None, _) if !at_end => return None,
        (None, Speech::En) => {
            format!(" --max-cost {max} was never measured: the session's transcript reported no usage.")
        }
        (None, Speech::Zh) => format!(" --max-cost {max} 从未被计量:会话记录中没有用量。"),
    })
}

/// The budget as setup states it: how it is measured, and that an agent whose transcript reports no usage is
/// not held to it (loopgate then says so at each stop, and at the end).
pub(crate) fn at_setup(lang: Speech, max: f64, own_rows: usize) -> String {
    let table = match own_rows {
        0 => "the built-in price table".to_string(),
        n => format!(
            "your {n} price row(s) from `{}`, then the built-in table",
            cost::default_file().display()
        ),
    };
    let max = cost::dollars(max);
    match lang {
        Speech::En => format!(
            "Budget: --max-cost {max}. At each stop loopgate reads the usage Claude Code's transcript recorded since the loop started and prices it by {table} (sealed with the loop); the loop ends once it is spent. An agent whose transcript reports no usage cannot be held to it: loopgate says so at each such stop and at the end."
        ),
        Speech::Zh => format!(
            "预算:--max-cost {max}。每次停止时 loopgate 读取 Claude Code 会话记录中自循环开始以来的用量,按{table}计价(随循环封存);用尽即结束循环。会话记录不报告用量的代理无法受此约束:loopgate 会在每次这样的停止和结束时说明。"
        ),
    }
}

/// The tokens and dollars counted so far, for a warning.
fn spent_so_far(f: &StateFields) -> String {
    match &f.progress.tokens.spent {
        Some(spent) => cost::describe(spent),
        None => format!("{} tokens", f.progress.tokens.tokens_used),
    }
}
