//! What loopgate says about the oracle's room (see `crate::room`), in English and Chinese: setup's line.

use crate::room::Described;
use crate::room::caches::Why;
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
    match lang {
        Speech::En => {
            let mut line = format!(
                "The oracle runs with private caches ({private}) in `{dir}`, kept for this loop, and with the environment recorded now ({n} variables; {secrets} secrets by name only, their values taken when it runs)."
            );
            if !shared.is_empty() {
                line.push_str(&format!(" Left to the user: {}.", shared.join(", ")));
            }
            line
        }
        Speech::Zh => {
            let mut line = format!(
                "oracle 使用私有缓存({private},位于 `{dir}`,在本循环内保留)和此刻记录的环境运行({n} 个变量;{secrets} 个机密只记名字,运行时取值)。"
            );
            if !shared.is_empty() {
                line.push_str(&format!("仍使用用户的:{}。", shared.join(", ")));
            }
            line
        }
    }
}

/// Why a cache stays the user's, in one clause (setup's line and `status`, in English).
pub(crate) fn why(why: &Why) -> String {
    match why {
        Why::TargetDirConfigured { file } => format!("`{file}` sets `target-dir`"),
        Why::TargetNamedByPath { file } => format!("`{file}` names `target/` by path"),
        Why::PytestCacheOff => "the run turns pytest's cache provider off".to_string(),
    }
}
