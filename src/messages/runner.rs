//! What loopgate says about the runner table (see `crate::runner`), in English and Chinese: `status`'s line
//! on the runners whose verdict has no structured report to read beside their output.

use crate::runner::{NoReport, Runner};
use crate::schema::Speech;

/// Why `runner` has no report through a private channel, in one clause; a report that comes from a profile of
/// the project's configuration names the runner's configuration file (its row's `config.files`).
pub(crate) fn no_report(lang: Speech, runner: Runner, why: NoReport) -> String {
    let files = runner.row().config.files.join("`, `");
    match (why, lang) {
        (NoReport::CommandLineOnly, Speech::En) => {
            "its report is asked for on its command line or in the project's configuration only".to_string()
        }
        (NoReport::CommandLineOnly, Speech::Zh) => "它的报告只能通过命令行或项目配置请求".to_string(),
        (NoReport::ProjectConfigOnly, Speech::En) => {
            format!("its JUnit report's path comes only from a profile of the project's `{files}`")
        }
        (NoReport::ProjectConfigOnly, Speech::Zh) => format!("它的 JUnit 报告路径只能来自项目 `{files}` 中的 profile"),
    }
}

/// `status`'s line: the runners of the verify command whose verdict reads their output alone, and why; `None`
/// when every one of them has a report (or none was recognized).
pub(crate) fn output_only(lang: Speech, runners: &[Runner]) -> Option<String> {
    let list: Vec<String> = runners
        .iter()
        .filter_map(|r| {
            r.row()
                .report
                .missing()
                .map(|why| format!("{} ({})", r.name(), no_report(lang, *r, why)))
        })
        .collect();
    if list.is_empty() {
        return None;
    }
    Some(match lang {
        Speech::En => format!(
            "no private report, the verdict reads the output alone: {}",
            list.join("; ")
        ),
        Speech::Zh => format!("没有私有报告,裁决只读取输出:{}", list.join(";")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `status`'s line names each runner without a private report and why, a profile's file by the runner's own
    /// configuration file; a runner with one is not named.
    #[test]
    fn the_runners_without_a_private_report_are_named_with_why() {
        let line = output_only(Speech::En, &[Runner::Pytest, Runner::Nextest, Runner::Bats]).expect("a line");
        assert_eq!(
            line,
            "no private report, the verdict reads the output alone: cargo nextest (its JUnit report's path comes \
             only from a profile of the project's `.config/nextest.toml`); bats (its report is asked for on its \
             command line or in the project's configuration only)"
        );
        let zh = output_only(Speech::Zh, &[Runner::Nextest]).expect("a line");
        assert!(zh.contains("`.config/nextest.toml` 中的 profile"), "{zh}");
        assert_eq!(output_only(Speech::En, &[Runner::Pytest]), None);
    }
}
