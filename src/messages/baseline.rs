//! What loopgate says about the baseline run and the per-test verdict (see `crate::testjudge::baseline`), in English and
//! Chinese: the briefing's baseline paragraph, and why a pass was not accepted.

use crate::readout::TestOutcome;
use crate::schema::Speech;
use crate::testjudge::baseline::{Baseline, Shortfall};

/// Names listed at most in one message; the rest are counted.
const LISTED: usize = 10;

/// The briefing's paragraph: what the verify command did before the agent's first turn.
pub(crate) fn at_setup(lang: Speech, baseline: &Baseline, log: &str) -> String {
    if let Some(budget) = baseline.cut {
        return cut(lang, budget, log);
    }
    let secs = baseline.duration_ms as f64 / 1000.0;
    let how = ended(lang, baseline, secs);
    let failing = baseline.failing();
    let tests = match (baseline.tests_ran(), lang) {
        (None, Speech::En) => "no test results could be read from its output (the code may not build yet); the first verify that reports tests becomes the baseline".to_string(),
        (None, Speech::Zh) => "无法从输出中读出测试结果(代码可能还无法构建);第一次报告测试的验证将成为基线".to_string(),
        (Some(ran), Speech::En) => format!(
            "{ran} test(s) ran, {} failed{}",
            baseline.tests_failed(),
            listed(lang, &failing)
        ),
        (Some(ran), Speech::Zh) => format!(
            "运行了 {ran} 个测试,{} 个失败{}",
            baseline.tests_failed(),
            listed(lang, &failing)
        ),
    };
    let verdict = match (baseline.passed(), lang) {
        (false, _) if baseline.tests_ran().is_none() => "",
        (true, Speech::En) => {
            "\nThe verify command ALREADY PASSES before any change: either the task is already done, or the verify command does not test it. Check which before you change anything, and tell the user if the task needs a test that does not exist yet."
        }
        (true, Speech::Zh) => {
            "\n验证命令在任何修改之前就已经通过:要么任务已经完成,要么验证命令并没有测试它。动手之前先弄清是哪一种;如果任务需要一个尚不存在的测试,请告诉用户。"
        }
        (false, Speech::En) => {
            "\nA pass counts only if every test that ran here runs again and passes; your new tests are welcome but do not replace these."
        }
        (false, Speech::Zh) => {
            "\n只有当这里运行过的每个测试都再次运行并通过时,通过才算数;欢迎你新增测试,但它们不能替代这些测试。"
        }
    };
    match lang {
        Speech::En => format!(
            "Baseline (the verify command, run once before your first turn): {how}; {tests}. Full log: {log}{verdict}"
        ),
        Speech::Zh => format!("基线(在你的第一个回合之前运行一次验证命令):{how};{tests}。完整日志:{log}{verdict}"),
    }
}

/// The baseline ran longer than the slash command may wait, and was stopped.
fn cut(lang: Speech, budget: u64, log: &str) -> String {
    let cli = crate::cli::client().title();
    match lang {
        Speech::En => format!(
            "Baseline: not taken — the verify command was still running after {budget}s, and {cli} does not wait longer for the command (it would start you while the suite runs). The loop's first verify that reports tests becomes the baseline. (For the user: to take a full baseline of a long suite, start the loop from a terminal in the project — `loopgate setup \"TASK\" --verify 'CMD'`, with live progress and the whole verify timeout — then start {cli}; its first session adopts the loop.) Partial log: {log}"
        ),
        Speech::Zh => format!(
            "基线:未采集——验证命令在 {budget} 秒后仍在运行,而 {cli} 不会为该命令等待更久(否则会在测试运行时就让你开始工作)。循环中第一次报告测试的验证将成为基线。(给用户:若要为耗时较长的测试套件采集完整基线,请在项目目录的终端中启动循环——`loopgate setup \"任务\" --verify '命令'`,有实时进度且使用完整的验证超时——然后启动 {cli};它的第一个会话会接管该循环。)部分日志:{log}"
        ),
    }
}

/// `--no-baseline`: what the loop gives up.
pub(crate) fn skipped(lang: Speech) -> &'static str {
    match lang {
        Speech::En => {
            "Baseline: not run (`--no-baseline`); the first verify of the loop is the baseline its later passes are held to."
        }
        Speech::Zh => "基线:未运行(`--no-baseline`);循环的第一次验证将作为之后各次通过所对照的基线。",
    }
}

fn ended(lang: Speech, baseline: &Baseline, secs: f64) -> String {
    match (lang, baseline.timed_out, baseline.exit) {
        (Speech::En, true, _) => format!("timed out after {secs:.1}s"),
        (Speech::Zh, true, _) => format!("{secs:.1} 秒后超时"),
        (Speech::En, false, Some(code)) => format!("exit {code} after {secs:.1}s"),
        (Speech::Zh, false, Some(code)) => format!("退出码 {code},用时 {secs:.1} 秒"),
        (Speech::En, false, None) => format!("killed after {secs:.1}s"),
        (Speech::Zh, false, None) => format!("{secs:.1} 秒后被终止"),
    }
}

/// ` (a, b, c and 2 more)`, or nothing.
fn listed(lang: Speech, names: &[&str]) -> String {
    if names.is_empty() {
        return String::new();
    }
    let shown: Vec<String> = names.iter().take(LISTED).map(|n| format!("`{n}`")).collect();
    let more = names.len().saturating_sub(LISTED);
    match (lang, more) {
        (_, 0) => format!(": {}", shown.join(", ")),
        (Speech::En, more) => format!(": {} and {more} more", shown.join(", ")),
        (Speech::Zh, more) => format!(":{} 等另外 {more} 个", shown.join(", ")),
    }
}

/// Why a pass was not accepted: baseline tests that did not run and pass.
pub(crate) fn short(lang: Speech, short: &[Shortfall]) -> String {
    let items: Vec<String> = short
        .iter()
        .take(LISTED)
        .map(|s| format!("- `{}` ({})", s.name, now(lang, s)))
        .collect();
    let more = short.len().saturating_sub(LISTED);
    let more = match (lang, more) {
        (_, 0) => String::new(),
        (Speech::En, n) => format!("\n- … and {n} more"),
        (Speech::Zh, n) => format!("\n- ……另外还有 {n} 个"),
    };
    match lang {
        Speech::En => format!(
            "The verify command passed, but {} test(s) that ran when the loop started did not run and pass this time, so the pass does not count:\n{}{more}\nThe oracle judges the user's tests as they were, by name: restore them (run them, un-skip them, undo the rename or the change to their data) and make them pass. New tests are welcome but do not replace these. Only the user can accept a test's removal (`loopgate allow --tests NAME`, in their terminal).",
            short.len(),
            items.join("\n")
        ),
        Speech::Zh => format!(
            "验证命令通过了,但循环开始时运行过的 {} 个测试这次没有运行并通过,因此这次通过不算数:\n{}{more}\n验证按名称、按原样评判用户的测试:请恢复它们(让它们运行、取消跳过、撤销重命名或对其数据的修改)并让它们通过。欢迎新增测试,但不能替代这些测试。只有用户可以接受删除某个测试(在其终端中运行 `loopgate allow --tests 名称`)。",
            short.len(),
            items.join("\n")
        ),
    }
}

fn now(lang: Speech, shortfall: &Shortfall) -> &'static str {
    match (lang, shortfall.was, shortfall.now) {
        (Speech::En, _, Some(TestOutcome::Failed)) => "failed",
        (Speech::En, TestOutcome::Passed, _) => "passed at baseline; did not run now",
        (Speech::En, TestOutcome::Failed, _) => "failed at baseline; did not run now",
        (Speech::Zh, _, Some(TestOutcome::Failed)) => "失败",
        (Speech::Zh, TestOutcome::Passed, _) => "基线时通过;这次没有运行",
        (Speech::Zh, TestOutcome::Failed, _) => "基线时失败;这次没有运行",
    }
}

/// The one-line result for the user when baseline tests fell short.
pub(crate) fn short_result(lang: Speech, count: usize) -> String {
    match lang {
        Speech::En => format!("exit 0, but {count} baseline test(s) did not run and pass"),
        Speech::Zh => format!("以 0 退出,但有 {count} 个基线测试没有运行并通过"),
    }
}

/// Why a pass was not accepted: it reported no test result where the baseline did.
pub(crate) fn no_results(lang: Speech) -> String {
    match lang {
        Speech::En => "The verify command exited 0, but its output reports no test results at all (no test names, no runner summary), while at baseline it did: the suite did not show that the tests ran and passed (a test that ends the process early, `os._exit(0)`, `process.exit(0)`, hides every result after it). Find out why the runner printed no results and make the tests run to the end.".into(),
        Speech::Zh => "验证命令以 0 退出,但其输出中完全没有测试结果(没有测试名称,也没有运行器摘要),而基线时有:测试套件没有证明测试运行并通过(提前结束进程的测试,如 `os._exit(0)`、`process.exit(0)`,会隐藏其后的所有结果)。请查明运行器为何没有输出结果,并让测试完整运行。".into(),
    }
}

/// The one-line result for the user when a pass reported no results.
pub(crate) fn no_results_result(lang: Speech) -> &'static str {
    match lang {
        Speech::En => "exit 0, but no test results were reported (the baseline had them)",
        Speech::Zh => "以 0 退出,但没有报告任何测试结果(基线时有)",
    }
}
