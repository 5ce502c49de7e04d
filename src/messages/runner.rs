//! What loopgate says about the runner table (see `crate::runner`), in English and Chinese: `status`'s line
//! on the runners whose verdict has no structured report to read beside their output.

use crate::runner::{NoReport, Runner};
use crate::schema::Speech;

/// Why `runner` has no report through a private channel, in one clause.
pub(crate) fn no_report(lang: Speech, why: NoReport) -> &'static str {
    match (why, lang) {
        (NoReport::CommandLineOnly, Speech::En) => {
            "its report is asked for on its command line or in the project's configuration only"
        }
        (NoReport::CommandLineOnly, Speech::Zh) => "它的报告只能通过命令行或项目配置请求",
        (NoReport::ProjectConfigOnly, Speech::En) => {
            "its JUnit report's path comes only from a profile of the project's `.config/nextest.toml`"
        }
        (NoReport::ProjectConfigOnly, Speech::Zh) => {
            "它的 JUnit 报告路径只能来自项目 `.config/nextest.toml` 中的 profile"
        }
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
                .map(|why| format!("{} ({})", r.name(), no_report(lang, why)))
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
