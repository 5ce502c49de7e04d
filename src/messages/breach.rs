//! What the model and the user read about a breach of the oracle's inputs (see `oracle::breach`).

use crate::closure::observed::{Seen, Shadow, ShadowKind};
use crate::closure::steps::Finding;
use crate::closure::{MovedPart, PartChange, Why, parts};
use crate::schema::{Check, Speech};

/// The section title.
pub(crate) fn title(lang: Speech, during_run: bool) -> &'static str {
    match (lang, during_run) {
        (Speech::En, false) => "The oracle's inputs changed since the loop started (the verify command did not run):",
        (Speech::Zh, false) => "自循环开始以来,验证所依赖的输入被修改了(验证命令没有运行):",
        (Speech::En, true) => {
            "The oracle's inputs changed WHILE the verify command ran (something it started, or a process left running, rewrote them), so its pass does not count:"
        }
        (Speech::Zh, true) => {
            "验证命令运行期间,验证所依赖的输入被修改了(由它启动的程序或仍在运行的进程改写),因此这次通过不算数:"
        }
    }
}

/// A file a `--seal` glob matches that was `added`, `changed` or `deleted`: the same in both languages (the
/// history records it so).
pub(crate) fn file(path: &str, kind: &str) -> String {
    format!("{path} ({kind})")
}

/// Why a file belongs to the closure, as a clause: `it configures `pytest``.
pub(crate) fn why(lang: Speech, why: &Why) -> String {
    match (lang, why) {
        (Speech::En, Why::Configures(tool)) => format!("it configures `{tool}`"),
        (Speech::En, Why::RunBy(command)) => format!("it is run by `{command}`"),
        (Speech::Zh, Why::Configures(tool)) => format!("它是 `{tool}` 的配置"),
        (Speech::Zh, Why::RunBy(command)) => format!("它由 `{command}` 运行"),
        (lang, Why::Observed(seen)) => observed(lang, seen),
        (lang, Why::Step(finding)) => step(lang, finding),
    }
}

/// Why a changed step of the run (a `pretest` script, a line of a script the verify runs) was not freed: what the
/// promise's trace showed it doing that the rest of the run could feel (`oracle::steps`).
fn step(lang: Speech, finding: &Finding) -> String {
    match (lang, finding) {
        (Speech::En, Finding::Fed(path)) => format!(
            "it ran as a step of the verify run and wrote `{path}`, which the rest of the run then used; a step is free only when it writes nothing the run reads"
        ),
        (Speech::Zh, Finding::Fed(path)) => {
            format!(
                "它作为验证运行中的一个步骤写入了 `{path}`,而运行的其余部分随后使用了它;只有不写入运行会读取的内容的步骤才是自由的"
            )
        }
        (Speech::En, Finding::Outlived) => {
            "it ran as a step of the verify run and left a process running after it ended".to_string()
        }
        (Speech::Zh, Finding::Outlived) => "它作为验证运行中的一个步骤,结束后仍留下了在运行的进程".to_string(),
        (Speech::En, Finding::Memory(what)) => {
            format!("it ran as a step of the verify run and wrote another process's memory (`{what}`)")
        }
        (Speech::Zh, Finding::Memory(what)) => format!("它作为验证运行中的一个步骤写入了另一个进程的内存(`{what}`)"),
        (Speech::En, Finding::Unread(why)) => {
            format!("it is a step of the verify run, but the run's trace could not be read whole to clear it ({why})")
        }
        (Speech::Zh, Finding::Unread(why)) => {
            format!("它是验证运行中的一个步骤,但运行的跟踪无法完整读取以确认它({why})")
        }
        (Speech::En, Finding::NotSeen) => {
            "it is a step of the verify run, but no process of the run was seen starting it, so it cannot be cleared"
                .to_string()
        }
        (Speech::Zh, Finding::NotSeen) => {
            "它是验证运行中的一个步骤,但在运行中没有看到启动它的进程,因此无法确认".to_string()
        }
        (Speech::En, Finding::Twice) => {
            "it is a step of the verify run, but more than one process of the run started as it (another line of the run is the same), so its processes cannot be told from the rest's"
                .to_string()
        }
        (Speech::Zh, Finding::Twice) => {
            "它是验证运行中的一个步骤,但运行中有多个进程以它的方式启动(运行的另一行与它相同),因此无法将它的进程与其余部分区分开".to_string()
        }
    }
}

/// Why an observed file is sealed: what the traced baseline run did with it.
fn observed(lang: Speech, seen: &Seen) -> String {
    match (lang, seen) {
        (Speech::En, Seen::Read) => "the verify run read it at baseline".to_string(),
        (Speech::En, Seen::Ran) => "the verify run executed it at baseline".to_string(),
        (Speech::En, Seen::LookedFor) => "the verify run looked for it at baseline".to_string(),
        (Speech::En, Seen::LookedForProgram { ran: Some(ran) }) => {
            format!("the verify run looked for a program here at baseline and ran `{ran}` instead")
        }
        (Speech::En, Seen::LookedForProgram { ran: None }) => {
            "the verify run looked for a program here at baseline".to_string()
        }
        (Speech::Zh, Seen::Read) => "基线验证运行时读取了它".to_string(),
        (Speech::Zh, Seen::Ran) => "基线验证运行时执行了它".to_string(),
        (Speech::Zh, Seen::LookedFor) => "基线验证运行时查找过它".to_string(),
        (Speech::Zh, Seen::LookedForProgram { ran: Some(ran) }) => {
            format!("基线验证运行时在此查找程序,实际运行的是 `{ran}`")
        }
        (Speech::Zh, Seen::LookedForProgram { ran: None }) => "基线验证运行时在此查找过程序".to_string(),
    }
}

/// A new file that would be found instead of something the baseline run used.
pub(crate) fn shadow(lang: Speech, shadow: &Shadow) -> String {
    let path = &shadow.path;
    match (lang, &shadow.kind) {
        (Speech::En, ShadowKind::Module { name, used }) => {
            format!(
                "`{path}` is new and would be imported as `{name}` instead of `{used}`, which the verify run imported at baseline"
            )
        }
        (Speech::Zh, ShadowKind::Module { name, used }) => {
            format!("新建的 `{path}` 会被当作 `{name}` 导入,取代基线验证运行时导入的 `{used}`")
        }
        (Speech::En, ShadowKind::Configuration) => {
            format!(
                "`{path}` is new: the verify run searched this directory at baseline, and a runner reads this file from it"
            )
        }
        (Speech::Zh, ShadowKind::Configuration) => {
            format!("新建了 `{path}`:基线验证运行时检索过该目录,测试工具会从中读取此文件")
        }
        _ => super::SHADOW_WORDS
            .iter()
            .find_map(|words| words(lang, shadow))
            .unwrap_or_else(|| format!("`{path}` is new")),
    }
}

/// One moved part of a closure file.
pub(crate) fn moved(lang: Speech, m: &MovedPart) -> String {
    let why = why(lang, &m.why);
    let path = &m.path;
    let part = &m.part;
    if part == parts::UNPARSABLE {
        return match lang {
            // Said of a file that parsed before and of one created so (a `.mocharc.js` with code beside its export).
            Speech::En => format!("`{path}` does not parse as data now, so it counts whole ({why})"),
            Speech::Zh => format!("`{path}` 现在无法按数据解析,因此整体计入({why})"),
        };
    }
    let whole = part == parts::WHOLE;
    match (lang, whole, &m.change) {
        (Speech::En, true, PartChange::Added) => format!("`{path}` was created ({why}; it did not exist at setup)"),
        (Speech::En, true, PartChange::Changed) => format!("`{path}` changed ({why})"),
        (Speech::En, true, PartChange::Removed) => format!("`{path}` was deleted ({why})"),
        (Speech::En, false, PartChange::Added) => format!("`{path}`: `{part}` was added ({why})"),
        (Speech::En, false, PartChange::Changed) => format!("`{path}`: `{part}` changed ({why})"),
        (Speech::En, false, PartChange::Removed) => format!("`{path}`: `{part}` was removed ({why})"),
        (Speech::Zh, true, PartChange::Added) => format!("新建了 `{path}`({why};开始时它不存在)"),
        (Speech::Zh, true, PartChange::Changed) => format!("`{path}` 被修改({why})"),
        (Speech::Zh, true, PartChange::Removed) => format!("`{path}` 被删除({why})"),
        (Speech::Zh, false, PartChange::Added) => format!("`{path}`:新增了 `{part}`({why})"),
        (Speech::Zh, false, PartChange::Changed) => format!("`{path}`:`{part}` 被修改({why})"),
        (Speech::Zh, false, PartChange::Removed) => format!("`{path}`:`{part}` 被删除({why})"),
    }
}

/// How to undo: restore files from git, delete files that did not exist, take the flagged code out of new
/// test files; and who may accept a change instead.
pub(crate) fn undo(
    lang: Speech,
    restore: &[&str],
    by_hand: &[&str],
    delete: &[&str],
    edit: &[&str],
    outside: &[&str],
) -> String {
    let how = how(lang, restore, by_hand, delete, edit, outside);
    match lang {
        Speech::En => format!(
            "The oracle judges your work against these: undo your changes ({how}) and change the code under test instead. If the user truly wants such a change, only they can accept it, from a terminal (`loopgate allow PATH`); ask with <loop-pause>what you need</loop-pause>."
        ),
        Speech::Zh => format!(
            "验证以这些内容为准:请撤销你的修改({how}),改为修改被测试的代码。如果用户确实需要这样的修改,只有用户能在终端中接受它(`loopgate allow 路径`);请用 <loop-pause>你需要什么</loop-pause> 询问。"
        ),
    }
}

/// [`undo`] for a person at a terminal (`loopgate verify` outside Claude Code): the same two ways, put back or
/// accept, without the instructions meant for the agent.
pub(crate) fn undo_for_person(
    lang: Speech,
    restore: &[&str],
    by_hand: &[&str],
    delete: &[&str],
    edit: &[&str],
    outside: &[&str],
) -> String {
    let how = how(lang, restore, by_hand, delete, edit, outside);
    match lang {
        Speech::En => {
            format!("To put them back: {how}. To accept them as the oracle's new inputs: `loopgate allow PATH…`.")
        }
        Speech::Zh => format!("恢复原状:{how}。接受它们作为验证的新输入:`loopgate allow 路径…`。"),
    }
}

/// The commands that undo the moves: restore from git or by hand, delete, take the flagged code out. What lies
/// outside the project (`outside`) may be the user's own change to their machine: it is never to be deleted
/// or put back blindly, only what the agent itself did there.
fn how(lang: Speech, restore: &[&str], by_hand: &[&str], delete: &[&str], edit: &[&str], outside: &[&str]) -> String {
    let mut how = Vec::new();
    if !restore.is_empty() {
        how.push(format!("`git checkout -- {}`", restore.join(" ")));
    }
    if !delete.is_empty() {
        how.push(format!("`rm -- {}`", delete.join(" ")));
    }
    if !edit.is_empty() {
        how.push(match lang {
            Speech::En => format!("remove the flagged lines from {}", quoted(edit)),
            Speech::Zh => format!("删除 {} 中被指出的代码", quoted(edit)),
        });
    }
    if !by_hand.is_empty() {
        how.push(match lang {
            Speech::En if by_hand.len() == 1 => format!(
                "put back {} as it was when the loop started: git does not track it, so `git checkout` cannot",
                quoted(by_hand)
            ),
            Speech::En => format!(
                "put back {} as they were when the loop started: git does not track them, so `git checkout` cannot",
                quoted(by_hand)
            ),
            Speech::Zh => format!(
                "把 {} 恢复为循环开始时的内容:git 未跟踪,`git checkout` 无法恢复",
                quoted(by_hand)
            ),
        });
    }
    if !outside.is_empty() {
        how.push(match lang {
            Speech::En => format!(
                "for {} outside the project, undo only what you did there yourself (if the user made that change, it is theirs: leave it and ask them)",
                quoted(outside)
            ),
            Speech::Zh => format!(
                "对于项目之外的 {},只撤销你自己在那里做的修改(如果是用户做的修改,那属于用户:不要动它,请询问用户)",
                quoted(outside)
            ),
        });
    }
    how.join(if lang == Speech::Zh { " 和 " } else { " and " })
}

/// What `loopgate verify` says of the agent's new test files that sat out its run (see `crate::testswap`).
pub(crate) fn sat_out(lang: Speech, files: &[String]) -> String {
    let list = files.join(", ");
    match lang {
        Speech::En => format!(
            "Not in this run: {} new test file(s) sat out, so they cannot change the verdict on the sealed tests (run them yourself to see them): {list}",
            files.len()
        ),
        Speech::Zh => format!(
            "未参与本次运行:{} 个新测试文件被暂时移开,因此不会影响对受保护测试的判定(请自行运行它们查看结果):{list}",
            files.len()
        ),
    }
}

/// The briefing's paragraph on what else is sealed (empty without a verify command).
/// `closure`: how many files of the closure exist, and how many it names in all (absent ones must stay absent).
/// `tests`: how many test files and tests are sealed.
pub(crate) fn briefing(
    lang: Speech,
    opt_out: &[Check],
    closure: (usize, usize),
    tests: (usize, usize),
    has_verify: bool,
) -> String {
    if !has_verify {
        return String::new();
    }
    let on = |check| !opt_out.contains(&check);
    let mut parts = Vec::new();
    let (existing, named) = closure;
    if on(Check::Closure) && named > 0 {
        parts.push(match (lang, existing) {
            (Speech::En, 0) => {
                "the configuration files the verify command's test runner would read (none exist: do not create them)"
                    .to_string()
            }
            (Speech::En, n) => format!(
                "the {n} file(s) that define what the verify command runs (its scripts and the test runner's configuration; `loopgate status` lists them)"
            ),
            (Speech::Zh, 0) => "验证命令的测试运行器会读取的配置文件(目前都不存在:不要创建它们)".to_string(),
            (Speech::Zh, n) => {
                format!("定义验证命令实际运行内容的 {n} 个文件(脚本和测试运行器配置;`loopgate status` 会列出)")
            }
        });
    }
    let (test_files, test_count) = tests;
    if test_files == 0 {
        // No existing test to protect.
    } else if on(Check::Tests) {
        parts.push(match lang {
            Speech::En => format!(
                "the {test_count} existing test(s) in {test_files} file(s) (add new tests freely; do not edit, skip or delete existing ones)"
            ),
            Speech::Zh => format!("{test_files} 个文件中已有的 {test_count} 个测试(可以随意添加新测试;不要修改、跳过或删除已有测试)"),
        });
    } else if on(Check::Skips) {
        parts.push(match lang {
            Speech::En => "no skip / ignore / xfail / only markers may be added and no test deleted".into(),
            Speech::Zh => "不得添加 skip / ignore / xfail / only 标记,也不得删除测试".into(),
        });
    }
    if on(Check::Counts) {
        parts.push(match lang {
            Speech::En => "the number of tests run (a pass that runs fewer tests or skips more is rejected)".into(),
            Speech::Zh => "运行的测试数量(运行更少测试或跳过更多测试的通过会被拒绝)".into(),
        });
    }
    if on(Check::TestAwareness) {
        parts.push(match lang {
            Speech::En => "the code's independence from its tests (new code may not check whether a test runs it, nor read the test files)".into(),
            Speech::Zh => "代码与测试的独立性(新代码不得检查自己是否在测试中运行,也不得读取测试文件)".into(),
        });
    }
    if parts.is_empty() {
        return String::new();
    }
    match lang {
        Speech::En => format!("\nAlso sealed: {}.", parts.join("; ")),
        Speech::Zh => format!("\n同样受保护:{}。", parts.join(";")),
    }
}

fn quoted(paths: &[&str]) -> String {
    paths.iter().map(|p| format!("`{p}`")).collect::<Vec<_>>().join(", ")
}

/// The one-line result for the user: `2 sealed input(s) changed`.
pub(crate) fn result(lang: Speech, count: usize) -> String {
    match lang {
        Speech::En => format!("{count} sealed input(s) of the oracle changed"),
        Speech::Zh => format!("{count} 项受保护的验证输入被修改"),
    }
}

/// Why the guard refuses an edit of a partly sealed file; `tracked`: git can restore it.
pub(crate) fn edit_denied(lang: Speech, path: &str, moved: &[String], tracked: bool) -> String {
    let list = moved.join("; ");
    match (lang, tracked) {
        (Speech::En, true) => format!(
            "loopgate: this edit would change what is sealed in `{path}`: {list}. The rest of the file is yours to change; to undo an earlier change, run `git checkout -- {path}`."
        ),
        (Speech::En, false) => format!(
            "loopgate: this edit would change what is sealed in `{path}`: {list}. The rest of the file is yours to change; git does not track it, so to undo an earlier change put the sealed part back as it was when the loop started."
        ),
        (Speech::Zh, true) => format!(
            "loopgate:此修改会改变 `{path}` 中受保护的内容:{list}。文件的其余部分可以修改;要撤销之前的修改,运行 `git checkout -- {path}`。"
        ),
        (Speech::Zh, false) => format!(
            "loopgate:此修改会改变 `{path}` 中受保护的内容:{list}。文件的其余部分可以修改;git 未跟踪该文件,要撤销之前的修改,请把受保护的部分恢复为循环开始时的内容。"
        ),
    }
}
