//! What loopgate says about the oracle's room (see `crate::room`), in English and Chinese: setup's line.

use crate::room::caches::Why;
use crate::room::report::Problem;
use crate::room::{Described, TreeState};
use crate::schema::Speech;

/// Setup's line: where the oracle runs, what is private, what stays the user's and why.
pub(crate) fn at_setup(lang: Speech, room: Option<&Described>) -> String {
    let Some(room) = room else {
        return match lang {
            Speech::En => "The oracle runs in the environment of the process that runs it, with the shared caches (`LOOPGATE_ROOM=0`).".to_string(),
            Speech::Zh => "oracle 在调用它的进程的环境中运行,使用共享缓存(`LOOPGATE_ROOM=0`)。".to_string(),
        };
    };
    let private = room.private.join(", ");
    let dir = room.dir.display();
    let shared: Vec<String> = room
        .shared
        .iter()
        .map(|s| format!("{} ({})", s.var, why(&s.why)))
        .collect();
    let (n, secrets) = (room.recorded, room.secrets);
    let (mut line, left, stop) = match lang {
        Speech::En => (
            format!(
                "The oracle runs with private caches ({private}) in `{dir}`, kept for this loop, and with the environment recorded now ({n} variables; {secrets} secrets by name only, their values taken when it runs)."
            ),
            " Left to the user: ",
            ".",
        ),
        Speech::Zh => (
            format!(
                "oracle 使用私有缓存({private},位于 `{dir}`,在本循环内保留)和此刻记录的环境运行({n} 个变量;{secrets} 个机密只记名字,运行时取值)。"
            ),
            "仍使用用户的:",
            "。",
        ),
    };
    if !shared.is_empty() {
        line.push_str(&format!("{left}{}{stop}", shared.join(", ")));
    }
    for words in room.reports.iter().filter_map(|key| super::report_words(key)) {
        line.push_str(match lang {
            Speech::En => words.en,
            Speech::Zh => words.zh,
        });
    }
    if let Some(who) = &room.hook_report {
        line.push_str(&match lang {
            Speech::En => format!(
                " A pass must also hold in the per-test results loopgate's start hook records from {who} to a private path."
            ),
            Speech::Zh => format!("通过还必须与 loopgate 的启动钩子从 {who} 记录到私有路径的逐测试结果一致。"),
        });
    }
    line.push(' ');
    line.push_str(&tree(lang, room.tree.as_ref()));
    if room.scratch {
        line.push_str(match lang {
            Speech::En => {
                " What it writes in $HOME and /tmp (its TMPDIR too) is its own, and thrown away after each run."
            }
            Speech::Zh => "它在 $HOME 和 /tmp(包括它的 TMPDIR)中写入的内容只属于它自己,每次运行后丢弃。",
        });
    }
    line
}

/// Why a cache stays the user's, in one clause (setup's line and `status`, in English).
pub(crate) fn why(why: &Why) -> String {
    super::WHY_WORDS
        .iter()
        .find_map(|words| words(why))
        .unwrap_or_else(|| why.kind.clone())
}

/// Why a run that exited 0 is no pass by the report of `who` (`pytest`, or the runners whose events loopgate's
/// start hook recorded: `unittest`, `mocha`); the note the model and the user read.
pub(crate) fn report_problem(lang: Speech, problem: &Problem, who: &str) -> String {
    match (problem, lang) {
        (Problem::Missing, Speech::En) => format!(
            "{who} wrote no report: the run ended before {who} finished (a process that exits on its own is no pass)"
        ),
        (Problem::Missing, Speech::Zh) => {
            format!("{who} 没有写出报告:运行在 {who} 结束之前就终止了(自行退出的进程不算通过)")
        }
        (Problem::CutShort, Speech::En) => format!(
            "{who}'s report is cut short: the run ended while {who} was still running its tests or writing it (a process that exits on its own is no pass)"
        ),
        (Problem::CutShort, Speech::Zh) => {
            format!("{who} 的报告不完整:运行在 {who} 仍在运行测试或写报告时终止了(自行退出的进程不算通过)")
        }
        (Problem::Failed(n), Speech::En) => format!("the run exited 0, but {who}'s report holds {n} failed test(s)"),
        (Problem::Failed(n), Speech::Zh) => format!("运行以 0 退出,但 {who} 的报告中有 {n} 个失败的测试"),
        (Problem::Unreported(names), Speech::En) => format!(
            "the output says these tests passed, but {who}'s report does not: {}",
            listed(names)
        ),
        (Problem::Unreported(names), Speech::Zh) => {
            format!("输出声称这些测试通过了,但 {who} 的报告中没有:{}", listed(names))
        }
        (Problem::NoTests, Speech::En) => format!(
            "{who}'s report names no test: the run ran none of the tests the baseline ran (a run narrowed to nothing is no pass)"
        ),
        (Problem::NoTests, Speech::Zh) => {
            format!("{who} 的报告中没有任何测试:这次运行没有运行基线运行过的测试(缩小到空的运行不算通过)")
        }
        (Problem::Forged(why), Speech::En) => format!(
            "{who}'s record holds what its start hook did not send ({why}): a process of the run wrote into loopgate's record of the tests (no pass)"
        ),
        (Problem::Forged(why), Speech::Zh) => {
            format!(
                "{who} 的记录中有其启动钩子没有发送的内容({why}):运行中的某个进程写入了 loopgate 的测试记录(不算通过)"
            )
        }
    }
}

/// Why a run that exited 0 is no pass by the report the verify command writes itself (`--report junit:PATH`),
/// at `path` (project-relative).
pub(crate) fn own_report_problem(lang: Speech, problem: &Problem, path: &str) -> String {
    match (problem, lang) {
        (Problem::Missing, Speech::En) => format!(
            "the run exited 0 but wrote no JUnit report at `{path}` (`--report`): the verdict reads the tests from it, so the runner must write it on every run"
        ),
        (Problem::Missing, Speech::Zh) => {
            format!(
                "运行以 0 退出,但没有在 `{path}` 写出 JUnit 报告(`--report`):判定从该报告读取测试,运行器每次都必须写出它"
            )
        }
        (Problem::CutShort, Speech::En) => format!(
            "the JUnit report at `{path}` (`--report`) is cut short: the run ended while it was being written (a process that exits on its own is no pass)"
        ),
        (Problem::CutShort, Speech::Zh) => {
            format!("`{path}` 的 JUnit 报告(`--report`)不完整:运行在写报告时终止了(自行退出的进程不算通过)")
        }
        (Problem::Failed(n), Speech::En) => {
            format!("the run exited 0, but the JUnit report at `{path}` (`--report`) holds {n} failed test(s)")
        }
        (Problem::Failed(n), Speech::Zh) => {
            format!("运行以 0 退出,但 `{path}` 的 JUnit 报告(`--report`)中有 {n} 个失败的测试")
        }
        (Problem::Unreported(names), Speech::En) => format!(
            "these tests passed by the output, but the JUnit report at `{path}` (`--report`) does not hold them as passed: {}",
            listed(names)
        ),
        (Problem::Unreported(names), Speech::Zh) => {
            format!(
                "这些测试按输出通过了,但 `{path}` 的 JUnit 报告(`--report`)中没有记为通过:{}",
                listed(names)
            )
        }
        (Problem::NoTests, Speech::En) => format!("the JUnit report at `{path}` (`--report`) names no test"),
        (Problem::NoTests, Speech::Zh) => format!("`{path}` 的 JUnit 报告(`--report`)中没有任何测试"),
        // A JUnit file the command writes has no hook behind it: nothing there is signed.
        (Problem::Forged(_), Speech::En) => format!("the JUnit report at `{path}` (`--report`) cannot be read"),
        (Problem::Forged(_), Speech::Zh) => format!("无法读取 `{path}` 的 JUnit 报告(`--report`)"),
    }
}

/// The baseline run's report (`--report junit:PATH`) named no test: missing, cut short or empty.
pub(crate) fn own_report_unread(lang: Speech, path: &str) -> String {
    match lang {
        Speech::En => format!(
            "The baseline run wrote no readable JUnit report at `{path}` (`--report`), so no test is known by name yet: check that the verify command writes it there (relative to the project); the first verify that does becomes the baseline."
        ),
        Speech::Zh => format!(
            "基线运行没有在 `{path}` 写出可读的 JUnit 报告(`--report`),因此还没有按名称记录任何测试:请确认验证命令把报告写在那里(相对于项目);第一次写出报告的验证将成为基线。"
        ),
    }
}

/// The first names of a list, in backticks.
fn listed(names: &[String]) -> String {
    names
        .iter()
        .take(10)
        .map(|n| format!("`{n}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Test-side modules the run loaded from another place than the baseline did (see `closure::resolved`): each
/// named with both places, and the undo.
pub(crate) fn redirected(lang: Speech, redirects: &[crate::closure::resolved::Redirect]) -> String {
    const SHOWN: usize = 5;
    let items: Vec<String> = redirects
        .iter()
        .take(SHOWN)
        .map(|r| {
            let name = r.name.split_once(':').map_or(r.name.as_str(), |(_, n)| n);
            match lang {
                Speech::En => format!("`{name}` from `{}` (at the baseline: `{}`)", r.now, r.was),
                Speech::Zh => format!("`{name}` 从 `{}` 加载(基线时:`{}`)", r.now, r.was),
            }
        })
        .collect();
    let more = redirects.len().saturating_sub(SHOWN);
    let list = items.join("; ");
    match lang {
        Speech::En => format!(
            "the run loaded the test side from other places than the baseline did: {list}{}. The tests' own dependencies (the runner, its plugins, the assertion libraries) are the user's: take out what sends them elsewhere (a copy, a path put first, a redirect in a manifest or a configuration file) so they load from where they did at the baseline, and change the code under test instead",
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        ),
        Speech::Zh => format!(
            "本次运行从与基线不同的位置加载了测试侧的模块:{list}{}。测试自身的依赖(测试运行器、其插件、断言库)属于用户:请去掉把它们引向别处的东西(副本、被放到前面的路径、清单或配置文件中的重定向),让它们从基线时的位置加载,改为修改被测试的代码",
            if more > 0 {
                format!(",另有 {more} 个")
            } else {
                String::new()
            }
        ),
    }
}

/// What a failed run adds when places outside the project were covered for it (see `room::outside` and
/// `room::snapshot::absent`): what was added there since setup did not reach the run.
pub(crate) fn covered_outside(lang: Speech, paths: &[String]) -> String {
    let list = paths.join(", ");
    let places = super::outside_places(lang);
    match lang {
        Speech::En => format!(
            "Not seen by the oracle's run, outside the project: {list}. What was added since setup to the places a runner reads on its own ({places}), or where the baseline looked and found nothing, is hidden from the oracle's run; put what it does in the code under test instead."
        ),
        Speech::Zh => format!(
            "oracle 的运行看不到项目之外的:{list}。setup 之后在运行器会自动读取的位置({places})或基线查找过却不存在的位置中新增的内容对 oracle 的运行不可见;请把它们的作用放进被测代码。"
        ),
    }
}

/// What a failed run adds when the room's tree left new files out (see `room::tree`): the model must know its
/// new file was not in the run, and why.
pub(crate) fn left_out(lang: Speech, files: &[String]) -> String {
    let list = files.join(", ");
    match lang {
        Speech::En => format!(
            "Not in the oracle's run: {list}. New files that a test runner loads on its own (a conftest.py, __init__.py or runner configuration above the sealed tests, a sitecustomize.py, a .pth, a __mocks__ file) are left out of the oracle's tree when they did not exist at setup; put what they do in the code under test instead."
        ),
        Speech::Zh => format!(
            "未参与 oracle 的运行:{list}。测试运行器会自动加载的新文件(受保护测试之上的 conftest.py、__init__.py 或运行器配置、sitecustomize.py、.pth、__mocks__ 文件)若在 setup 时不存在,就不会进入 oracle 的目录树;请把它们的作用放进被测代码。"
        ),
    }
}

/// Where the oracle's runs stand, for setup's line and `status` (see `room::tree`).
pub(crate) fn tree(lang: Speech, tree: Option<&TreeState>) -> String {
    match (lang, tree) {
        (Speech::En, Some(TreeState::Mounted)) => "It runs in a private copy of the project mounted at the project's own path: the code as it stands at each stop, the tests as sealed (read-only), no build outputs or caches of the tree, the installed dependencies the user's; new files a runner would load on its own stay out, and so does what was added since setup to the places outside the project that runners read on their own (a user site-packages, ~/.npmrc).".to_string(),
        (Speech::Zh, Some(TreeState::Mounted)) => "它在挂载到项目原路径上的项目私有副本中运行:每次停止时的代码、封存时的测试(只读)、不含目录树中的构建产物和缓存、已安装的依赖沿用用户的;运行器会自动加载的新文件不会进入,setup 之后在项目之外运行器会自动读取的位置(用户 site-packages、~/.npmrc)中新增的内容也不会进入。".to_string(),
        (Speech::En, Some(TreeState::Copied { why })) => format!("It runs in a private copy of the project at the copy's own path, not mounted at the project's ({why}): the code as it stands at each stop, the tests as sealed, no build outputs or caches of the tree, the installed dependencies the user's (linked in); new files a runner would load on its own stay out. The run starts in the copy, variables that named the project name the copy, and the sandbox keeps its writes off the project; a test that names the project's absolute path fails at the baseline too, so it is not held."),
        (Speech::Zh, Some(TreeState::Copied { why })) => format!("它在项目私有副本自己的路径中运行,而不是挂载到项目原路径上({why}):每次停止时的代码、封存时的测试、不含目录树中的构建产物和缓存、已安装的依赖沿用用户的(以链接接入);运行器会自动加载的新文件不会进入。运行从副本中开始,指向项目的变量改为指向副本,沙箱使它无法写入项目;写死项目绝对路径的测试在基线时同样失败,因此不被要求通过。"),
        (Speech::En, Some(TreeState::Fallback { why })) => format!("It runs in the project's own tree, not a private copy: {why}."),
        (Speech::Zh, Some(TreeState::Fallback { why })) => format!("它在项目自己的目录树中运行,而不是私有副本:{why}。"),
        (Speech::En, None) => "It runs in the project's own tree (set up before the room had a tree).".to_string(),
        (Speech::Zh, None) => "它在项目自己的目录树中运行(在 room 拥有目录树之前设置)。".to_string(),
    }
}
