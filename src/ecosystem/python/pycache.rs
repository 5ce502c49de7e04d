//! Python's bytecode in the room: compiled once at setup from the sources the baseline loaded, never read from
//! a `__pycache__`.
//!
//! The room points `PYTHONPYCACHEPREFIX` at a cache of its own (`room::caches`), so that no bytecode the agent's
//! code could have written beside a source is ever loaded. The prefix is all or nothing: with it Python also
//! stops reading the `__pycache__` that an installation ships beside the standard library and site-packages, and
//! recompiles every module it imports at every run where it cannot write (`PYTHONDONTWRITEBYTECODE=1`, common in
//! containers and CI images). Measured on a one-test pytest project: the oracle's run took 0.92 s of CPU against
//! the bare command's 0.24 s, most of it in CPython's parser.
//!
//! So after the baseline's run, [`seed`] has the interpreters the run executed compile, into the room's prefix,
//! the sources whose bytecode Python looked for there — exactly the names the traced run asked for (its
//! `Missing` events under the prefix), nothing guessed. Compiled, never copied: a bytecode file beside a source is
//! trusted by nobody here (Python's own check is the source's size and time, which a planted file can claim; an
//! unchecked-hash file is not checked at all), and an earlier loop's agent could have left one anywhere. The
//! compile runs each interpreter isolated (`-I -S`: no site, no `.pth`, no `sitecustomize`, no variables) on
//! `py_compile` alone, so no code of the project or its dependencies runs; an interpreter inside the project is
//! not used. At setup every source is still the user's, the project's among them (a `.venv` inside it: pytest's
//! own hundred modules). A file compiled here from a source outside the project is used by a later run only while
//! its source has the size and time it had at setup — the room presents outside sources as they were
//! (`room::snapshot`, which keeps their times). The project's own sources are the agent's to change, and a change
//! can keep both: Python keeps the time in whole seconds, so a fix of the same length (`a - b` → `a + b`) written
//! within the second the baseline compiled it ran the baseline's code, and an honest fix was rejected. So they are
//! compiled checked by hash (PEP 552's `CHECKED_HASH`: Python hashes the source at each import, and compiles it
//! afresh where it moved), over what the baseline's own run wrote for them. The files live in the room's pycache, which
//! later runs see only as the read-only lower layer of a per-run overlay (`confine::mount::private`): nothing a
//! run of the agent's code writes there reaches a later run.
//!
//! The sources outside the project are the same for every loop on the machine (the standard library, pytest, a
//! venv's packages), so [`seed`] also compiles them, the same way, into a seed in loopgate's store, and each new
//! room starts from it ([`from_seed`]), checked by the source's hash: a later setup's baseline no longer compiles
//! them. Where Python writes its
//! bytecode, the baseline's run compiled every one of them into the room's empty prefix: about 0.7 s of a
//! one-test pytest setup's CPU. Nothing a run wrote is ever copied into the seed.

use std::io;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::room::caches::Seeding;
use crate::trace::{Access, Event};

/// The seeds' folder of Python under loopgate's seeds directory: one prefix per interpreter binary, laid out as
/// `PYTHONPYCACHEPREFIX` lays one out, holding the bytecode of sources outside every project that a baseline
/// loaded.
const PLACE: &str = "python";

/// The file in an interpreter's seed that names the binary it was compiled by.
const NAMED: &str = ".interpreter";

/// Starts the room's empty prefix from the seeds (a `room::caches` seed rule, before the baseline): every file of
/// a seed whose source still stands, from the seeds whose interpreter still stands as it was. Each is checked by
/// hash (PEP 552): Python uses one only while its source's content hashes to what its header names, and compiles
/// the rest as before.
///
/// **Why a seed can be trusted**: what fills it is [`seed`]'s compile, after a baseline, by an isolated
/// interpreter binary outside the project over `py_compile` alone, from the sources themselves: no run's output is
/// ever copied into it, and it lives in loopgate's store, out of every agent's reach. A seed is keyed by its
/// interpreter's content, as Go's is by `go`'s: one an interpreter the agent replaced filled (outside the project,
/// where its world may write) is read only while that same binary stands, never once it is repaired. So a room
/// that starts from the seeds trusts nothing a run of the code under test wrote, as a room that starts empty does;
/// what it saves is the baseline compiling the standard library and every dependency it imports (1.5× less CPU
/// for a one-test pytest setup, BENCHMARKS.md).
pub(crate) fn from_seed(at: &Seeding) -> io::Result<()> {
    let Ok(seeds) = std::fs::read_dir(at.seeds.join(PLACE)) else {
        return Ok(());
    };
    for seed in seeds.flatten() {
        let tree = seed.path();
        let Ok(named) = std::fs::read_to_string(tree.join(NAMED)) else {
            continue;
        };
        if key(Path::new(&named)).is_none_or(|key| *key != *seed.file_name().to_string_lossy()) {
            continue;
        }
        let stands = |file: &Path| Wanted::of(&tree, file).is_some_and(|w| w.source.is_file());
        crate::fsutil::copy_tree(&tree, at.into, &stands)?;
    }
    Ok(())
}

/// An interpreter binary's seed key: a hash of its content; none for what is not an ELF binary (a shim, a script
/// that runs one, says nothing by its content of the interpreter it runs).
fn key(interpreter: &Path) -> Option<String> {
    let mut file = std::fs::File::open(interpreter).ok()?;
    let mut magic = [0u8; 4];
    io::Read::read_exact(&mut file, &mut magic).ok()?;
    if magic != *b"\x7fELF" {
        return None;
    }
    let digest = crate::fsutil::sha256_hex(std::fs::File::open(interpreter).ok()?).ok()?;
    Some(digest[..24].to_string())
}

/// After the baseline: grows the seed of each interpreter binary the run executed (see [`from_seed`]) with the
/// sources outside the project whose bytecode the traced run looked for in `prefix` (the room's
/// `PYTHONPYCACHEPREFIX`) and did not find, then fills the room's prefix: those from the seeds, the project's own
/// sources compiled checked by hash, the rest compiled by the interpreters the run executed (each compiles the
/// files of its own cache tag). Best effort: what is not compiled here Python compiles in each run, as before.
pub(crate) fn seed(prefix: &Path, events: &[Event], root: &Path, seeds: &Path) {
    let roots = [root.to_path_buf(), crate::plane::resolve(root)];
    let outside = |path: &Path| !roots.iter().any(|r| path.starts_with(r));
    let mut wanted: Vec<Wanted> = events
        .iter()
        .filter(|e| e.access == Access::Missing)
        .filter_map(|e| Wanted::of(prefix, &e.path))
        .map(|w| Wanted {
            by_hash: !outside(&w.source),
            ..w
        })
        .filter(|w| w.source.is_file())
        .collect();
    wanted.sort_by(|a, b| a.bytecode.cmp(&b.bytecode));
    wanted.dedup_by(|a, b| a.bytecode == b.bytecode);
    if wanted.is_empty() {
        return;
    }
    let interpreters: Vec<PathBuf> = interpreters(events).into_iter().filter(|i| outside(i)).collect();
    // loopgate's own sources (the room's start hooks) are each room's, so they are compiled for it alone.
    let store = crate::project::loopgate_home();
    let below = |w: &Wanted| {
        let below = w.bytecode.strip_prefix(prefix).ok()?;
        (!w.by_hash && !w.source.starts_with(&store)).then(|| below.to_path_buf())
    };
    let trees: Vec<(&PathBuf, PathBuf)> = interpreters
        .iter()
        .filter_map(|i| Some((i, seeds.join(PLACE).join(key(i)?))))
        .collect();
    for (interpreter, tree) in &trees {
        // Checked by hash: a seed outlives the loop, and a source's size and time can be kept by an edit (or
        // change between the compile's look at them and its read); its content cannot.
        let list: String = wanted
            .iter()
            .filter_map(|w| Some((w, tree.join(below(w)?))))
            .filter(|(_, seeded)| !seeded.exists())
            .filter_map(|(w, seeded)| {
                Wanted {
                    bytecode: seeded,
                    by_hash: true,
                    ..w.clone()
                }
                .line()
            })
            .collect();
        if list.is_empty() {
            continue;
        }
        let named = std::fs::create_dir_all(tree).and_then(|()| {
            crate::fsutil::write_atomic(&tree.join(NAMED), interpreter.as_os_str().as_encoded_bytes(), 0o600)
        });
        if named.is_ok() {
            compile(interpreter, &list);
        }
    }
    for w in wanted.iter().filter(|w| !w.by_hash && !w.bytecode.exists()) {
        let Some(below) = below(w) else { continue };
        if let Some(seeded) = trees.iter().map(|(_, tree)| tree.join(&below)).find(|s| s.is_file()) {
            let _ = std::fs::create_dir_all(w.bytecode.parent().unwrap_or(prefix));
            let _ = std::fs::copy(seeded, &w.bytecode);
        }
    }
    let list: String = wanted
        .iter()
        .filter(|w| w.by_hash || !w.bytecode.exists())
        .filter_map(Wanted::line)
        .collect();
    if !list.is_empty() {
        for interpreter in &interpreters {
            compile(interpreter, &list);
        }
    }
}

/// `events` with each read of a bytecode file in the room's prefix standing as a read of its source. Python loaded
/// the source through it (the file's header names the source's size and time, which Python checked), so for what
/// the baseline read — what the snapshot holds by content, the observed closure, which pytest ran — the source
/// was read, and the prefix is loopgate's own. A room started from the seed reads the standard library's and every
/// dependency's bytecode there and only looks at their sources: without this, its baseline would read none of
/// them and the snapshot would hold none (and a `_pytest` read in two places names no version).
pub(crate) fn with_sources_read(prefix: &Path, events: Vec<Event>) -> Vec<Event> {
    events
        .into_iter()
        .map(|event| match Wanted::of(prefix, &event.path) {
            Some(w) if event.access == Access::Read => Event {
                access: Access::Read,
                path: w.source,
            },
            _ => event,
        })
        .collect()
}

/// The source the bytecode file `in_prefix`, in the run's pycache prefix `prefix`, stands for.
pub(crate) fn source_of(prefix: &Path, in_prefix: &Path) -> Option<PathBuf> {
    Wanted::of(prefix, in_prefix).map(|wanted| wanted.source)
}

/// A bytecode file the run looked for in the prefix, and what it stands for.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Wanted {
    source: PathBuf,
    bytecode: PathBuf,
    /// `cpython-311`: the interpreter that wants it.
    tag: String,
    /// `opt-N`'s N, 0 without.
    optimize: u8,
    /// Checked by the source's hash rather than its time: a source of the project's, the agent's to change.
    by_hash: bool,
}

impl Wanted {
    /// `PREFIX/usr/lib/x/y.cpython-311.pyc` stands for `/usr/lib/x/y.py` (CPython's `cache_from_source` with a
    /// prefix: the source's absolute directory below the prefix, no `__pycache__`; a module's name has no dot).
    fn of(prefix: &Path, in_prefix: &Path) -> Option<Wanted> {
        let below = in_prefix.strip_prefix(prefix).ok()?;
        let name = below.file_name()?.to_str()?.strip_suffix(".pyc")?;
        let mut parts = name.split('.');
        let (stem, tag) = (parts.next()?, parts.next()?);
        let optimize = match parts.next() {
            None => 0,
            Some(level) => level.strip_prefix("opt-")?.parse().ok()?,
        };
        if parts.next().is_some() || stem.is_empty() {
            return None;
        }
        Some(Wanted {
            source: Path::new("/").join(below.parent()?).join(format!("{stem}.py")),
            bytecode: in_prefix.to_path_buf(),
            tag: tag.to_string(),
            optimize,
            by_hash: false,
        })
    }

    /// Its line of the compile list (tab-separated); none for a path a line cannot carry.
    fn line(&self) -> Option<String> {
        let (source, bytecode) = (self.source.to_str()?, self.bytecode.to_str()?);
        let plain = |s: &str| !s.contains(['\t', '\n', '\r']);
        let check = if self.by_hash { "hash" } else { "time" };
        (plain(source) && plain(bytecode))
            .then(|| format!("{}\t{}\t{check}\t{source}\t{bytecode}\n", self.tag, self.optimize))
    }
}

/// The Python interpreters the run executed, each once (a shim and the binary it ran both count: either
/// compiles as the binary would).
fn interpreters(events: &[Event]) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = events
        .iter()
        .filter(|e| e.access == Access::Executed)
        .filter(|e| e.path.file_name().and_then(|n| n.to_str()).is_some_and(is_python))
        .filter_map(|e| std::fs::canonicalize(&e.path).ok())
        .collect();
    found.sort();
    found.dedup();
    found
}

/// `python`, `python3`, `python3.11`: the names CPython installs itself under.
fn is_python(name: &str) -> bool {
    name.strip_prefix("python")
        .is_some_and(|v| v.chars().all(|c| c.is_ascii_digit() || c == '.'))
}

/// What each interpreter runs on the list: the lines of its own cache tag (a shim and the binary it runs share
/// one), compiled with the source's time in the header (the check Python makes by default) where none is compiled
/// yet, or checked by the source's hash (the project's sources, compiled again over what the baseline's run
/// wrote), a failure skipped.
const COMPILE: &str = r#"import os, sys, py_compile
tag = sys.implementation.cache_tag
done = set()
for line in sys.stdin:
    t, opt, check, src, dst = line.rstrip("\n").split("\t")
    if t != tag or dst in done or (check == "time" and os.path.exists(dst)):
        continue
    done.add(dst)
    try:
        mode = py_compile.PycInvalidationMode
        py_compile.compile(src, cfile=dst, doraise=True, optimize=int(opt),
                           invalidation_mode=mode.CHECKED_HASH if check == "hash" else mode.TIMESTAMP)
    except Exception:
        pass
"#;

/// The most a compile may take: a few hundred modules take about a second.
const COMPILE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// Runs `interpreter` on the list as every child of loopgate runs (`process::run`: its own group, stopped with
/// setup when setup is interrupted, cut at [`COMPILE_TIMEOUT`]).
fn compile(interpreter: &Path, list: &str) {
    let mut command = Command::new(interpreter);
    command.args(["-I", "-S", "-c", COMPILE]);
    let watch = crate::process::Watch {
        timeout: Some(COMPILE_TIMEOUT),
        kill_grace: crate::process::KILL_GRACE,
        keep_going: None,
    };
    let _ = crate::process::run(command, Some(list.as_bytes().to_vec()), watch, &mut |_| {});
}

/// Which of `read` — each a bytecode file in the run's prefix `prefix` as the run named it, where its bytes are
/// now (the run's own writes, kept past it), and the interpreter that read it — hold exactly the code its source
/// compiles to, asked where and as `request` runs the verify (the tree and the snapshot the run had). Each
/// interpreter compiles its files' sources itself and compares the code objects, which hold everything the
/// module runs; not the header, which Python checks against the source on its own (one that fails only makes
/// Python compile afresh). So bytecode a step wrote counts as what Python would have compiled from the source —
/// `compileall`, or a tool importing the standard library before the tests — while bytecode that says anything
/// else (a fix compiled into the code's bytecode, a patch into a library's) is content the step fed the run.
///
/// The check trusts nothing the run wrote: each interpreter runs isolated (`-I -S`: no site, no `.pth`, no
/// variables) and reads no bytecode at all (`-B` and a prefix no process can create, under `/proc/self`), so
/// the few modules it imports at start are compiled from their sources as presented to the run; it imports
/// nothing else. What it prints is marked with a line no file can know in advance, each file answered once. A
/// file it cannot read, compile or compare, an interpreter that does not answer, a path no word can carry:
/// not the source's.
pub(crate) fn compiled_from_sources(
    request: &crate::verify::VerifyRequest,
    prefix: &Path,
    read: &[(PathBuf, PathBuf, PathBuf)],
) -> Vec<bool> {
    let mut same = vec![false; read.len()];
    let mut interpreters: Vec<&PathBuf> = read.iter().map(|(_, _, interpreter)| interpreter).collect();
    interpreters.sort();
    interpreters.dedup();
    for interpreter in interpreters {
        let mut asked: Vec<usize> = Vec::new();
        let mut words = Vec::new();
        for (n, (named, bytes, _)) in read.iter().enumerate().filter(|(_, (_, _, i))| i == interpreter) {
            let Some(wanted) = Wanted::of(prefix, named) else {
                continue;
            };
            let (Some(bytes), Some(source)) = (bytes.to_str(), wanted.source.to_str()) else {
                continue;
            };
            asked.push(n);
            words.extend([
                crate::verify::sh_quote(bytes),
                crate::verify::sh_quote(source),
                wanted.optimize.to_string(),
            ]);
        }
        let (Some(binary), false) = (interpreter.to_str(), asked.is_empty()) else {
            continue;
        };
        let mark = crate::verify::unforeseeable_mark("bytecode");
        let command = format!(
            "exec {} -I -S -B -X pycache_prefix=/proc/self/loopgate-none -c {} {} {}",
            crate::verify::sh_quote(binary),
            crate::verify::sh_quote(COMPARE),
            crate::verify::sh_quote(&mark),
            words.join(" ")
        );
        let mut answers: Vec<(usize, bool)> = Vec::new();
        let ran = crate::verify::run_beside(request, &command, "bytecode", COMPILE_TIMEOUT, &mut |line| {
            let line = String::from_utf8_lossy(line);
            let Some((k, answer)) = line
                .trim_end()
                .strip_prefix(&mark)
                .and_then(|rest| rest.trim().split_once(' '))
            else {
                return;
            };
            if let Ok(k) = k.parse::<usize>() {
                answers.push((k, answer == "same"));
            }
        });
        // A check that did not end cleanly (killed, timed out, an interpreter that failed to start) vouches for
        // nothing it printed.
        if !ran.is_ok_and(|outcome| outcome.passed()) {
            continue;
        }
        for (k, n) in asked.iter().enumerate() {
            let mut mine = answers.iter().filter(|(at, _)| *at == k);
            same[*n] = matches!((mine.next(), mine.next()), (Some((_, true)), None));
        }
    }
    same
}

/// What [`compiled_from_sources`] runs: for each (bytecode, source, level) of its arguments after the mark, whether
/// the code in the bytecode (after its 16-byte header) is what compiling the source yields, as the import system
/// compiles it (`dont_inherit`, the level the file's name says). Code objects are compared field by field, down
/// through every nested one, rather than by `==`, which leaves out fields the module runs with (a function's
/// `__qualname__`, its stack size) and takes `0.0` for `-0.0`; only the file name is left out, which the import
/// system sets from where it found the source whatever the bytecode says (`compileall .` records `./calc.py`).
const COMPARE: &str = r#"import sys, marshal
mark, words = sys.argv[1], sys.argv[2:]
code = type(compile("", "", "exec"))
fields = ("co_argcount", "co_posonlyargcount", "co_kwonlyargcount", "co_nlocals", "co_stacksize", "co_flags",
          "co_code", "co_consts", "co_names", "co_varnames", "co_freevars", "co_cellvars", "co_name", "co_qualname",
          "co_firstlineno", "co_linetable", "co_exceptiontable")
def same(a, b):
    if type(a) is not type(b):
        return False
    if type(a) is code:
        return all(same(getattr(a, f, None), getattr(b, f, None)) for f in fields)
    if type(a) is tuple:
        return len(a) == len(b) and all(map(same, a, b))
    if type(a) in (float, complex, frozenset):
        return sorted(map(repr, a)) == sorted(map(repr, b)) if type(a) is frozenset else repr(a) == repr(b)
    return a == b
for k in range(len(words) // 3):
    pyc, src, level = words[3 * k], words[3 * k + 1], int(words[3 * k + 2])
    answer = False
    try:
        with open(pyc, "rb") as f:
            data = f.read()
        with open(src, "rb") as f:
            compiled = compile(f.read(), src, "exec", dont_inherit=True, optimize=level)
        answer = len(data) > 16 and same(marshal.loads(data[16:]), compiled)
    except BaseException:
        pass
    print(mark, k, "same" if answer else "differs", flush=True)
"#;

#[cfg(test)]
mod tests {
    use super::*;

    fn event(access: Access, path: &Path) -> Event {
        Event {
            access,
            path: path.to_path_buf(),
        }
    }

    #[test]
    fn a_prefix_path_names_its_source_tag_and_level() {
        let prefix = Path::new("/home/u/.loopgate/rooms/r/pycache");
        let wanted = Wanted::of(
            prefix,
            &prefix.join("usr/lib/python3.11/json/decoder.cpython-311.opt-2.pyc"),
        );
        assert_eq!(
            wanted,
            Some(Wanted {
                source: PathBuf::from("/usr/lib/python3.11/json/decoder.py"),
                bytecode: prefix.join("usr/lib/python3.11/json/decoder.cpython-311.opt-2.pyc"),
                tag: "cpython-311".into(),
                optimize: 2,
                by_hash: false,
            })
        );
        for not_bytecode in ["usr/lib/x.py", "usr/lib/x.pyc", "usr/lib/x.cpython-311.opt-a.pyc"] {
            assert_eq!(Wanted::of(prefix, &prefix.join(not_bytecode)), None, "{not_bytecode}");
        }
        assert_eq!(Wanted::of(prefix, Path::new("/elsewhere/x.cpython-311.pyc")), None);
        assert!(is_python("python3.11") && is_python("python") && !is_python("python-config"));
    }

    /// A bytecode file read from the prefix stands as a read of its source; one it only looked for, or one outside
    /// the prefix, stays as it was.
    #[test]
    fn bytecode_read_from_the_prefix_reads_its_source() {
        let prefix = Path::new("/store/rooms/r/pycache");
        let pyc = prefix.join("usr/lib/python3.11/json/decoder.cpython-311.pyc");
        let events = vec![
            event(Access::Read, &pyc),
            event(Access::Missing, &prefix.join("usr/lib/python3.11/x.cpython-311.pyc")),
            event(Access::Read, Path::new("/elsewhere/y.cpython-311.pyc")),
        ];
        let mut expected = events.clone();
        expected[0] = event(Access::Read, Path::new("/usr/lib/python3.11/json/decoder.py"));
        assert_eq!(with_sources_read(prefix, events), expected);
    }

    /// The interpreter compiles each source into the prefix; a bytecode file planted beside a source is never what
    /// lands in the room.
    #[test]
    fn sources_are_compiled_and_planted_bytecode_never_copied() {
        let Ok(python) = which("python3") else {
            panic!("this test needs python3 on PATH");
        };
        let dir = tempfile::tempdir().expect("tempdir");
        let prefix = dir.path().join("prefix");
        let [project, site] = ["p", "site"].map(|d| dir.path().join(d));
        for source_dir in [&project, &site] {
            std::fs::create_dir_all(source_dir.join("__pycache__")).expect("mkdir");
            std::fs::write(source_dir.join("m.py"), "X = 1\n").expect("write");
        }
        let name = format!("m.{}.pyc", cache_tag(&python));
        for source_dir in [&project, &site] {
            std::fs::write(source_dir.join("__pycache__").join(&name), "planted").expect("plant");
        }
        let in_prefix = |d: &Path| prefix.join(d.strip_prefix("/").expect("absolute")).join(&name);
        let events = [
            event(Access::Executed, &python),
            event(Access::Missing, &in_prefix(&site)),
            event(Access::Missing, &in_prefix(&project)),
        ];
        seed(&prefix, &events, &project, &dir.path().join("seeds"));
        for source_dir in [&project, &site] {
            let compiled = std::fs::read(in_prefix(source_dir)).expect("compiled");
            assert_ne!(compiled, b"planted", "compiled from the source, never copied");
            assert!(compiled.len() > 16, "a bytecode file: {compiled:?}");
        }
    }

    /// The sources outside the project grow the seed, compiled from the sources (never the bytecode a run wrote),
    /// and the next room starts from it; a project's source, and one that no longer stands, never reach it.
    #[test]
    fn the_seed_holds_outside_sources_and_starts_the_next_room() {
        let Ok(shim) = which("python3") else {
            panic!("this test needs python3 on PATH");
        };
        // The binary a `python3` on PATH runs (a pyenv shim runs one): the seed is its.
        let out = Command::new(&shim)
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .expect("python3 runs");
        let python = PathBuf::from(String::from_utf8_lossy(&out.stdout).trim())
            .canonicalize()
            .expect("the interpreter binary");
        let dir = tempfile::tempdir().expect("tempdir");
        let [seeds, first, next] = ["seeds", "first", "next"].map(|d| dir.path().join(d));
        let [project, site, gone, other] = ["p", "site", "gone", "other"].map(|d| dir.path().join(d));
        for source_dir in [&project, &site, &gone, &other] {
            std::fs::create_dir_all(source_dir).expect("mkdir");
            std::fs::write(source_dir.join("m.py"), "X = 1\n").expect("write");
        }
        let name = format!("m.{}.pyc", cache_tag(&python));
        let at = |prefix: &Path, d: &Path| prefix.join(d.strip_prefix("/").expect("absolute")).join(&name);
        let written = at(&first, &site);
        std::fs::create_dir_all(written.parent().expect("a parent")).expect("mkdir");
        std::fs::write(&written, "written by the run").expect("write");
        let events = [
            event(Access::Executed, &python),
            event(Access::Missing, &written),
            event(Access::Missing, &at(&first, &project)),
            event(Access::Missing, &at(&first, &gone)),
        ];
        seed(&first, &events, &project, &seeds);
        let tree = seeds.join(PLACE).join(key(&python).expect("an ELF binary"));
        let seeded = |d: &Path| at(&tree, d);
        let held = std::fs::read(seeded(&site)).expect("the seed holds the outside source");
        assert!(held.len() > 16 && held != b"written by the run", "compiled: {held:?}");
        assert_eq!(
            held[4..8],
            [3, 0, 0, 0],
            "checked by the source's hash (PEP 552's flags)"
        );
        assert!(
            !seeded(&project).exists(),
            "a project's source is the agent's: never seeded"
        );
        assert!(at(&first, &gone).is_file(), "the room had it from the seed");

        // A seed whose interpreter no longer hashes as its name says (replaced, then repaired) starts nothing.
        let stale = seeds.join(PLACE).join("0".repeat(24));
        std::fs::create_dir_all(at(&stale, &other).parent().expect("a parent")).expect("mkdir");
        std::fs::write(at(&stale, &other), &held).expect("write");
        std::fs::write(stale.join(NAMED), python.as_os_str().as_encoded_bytes()).expect("write");
        std::fs::remove_file(gone.join("m.py")).expect("remove");
        let vars = std::collections::BTreeMap::new();
        let seeding = Seeding {
            seeds: &seeds,
            root: &project,
            vars: &vars,
            into: &next,
        };
        from_seed(&seeding).expect("the seed is copied");
        assert_eq!(
            std::fs::read(at(&next, &site)).expect("the next room starts with it"),
            held
        );
        assert!(
            !at(&next, &gone).exists(),
            "a source that no longer stands starts nothing"
        );
        assert!(!at(&next, &project).exists());
        assert!(
            !at(&next, &other).exists(),
            "a seed of another interpreter's content starts nothing"
        );
    }

    /// A project's source is compiled checked by its hash, over the bytecode the baseline's run wrote for it: a
    /// fix of the same length written in the same second runs as the fix, never as the baseline's code.
    #[test]
    fn a_project_source_changed_in_the_same_second_and_length_runs_changed() {
        let Ok(python) = which("python3") else {
            panic!("this test needs python3 on PATH");
        };
        let dir = tempfile::tempdir().expect("tempdir");
        let prefix = dir.path().join("prefix");
        let project = dir.path().join("p");
        std::fs::create_dir_all(&project).expect("mkdir");
        let source = project.join("m.py");
        std::fs::write(&source, "X = 1 - 1\n").expect("write");
        let run = || {
            let out = Command::new(&python)
                .args(["-c", "import m; print(m.X)"])
                .current_dir(&project)
                .env("PYTHONPYCACHEPREFIX", &prefix)
                .env_remove("PYTHONDONTWRITEBYTECODE")
                .output()
                .expect("python3 runs");
            String::from_utf8_lossy(&out.stdout).trim().to_string()
        };
        // The baseline's run writes its own bytecode, stamped with the source's time.
        assert_eq!(run(), "0");
        let tag = std::fs::read_dir(prefix.join(project.strip_prefix("/").expect("absolute")))
            .expect("the run wrote bytecode")
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|e| e == "pyc"))
            .expect("m's bytecode");
        let events = [event(Access::Executed, &python), event(Access::Missing, &tag)];
        seed(&prefix, &events, &project, &dir.path().join("seeds"));
        let time = std::fs::metadata(&source).and_then(|m| m.modified()).expect("mtime");
        std::fs::write(&source, "X = 1 + 1\n").expect("fix");
        std::fs::File::options()
            .write(true)
            .open(&source)
            .and_then(|f| f.set_modified(time))
            .expect("same time");
        assert_eq!(run(), "2", "the fix runs, not the baseline's bytecode");
    }

    /// `cpython-311`: what the interpreter names its bytecode files by.
    fn cache_tag(python: &Path) -> String {
        let out = Command::new(python)
            .args(["-c", "import sys; print(sys.implementation.cache_tag)"])
            .output()
            .expect("python3 runs");
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    }

    fn which(program: &str) -> Result<PathBuf, ()> {
        let path = std::env::var_os("PATH").ok_or(())?;
        std::env::split_paths(&path)
            .map(|dir| dir.join(program))
            .find(|candidate| candidate.is_file())
            .ok_or(())
    }

    /// Bytecode compiled from its source counts as the source's; another source's code under its name, bytes that
    /// are no bytecode and an interpreter that cannot run do not. Needs `python3` on `PATH`.
    #[test]
    fn bytecode_is_its_sources_only_where_its_code_is_what_the_source_compiles_to() {
        let Ok(python) = which("python3") else {
            eprintln!("skipped: no python3 on PATH");
            return;
        };
        let dir = tempfile::tempdir().expect("tempdir");
        let prefix = dir.path().join("pycache");
        let src = dir.path().join("src");
        std::fs::create_dir_all(&src).expect("src");
        std::fs::write(src.join("calc.py"), "def add(a, b):\n    return a - b\n").expect("source");
        std::fs::write(src.join("fixed.py"), "def add(a, b):\n    return a + b\n").expect("fixed source");
        let named = prefix
            .join(src.strip_prefix("/").expect("absolute"))
            .join("calc.cpython-311.pyc");
        let kept = dir.path().join("kept");
        std::fs::create_dir_all(&kept).expect("kept");
        let compile = |from: &str, to: &Path| {
            let ok = Command::new(&python)
                .args([
                    "-I",
                    "-c",
                    "import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)",
                ])
                .arg(src.join(from))
                .arg(to)
                .status()
                .is_ok_and(|s| s.success());
            assert!(ok, "py_compile {from}");
        };
        let (own, forged, garbage) = (kept.join("own.pyc"), kept.join("forged.pyc"), kept.join("garbage.pyc"));
        compile("calc.py", &own);
        compile("fixed.py", &forged);
        std::fs::write(&garbage, b"not bytecode at all").expect("garbage");
        // The source's code under another file name (as `compileall .` records it) is the source's; the same
        // code with one nested field changed (a function's qualified name) is not.
        let (elsewhere, renamed) = (kept.join("elsewhere.pyc"), kept.join("renamed.pyc"));
        let rewrite = |how: &str, to: &Path| {
            let script = format!(
                "import importlib.util, marshal, sys\n\
                 c = compile(open(sys.argv[1], 'rb').read(), sys.argv[1], 'exec', dont_inherit=True)\n\
                 code = type(c)\n\
                 {how}\n\
                 open(sys.argv[2], 'wb').write(importlib.util.MAGIC_NUMBER + bytes(12) + marshal.dumps(c))"
            );
            let ok = Command::new(&python)
                .args(["-I", "-c", &script])
                .arg(src.join("calc.py"))
                .arg(to)
                .status()
                .is_ok_and(|s| s.success());
            assert!(ok, "rewrite {how}");
        };
        rewrite("c = c.replace(co_filename='./calc.py')", &elsewhere);
        rewrite(
            "c = c.replace(co_consts=tuple(k.replace(co_qualname='other') if type(k) is code else k for k in c.co_consts))",
            &renamed,
        );
        // An interpreter that answers and then fails vouches for nothing.
        let failing = dir.path().join("failing-python");
        std::fs::write(&failing, format!("#!/bin/sh\n'{}' \"$@\"\nexit 3\n", python.display())).expect("failing");
        std::fs::set_permissions(&failing, std::os::unix::fs::PermissionsExt::from_mode(0o755)).expect("chmod");
        let log = dir.path().join("verify.log");
        let request = crate::verify::VerifyRequest::plain("true", dir.path(), &log);
        let read = [
            (named.clone(), own.clone(), python.clone()),
            (named.clone(), forged, python.clone()),
            (named.clone(), garbage, python.clone()),
            (named.clone(), own.clone(), PathBuf::from("/nonexistent/python3")),
            (
                dir.path().join("elsewhere/calc.cpython-311.pyc"),
                own.clone(),
                python.clone(),
            ),
            (named.clone(), elsewhere, python.clone()),
            (named.clone(), renamed, python),
            (named.clone(), own, failing),
        ];
        assert_eq!(
            compiled_from_sources(&request, &prefix, &read),
            [true, false, false, false, false, true, false, false]
        );
    }
}
