//! Reading strace's output (`-f -y`, one line per syscall, `PID name(args) = result`) into what happened to
//! which path.
//!
//! Only the shape strace prints for the syscalls [`super::Tracer`] asks for is read; anything else is
//! skipped, never an error (a line cut by a killed process, a syscall this module does not know). Paths come
//! out absolute and lexically normalized (`.` and `..` folded, symlinks not resolved: what the process asked
//! for is what a later file at that path would answer). A relative path resolves against the directory file
//! descriptor printed before it (`openat(12</p/tests>, "x")`, `AT_FDCWD</p>`), else against the process's
//! working directory, followed through `chdir` and inherited over `clone`/`fork`.

use std::collections::{HashMap, HashSet};
use std::path::{Component, Path, PathBuf};

/// What a process did with a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Access {
    /// Opened for reading (a file's content was an input).
    Read,
    /// Ran as a program.
    Executed,
    /// Looked for and not there (`ENOENT`): a file created there later would be found.
    Missing,
    /// A program looked for and not there (`execve` → `ENOENT`, the shell trying each `PATH` entry): a
    /// program created there later would run instead.
    MissingProgram,
    /// Its entries were read (a directory listed).
    Listed,
    /// Its existence or metadata was checked, content not read.
    Probed,
    /// Created, written, renamed, removed or had its mode changed: an output of the run, not an input.
    Wrote,
}

impl Access {
    /// Whether it met only a name — its existence, its metadata, a directory's entries — and no file's content.
    pub(crate) fn looks_only(self) -> bool {
        matches!(
            self,
            Access::Probed | Access::Listed | Access::Missing | Access::MissingProgram
        )
    }
}

/// One path a traced process touched, and how.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Event {
    pub(crate) access: Access,
    pub(crate) path: PathBuf,
}

/// The events of a whole trace, in the order strace wrote them; `cwd` is where the traced command started.
/// `skip`: processes whose events are left out (a step's, judged by what it fed the rest: `oracle::steps`).
/// `by_output`: the programs judged by what they output, not by what they read (cargo's build scripts:
/// `closure::observed::judged_by_output`): what such a process, or one it started, touched below `cwd` is left
/// out but for what it wrote, so a file only they read is no input of the run's own.
pub(crate) fn events(trace: &str, cwd: &Path, skip: &HashSet<u32>, by_output: fn(&Path) -> bool) -> Vec<Event> {
    let mut reader = Reader::new(cwd, None);
    reader.skip = skip.clone();
    reader.by_output = Some(by_output);
    reader.read(trace).out
}

/// What each process of a trace did, for telling the run's steps apart (`oracle::steps`): which process started
/// which, what each ran, when each ended, and every path each touched. Read from a trace of
/// [`super::Tracer::steps`] (exit lines, whole strings).
#[derive(Debug, Default)]
pub(crate) struct Processes {
    /// The process the trace began with (the verify's shell): the one process with no parent in it.
    pub(crate) first: Option<u32>,
    /// Each process's (or thread's) parent, from the `clone` / `fork` / `vfork` results.
    pub(crate) parents: HashMap<u32, u32>,
    /// The line at which each process's parent started it (the `clone` / `fork` / `vfork` result).
    pub(crate) born: HashMap<u32, usize>,
    /// Each program run: the line it ran at, the process, its argument vector (`None`: not read whole).
    pub(crate) execs: Vec<(usize, u32, Option<Vec<String>>)>,
    /// The line at which each process ended (`+++ exited …`, `+++ killed …`).
    pub(crate) ends: HashMap<u32, usize>,
    /// Every path each process touched: the line, the process, how, the path; an opened file under both the name
    /// asked for and the file it reached (after links).
    pub(crate) touched: Vec<(usize, u32, Access, PathBuf)>,
    /// The directories each process made (`mkdir`): a path written only so is a directory, not content.
    pub(crate) made_dirs: Vec<(u32, PathBuf)>,
    /// Processes that wrote into another's memory (`process_vm_writev`).
    pub(crate) wrote_memory: Vec<u32>,
    /// The first line that could not be read as a process's line (a cut or forged trace), if any.
    pub(crate) unreadable: Option<String>,
}

/// The processes of a whole trace (see [`Processes`]); `cwd` is where the traced command started.
pub(crate) fn processes(trace: &str, cwd: &Path) -> Processes {
    read(trace, cwd, Some(Processes::default())).procs.unwrap_or_default()
}

fn read(trace: &str, cwd: &Path, procs: Option<Processes>) -> Reader {
    Reader::new(cwd, procs).read(trace)
}

struct Reader {
    /// Kept per process when asked for ([`processes`]).
    procs: Option<Processes>,
    /// The line being read, and its process.
    line_no: usize,
    pid: u32,
    /// Each process's working directory, as last seen.
    cwds: HashMap<u32, PathBuf>,
    /// The first half of a syscall another process interrupted (`<unfinished ...>`).
    pending: HashMap<u32, String>,
    start: PathBuf,
    out: Vec<Event>,
    /// Processes whose events are not put in `out`.
    skip: HashSet<u32>,
    /// The programs whose processes' events below `start` are not put in `out` but for their writes (see
    /// [`events`]), and the processes running one (or started by one).
    by_output: Option<fn(&Path) -> bool>,
    judged_by_output: HashSet<u32>,
}

impl Reader {
    fn new(cwd: &Path, procs: Option<Processes>) -> Reader {
        Reader {
            cwds: HashMap::new(),
            pending: HashMap::new(),
            start: cwd.to_path_buf(),
            out: Vec::new(),
            skip: HashSet::new(),
            by_output: None,
            judged_by_output: HashSet::new(),
            procs,
            line_no: 0,
            pid: 0,
        }
    }

    fn read(mut self, trace: &str) -> Reader {
        for (no, line) in trace.lines().enumerate() {
            self.line_no = no;
            self.line(line);
        }
        self
    }

    fn line(&mut self, line: &str) {
        let parsed = line
            .split_once(' ')
            .and_then(|(pid, rest)| Some((pid.parse::<u32>().ok()?, rest)))
            .filter(|_| !line.contains('\0'));
        let Some((pid, rest)) = parsed else {
            if let Some(procs) = self
                .procs
                .as_mut()
                .filter(|p| p.unreadable.is_none() && !line.is_empty())
            {
                procs.unreadable = Some(line.chars().take(200).collect());
            }
            return;
        };
        let rest = rest.trim_start();
        self.pid = pid;
        if let Some(procs) = self.procs.as_mut() {
            procs.first.get_or_insert(pid);
            if rest.starts_with("+++ exited") || rest.starts_with("+++ killed") {
                procs.ends.insert(pid, self.line_no);
                return;
            }
        }
        if let Some(first) = rest.strip_suffix(" <unfinished ...>") {
            self.pending.insert(pid, first.to_string());
            return;
        }
        let whole;
        let call = if let Some(resumed) = rest.strip_prefix("<... ") {
            let Some((_, tail)) = resumed.split_once(" resumed>") else {
                return;
            };
            let Some(first) = self.pending.remove(&pid) else { return };
            whole = format!("{first}{tail}");
            whole.as_str()
        } else {
            rest
        };
        if let Some(syscall) = Syscall::parse(call) {
            self.syscall(pid, &syscall);
        }
    }

    fn cwd(&self, pid: u32) -> PathBuf {
        self.cwds.get(&pid).cloned().unwrap_or_else(|| self.start.clone())
    }

    fn syscall(&mut self, pid: u32, call: &Syscall) {
        // Every `AT_FDCWD</dir>` shows the process's working directory.
        if let Some(dir) = call
            .args
            .iter()
            .find_map(|a| a.strip_prefix("AT_FDCWD<").and_then(|cwd| cwd.strip_suffix('>')))
        {
            self.cwds.insert(pid, PathBuf::from(unescape(dir)));
        }
        let ok = !call.result.starts_with('-') && !call.result.starts_with('?');
        let missing = call.result.contains(" ENOENT ");
        match call.name {
            "clone" | "clone3" | "fork" | "vfork" => {
                if let Ok(child) = call.result.split('<').next().unwrap_or("").trim().parse::<u32>() {
                    let cwd = self.cwd(pid);
                    self.cwds.insert(child, cwd);
                    if self.judged_by_output.contains(&pid) {
                        self.judged_by_output.insert(child);
                    }
                    if let Some(procs) = self.procs.as_mut() {
                        procs.parents.insert(child, pid);
                        procs.born.insert(child, self.line_no);
                    }
                }
            }
            "chdir" if ok => {
                if let Some(path) = self.paths(pid, call).into_iter().next() {
                    self.cwds.insert(pid, path);
                }
            }
            "process_vm_writev" => {
                if let Some(procs) = self.procs.as_mut() {
                    procs.wrote_memory.push(pid);
                }
            }
            "getdents64" | "getdents" => {
                if let Some(dir) = call.args.first().and_then(|a| fd_path(a)) {
                    self.push(Access::Listed, dir);
                }
            }
            "open" | "openat" | "openat2" | "creat" => {
                let writes = call.name == "creat"
                    || call.args.iter().any(|a| {
                        ["O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC"]
                            .iter()
                            .any(|f| a.contains(f))
                    });
                let directory = call.args.iter().any(|a| a.contains("O_DIRECTORY"));
                // An unnamed temporary file in a directory writes nothing at the path named.
                if call.args.iter().any(|a| a.contains("O_TMPFILE")) {
                    return;
                }
                let access = match (ok, missing, writes) {
                    (true, _, true) => Access::Wrote,
                    (true, _, false) if directory => return,
                    (true, _, false) => Access::Read,
                    (false, true, _) => Access::Missing,
                    (false, false, _) => return,
                };
                // A successful open prints the file it reached: the path after symlinks.
                let reached = (access == Access::Read).then(|| fd_path(call.result)).flatten();
                if self.procs.is_some()
                    && let Some(reached) = fd_path(call.result)
                {
                    self.touch(access, reached);
                }
                for path in self.paths(pid, call).into_iter().take(1) {
                    self.touch(access, path.clone());
                    self.push(access, reached.clone().unwrap_or(path));
                }
            }
            "execve" | "execveat" => {
                if ok && let Some(procs) = self.procs.as_mut() {
                    let at = usize::from(call.name == "execveat");
                    procs
                        .execs
                        .push((self.line_no, pid, call.args.get(at + 1).and_then(|a| argv(a))));
                }
                let access = match (ok, missing) {
                    (true, _) => Access::Executed,
                    (false, true) => Access::MissingProgram,
                    (false, false) => return,
                };
                for path in self.paths(pid, call).into_iter().take(1) {
                    if ok && self.by_output.is_some_and(|judged| judged(&path)) {
                        self.judged_by_output.insert(pid);
                    }
                    self.push(access, path);
                }
            }
            "stat" | "lstat" | "newfstatat" | "fstatat64" | "statx" | "access" | "faccessat" | "faccessat2"
            | "readlink" | "readlinkat" => {
                let access = match (ok, missing) {
                    (true, _) => Access::Probed,
                    (false, true) => Access::Missing,
                    (false, false) => return,
                };
                for path in self.paths(pid, call).into_iter().take(1) {
                    self.push(access, path);
                }
            }
            "mkdir" | "mkdirat" if ok && self.procs.is_some() => {
                for path in self.paths(pid, call) {
                    if let Some(procs) = self.procs.as_mut() {
                        procs.made_dirs.push((pid, path.clone()));
                    }
                    self.push(Access::Wrote, path);
                }
            }
            "mkdir" | "mkdirat" | "rmdir" | "unlink" | "unlinkat" | "rename" | "renameat" | "renameat2" | "link"
            | "linkat" | "chmod" | "fchmodat" | "truncate" | "utimensat" | "mknod" | "mknodat" | "chown" | "lchown"
            | "fchownat"
                if ok =>
            {
                for path in self.paths(pid, call) {
                    self.push(Access::Wrote, path);
                }
            }
            "symlink" | "symlinkat" if ok => {
                // The first string is the link's target (its content), not a path touched.
                for path in self.paths(pid, call).into_iter().skip(1) {
                    self.push(Access::Wrote, path);
                }
            }
            _ => {}
        }
    }

    /// The path arguments of a call, absolute: each string resolved against the directory descriptor before
    /// it, else the working directory.
    fn paths(&self, pid: u32, call: &Syscall) -> Vec<PathBuf> {
        let mut base: Option<PathBuf> = None;
        let mut paths = Vec::new();
        for arg in &call.args {
            if let Some(dir) = fd_path(arg) {
                base = Some(dir);
            } else if arg.starts_with('"') {
                let text = unescape(
                    arg.trim_start_matches('"')
                        .trim_end_matches("...")
                        .trim_end_matches('"'),
                );
                if text.is_empty() {
                    base = None;
                    continue;
                }
                let path = Path::new(&text);
                let absolute = if path.is_absolute() {
                    path.to_path_buf()
                } else {
                    base.take().unwrap_or_else(|| self.cwd(pid)).join(path)
                };
                paths.push(normalize(&absolute));
                base = None;
            }
        }
        paths
    }

    fn push(&mut self, access: Access, path: PathBuf) {
        if self.procs.is_some() {
            self.touch(access, path.clone());
        }
        let by_output =
            access != Access::Wrote && self.judged_by_output.contains(&self.pid) && path.starts_with(&self.start);
        if !self.skip.contains(&self.pid) && !by_output {
            self.out.push(Event { access, path });
        }
    }

    /// Records that the process of the current line touched `path` (when processes are kept).
    fn touch(&mut self, access: Access, path: PathBuf) {
        if let Some(procs) = self.procs.as_mut() {
            procs.touched.push((self.line_no, self.pid, access, path));
        }
    }
}

/// A syscall line split into its name, its top-level arguments and its result (`0`, `3</p/x>`, `-1 ENOENT
/// (No such file or directory)`).
struct Syscall<'a> {
    name: &'a str,
    args: Vec<&'a str>,
    result: &'a str,
}

impl<'a> Syscall<'a> {
    fn parse(text: &'a str) -> Option<Syscall<'a>> {
        let open = text.find('(')?;
        let name = &text[..open];
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return None;
        }
        let mut args = Vec::new();
        let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
        let mut start = open + 1;
        let mut close = None;
        for (i, c) in text.char_indices().skip_while(|&(i, _)| i <= open) {
            if in_string {
                match c {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    '"' => in_string = false,
                    _ => {}
                }
                continue;
            }
            match c {
                '"' => in_string = true,
                '{' | '[' | '(' => depth += 1,
                '}' | ']' if depth > 0 => depth -= 1,
                ')' if depth > 0 => depth -= 1,
                ')' => {
                    close = Some(i);
                    break;
                }
                ',' if depth == 0 => {
                    args.push(text[start..i].trim());
                    start = i + 1;
                }
                _ => {}
            }
        }
        let close = close?;
        let last = text[start..close].trim();
        if !last.is_empty() {
            args.push(last);
        }
        let result = text[close + 1..].trim_start().strip_prefix('=')?.trim();
        Some(Syscall { name, args, result })
    }
}

/// An argument vector as strace prints it (`["sh", "-c", "node --check a.js"]`); `None` where a string or the
/// array was cut short (`"…"...`, a trailing `...`).
fn argv(text: &str) -> Option<Vec<String>> {
    let inner = text.strip_prefix('[')?.strip_suffix(']')?;
    let mut words = Vec::new();
    let mut rest = inner.trim_start();
    while !rest.is_empty() {
        let body = rest.strip_prefix('"')?;
        let mut escaped = false;
        let end = body.char_indices().find_map(|(i, c)| {
            let found = !escaped && c == '"';
            escaped = !escaped && c == '\\';
            found.then_some(i)
        })?;
        words.push(unescape(&body[..end]));
        rest = body[end + 1..].trim_start();
        if rest.starts_with("...") {
            return None;
        }
        rest = rest.strip_prefix(',').map_or(rest, str::trim_start);
    }
    Some(words)
}

/// The path of a file descriptor as `-y` prints it: `12</p/tests>`, `AT_FDCWD</p>`, a result `3</p/x>`.
fn fd_path(text: &str) -> Option<PathBuf> {
    let (fd, rest) = text.split_once('<')?;
    let valid_fd = fd == "AT_FDCWD" || (!fd.is_empty() && fd.bytes().all(|b| b.is_ascii_digit()));
    let path = rest.strip_suffix('>')?;
    (valid_fd && path.starts_with('/')).then(|| PathBuf::from(unescape(path)))
}

/// Undoes strace's C-style escapes (`\"`, `\\`, `\n`, `\t`, `\xNN`); bytes that are not UTF-8 are replaced.
fn unescape(text: &str) -> String {
    if !text.contains('\\') {
        return text.to_string();
    }
    let mut bytes = Vec::with_capacity(text.len());
    let mut chars = text.bytes().peekable();
    while let Some(b) = chars.next() {
        if b != b'\\' {
            bytes.push(b);
            continue;
        }
        match chars.next() {
            Some(b'n') => bytes.push(b'\n'),
            Some(b't') => bytes.push(b'\t'),
            Some(b'x') => {
                let hex: Vec<u8> = (0..2).filter_map(|_| chars.next()).collect();
                let value = std::str::from_utf8(&hex)
                    .ok()
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                bytes.push(value.unwrap_or(b'?'));
            }
            Some(other) => bytes.push(other),
            None => bytes.push(b'\\'),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Folds `.` and `..` without touching the file system.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

#[cfg(test)]
mod tests;
