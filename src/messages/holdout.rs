//! What loopgate says about held-out tests (see `crate::holdout`), in English and Chinese. What the model reads
//! names held-out tests and says that they failed, never what they assert or print: the agent cannot fit the
//! code to tests it has never seen.

use crate::schema::{Holdout, HoldoutRestored as Restored, Speech};

/// A held-out test's name without what it was called with: a parameter id (pytest's `test_add[10-20-30]`) or a
/// subtest (Go's `TestAdd/10+20`) is a case of one test, counted once.
pub(crate) fn without_cases(name: &str) -> String {
    let cut = if let Some(at) = name.find("::") {
        name[at..].find('[').map(|i| at + i)
    } else {
        let after = name.rfind(' ').map_or(0, |i| i + 1);
        name[after..].find('/').map(|i| after + i)
    };
    match cut {
        Some(at) => format!(
            "{}{}",
            &name[..at],
            if name[at..].starts_with('[') { "[…]" } else { "/…" }
        ),
        None => name.to_string(),
    }
}

/// The note of a promise the held-out tests rejected: the visible tests pass, this many held-out tests did not.
/// It counts them and names none: a name is text of the held-out test (`test_add_10_20_gives_30`, a parameter id),
/// and what the agent reads must say nothing it could fit the code to. The user's `loopgate status` names them.
/// `failing` are the failing tests' names (their cases counted once, see [`without_cases`]); `exit` is how the
/// held-out run ended when it named no failing test.
pub(crate) fn failed(lang: Speech, failing: &[String], exit: &str) -> String {
    let mut failing: Vec<String> = failing.iter().map(|name| without_cases(name)).collect();
    failing.dedup();
    let failing = failing.as_slice();
    let which = if failing.is_empty() {
        match lang {
            Speech::En => format!("the held-out run failed ({exit}) without naming a test"),
            Speech::Zh => format!("保留测试运行失败({exit}),未报告测试名"),
        }
    } else {
        match lang {
            Speech::En => format!("{} held-out test(s) failed or did not run", failing.len()),
            Speech::Zh => format!("{} 个保留测试失败或未运行", failing.len()),
        }
    };
    match lang {
        Speech::En => format!(
            "PROMISE REJECTED by the held-out tests: the verify command passes on the visible tests, but {which}. The user keeps these acceptance tests from you; their code and output are not shown, on purpose. Make the code correct for every input the task describes, not for the inputs the visible tests use."
        ),
        Speech::Zh => format!(
            "承诺被保留测试拒绝:验证命令在可见测试上通过,但{which}。这些验收测试由用户保留,不向你展示;其代码和输出有意不显示。请让代码对任务描述的所有输入都正确,而不只是对可见测试使用的输入。"
        ),
    }
}

/// The history's and the user's one-line result of a promise the held-out tests rejected.
pub(crate) fn result(lang: Speech) -> &'static str {
    match lang {
        Speech::En => "the verify passed; held-out tests failed",
        Speech::Zh => "验证通过;保留测试失败",
    }
}

/// The briefing's line: the loop has held-out tests, which run at the promise. `tests`: how many held-out tests
/// the held-out run at setup reported by name (`None`: not run); none is worth a warning to the user, since
/// then only that run's exit code judges them.
pub(crate) fn at_setup(lang: Speech, holdout: &Holdout, tests: Option<usize>) -> String {
    let files = holdout.len();
    let mut out = match lang {
        Speech::En => format!(
            "Held-out tests: the user keeps {files} acceptance test file(s) from you. They run only when you claim completion, after the verify command passes; you will see only the names of those that fail."
        ),
        Speech::Zh => format!(
            "保留测试:用户向你保留了 {files} 个验收测试文件。它们只在你声明完成、且验证命令通过之后运行;你只会看到失败测试的名称。"
        ),
    };
    if tests == Some(0) {
        out.push_str(match lang {
            Speech::En => " (For the user: the held-out run at setup reported no held-out test by name — does the verify command collect them? Until one reports names, only that run's exit code judges them.)",
            Speech::Zh => "(给用户:设置时的保留测试运行没有按名称报告任何保留测试——验证命令会收集它们吗?在报告出名称之前,只以该运行的退出码判定。)",
        });
    }
    out
}

/// For the user at setup: held-out files that git history holds.
/// The paths themselves are left to `loopgate status` (setup's output may reach the model).
pub(crate) fn in_git(lang: Speech, count: usize) -> String {
    match lang {
        Speech::En => format!(
            "Warning (for the user): git history holds {count} of the held-out files (`loopgate status` lists them): an agent can read a committed test back from git objects (`git show`, `git log -p`) even with the file out of the tree; the guard refuses the plain ways, but for tests the agent must never see keep them in a directory outside the project (`--holdout ~/acceptance/PROJECT`) and never commit them."
        ),
        Speech::Zh => format!(
            "警告(给用户):git 历史中存有 {count} 个保留文件(`loopgate status` 会列出):即使文件已移出工作区,代理仍可从 git 对象中读回已提交的测试(`git show`、`git log -p`);守卫会拒绝常见方式,但对于绝不能让代理看到的测试,请将其放在项目之外的目录(`--holdout ~/acceptance/PROJECT`)并且不要提交。"
        ),
    }
}

/// For the user: what putting the held-out files back did (empty when nothing was out).
pub(crate) fn restored(lang: Speech, restored: &Restored) -> String {
    let mut out = String::new();
    if restored.back > 0 {
        out.push_str(&match lang {
            Speech::En => format!(
                "loopgate: {} held-out file(s) put back in the project.\n",
                restored.back
            ),
            Speech::Zh => format!("loopgate:{} 个保留文件已放回项目。\n", restored.back),
        });
    }
    for (path, aside) in &restored.kept_aside {
        out.push_str(&match lang {
            Speech::En => format!(
                "loopgate: `{path}` was recreated during the loop; the held-out file is back in its place and the other copy was kept at `{}`.\n",
                aside.display()
            ),
            Speech::Zh => format!(
                "loopgate:`{path}` 在循环期间被重新创建;保留文件已放回原处,另一份副本保存在 `{}`。\n",
                aside.display()
            ),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_the_agent_is_told_counts_the_held_out_tests_and_names_none() {
        let names = [
            "tests/acceptance/test_more.py::test_add[10-20-30]".to_string(),
            "tests/acceptance/test_more.py::test_add[7-8-15]".to_string(),
            "example.com/calc TestAdd/10+20=30".to_string(),
            "calc tests::adds_big".to_string(),
        ];
        let text = failed(Speech::En, &names, "exit 1");
        for secret in [
            "10-20-30",
            "7-8-15",
            "10+20=30",
            "test_add",
            "TestAdd",
            "adds_big",
            "test_more",
        ] {
            assert!(!text.contains(secret), "{secret} in {text}");
        }
        assert!(
            text.contains("3 held-out test(s)"),
            "the cases of one test count once: {text}"
        );
    }
}
