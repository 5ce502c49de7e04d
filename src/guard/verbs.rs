//! Write-ish verbs whose arguments need more than "every operand is a target": copies (destination only),
//! `sed -i`, `curl -o`, `git rm|mv|clean|stash -u`, and `find -delete|-exec`.

use std::path::Path;
use std::rc::Rc;

use super::finding::Finding;
use super::paths;
use super::shell::Analyzer;
use super::words::{Arg, Getopt, State, literal, operands};

impl Analyzer<'_, '_> {
    /// `cp SRC… DEST`, `cp -t DEST SRC…`, `mv SRC… DEST`: only the destination is written (sources too for
    /// `mv` and `rsync --remove-source-files`). Into an existing directory, what is written is `DEST/NAME` for
    /// each source, not the directory: `cp out.txt ~/` does not touch `~/.claude` beside it.
    pub(super) fn copy(&self, args: &[Arg], st: &State, short_t: bool, mv: bool) -> Option<Finding> {
        let mut dest = None;
        let mut ops = Vec::new();
        let mut moves = mv;
        let mut words = Getopt::new(args.get(1..).unwrap_or_default());
        while let Some((a, text)) = words.next_option(&mut ops) {
            if text == "--target-directory" || (short_t && text == "-t") {
                dest = words.value().cloned();
            } else if text.starts_with("--target-directory=") {
                dest = Some(a.skip("--target-directory=".len()));
            } else if short_t && text.starts_with("-t") {
                dest = Some(a.skip(2));
            } else if text == "--remove-source-files" {
                moves = true;
            }
        }
        let dest = dest.or_else(|| ops.pop());
        let into = dest.as_ref().and_then(|d| self.copied_into_dir(d, &ops, st));
        let written = match into {
            Some(each) => each
                .iter()
                .find_map(|p| self.scope.hit_path(p, &st.cwd))
                .map(Finding::Hit),
            None => self.targets(&dest.into_iter().collect::<Vec<_>>(), st),
        };
        written.or_else(|| if moves { self.targets(&ops, st) } else { None })
    }

    /// The paths a copy into the existing directory `dest` writes (`dest/NAME` per source), when every word is
    /// plain (no variable, glob or brace) and every source has a name; `None` to judge `dest` itself.
    fn copied_into_dir(&self, dest: &Arg, sources: &[Arg], st: &State) -> Option<Vec<std::path::PathBuf>> {
        let plain = |a: &Arg| !a.unknown && !super::pattern::has_glob(&a.chars) && !a.chars.contains(&('{', true));
        if !plain(dest) || sources.is_empty() || !sources.iter().all(plain) {
            return None;
        }
        let dir = paths::lexical(&paths::absolute(Path::new(&dest.text()), &st.cwd));
        if !std::fs::metadata(paths::resolve(&dir)).is_ok_and(|m| m.is_dir()) {
            return None;
        }
        // `rsync -a src/ dest/` and `cp -r src/. dest` copy the *contents*: judged as writes to `dest` itself.
        let name = |text: String| {
            let whole = !(text.ends_with('/') || text.ends_with("/.") || text == ".");
            whole.then(|| Path::new(&text).file_name().map(std::ffi::OsStr::to_os_string))?
        };
        sources.iter().map(|a| Some(dir.join(name(a.text())?))).collect()
    }

    /// `sed -i[SUFFIX] SCRIPT FILE…` / `sed -i -e SCRIPT FILE…`.
    pub(super) fn sed(&self, args: &[Arg], st: &State) -> Option<Finding> {
        let (mut in_place, mut script_given) = (false, false);
        let mut pos = Vec::new();
        let mut words = Getopt::new(args.get(1..).unwrap_or_default());
        while let Some((_, text)) = words.next_option(&mut pos) {
            if text.starts_with("--") {
                in_place |= text.starts_with("--in-place");
                let valued = text == "--expression" || text == "--file";
                script_given |= valued || text.starts_with("--expression=") || text.starts_with("--file=");
                if valued {
                    words.value();
                }
                continue;
            }
            for (k, ch) in text.char_indices().skip(1) {
                match ch {
                    'i' => in_place = true,
                    'e' | 'f' | 'l' => {
                        script_given |= ch != 'l';
                        if k + 1 == text.len() {
                            words.value();
                        }
                    }
                    _ => continue,
                }
                break;
            }
        }
        if !in_place {
            return None;
        }
        let files = if script_given {
            &pos[..]
        } else {
            pos.get(1..).unwrap_or_default()
        };
        self.targets(files, st)
    }

    /// `curl -o FILE`, `wget -O FILE`, `sort -o FILE`.
    pub(super) fn option_targets(&self, args: &[Arg], flags: &[&str], st: &State) -> Option<Finding> {
        let mut outs = Vec::new();
        for (i, a) in args.iter().enumerate().skip(1) {
            let text = a.text();
            for flag in flags {
                if text == *flag {
                    outs.extend(args.get(i + 1).cloned());
                } else if flag.starts_with("--") && text.starts_with(&format!("{flag}=")) {
                    outs.push(a.skip(flag.len() + 1));
                } else if let Some(letter) = flag
                    .strip_prefix('-')
                    .filter(|l| l.len() == 1 && !text.starts_with("--"))
                {
                    // `-o FILE`, `-oFILE`, and clusters such as `-sSo FILE`.
                    if let Some(k) = text.strip_prefix('-').and_then(|t| t.find(letter)) {
                        let value = k + 2;
                        if value < text.len() {
                            outs.push(a.skip(value))
                        } else {
                            outs.extend(args.get(i + 1).cloned())
                        }
                    }
                }
            }
        }
        self.targets(&outs, st)
    }

    /// `git rm|mv PATH…`, `git clean` (its pathspecs or the current directory), `git stash -u|-a`.
    /// Restores (`git checkout -- F`, `git restore F`) are allowed: they undo edits to sealed files.
    pub(super) fn git(&self, args: &[Arg], st: &State) -> Option<Finding> {
        let mut st = st.clone();
        let mut i = 1;
        while let Some(text) = args.get(i).map(Arg::text).filter(|t| t.starts_with('-')) {
            if text == "-C" {
                let dir = args.get(i + 1).map(Arg::text).unwrap_or_default();
                st.cwd = paths::lexical(&paths::absolute(Path::new(&dir), &st.cwd));
            }
            if matches!(text.as_str(), "-C" | "-c" | "--git-dir" | "--work-tree" | "--namespace") {
                i += 1;
            }
            i += 1;
        }
        let sub = args.get(i).map(Arg::text).unwrap_or_default();
        let rest = args.get(i + 1..).unwrap_or_default();
        let short = |letters: &str| {
            rest.iter()
                .map(Arg::text)
                .any(|t| t.starts_with('-') && !t.starts_with("--") && t.chars().any(|c| letters.contains(c)))
        };
        let long = |names: &[&str]| rest.iter().map(Arg::text).any(|t| names.contains(&t.as_str()));
        let here = || vec![literal(".")];
        match sub.as_str() {
            "rm" | "mv" => self.targets(&operands(rest), &st),
            "clean" if !short("n") && !long(&["--dry-run"]) => {
                let mut skip_next = false;
                let specs: Vec<Arg> = rest
                    .iter()
                    .filter(|a| {
                        let text = a.text();
                        let keep = !skip_next && !text.starts_with('-');
                        skip_next = matches!(text.as_str(), "-e" | "--exclude");
                        keep
                    })
                    .cloned()
                    .collect();
                self.targets(&if specs.is_empty() { here() } else { specs }, &st)
            }
            "stash" if short("ua") || long(&["--include-untracked", "--all"]) => self.targets(&here(), &st),
            _ => None,
        }
    }

    /// `find ROOT… [-name PAT] (-delete | -exec CMD {} ;)`: the roots are targets, filtered by `-name`.
    pub(super) fn find(&self, args: &[Arg], st: &State, depth: usize) -> Option<Finding> {
        let mut i = 1;
        while args
            .get(i)
            .is_some_and(|a| matches!(a.text().as_str(), "-H" | "-L" | "-P") || a.text().starts_with("-O"))
        {
            i += 1;
        }
        let mut roots = Vec::new();
        while let Some(a) = args.get(i).filter(|a| !a.text().starts_with(['-', '(', ')', '!'])) {
            roots.push(a.clone());
            i += 1;
        }
        if roots.is_empty() {
            roots.push(literal("."));
        }
        let (mut names, mut delete, mut execs) = (Vec::new(), false, Vec::new());
        while let Some(a) = args.get(i) {
            match a.text().as_str() {
                "-name" | "-iname" => {
                    let pat = args.get(i + 1).map(Arg::text).unwrap_or_default();
                    let pat = if a.text() == "-iname" { pat.to_lowercase() } else { pat };
                    names.push(pat.chars().map(|c| (c, true)).collect());
                    i += 1;
                }
                "-delete" => delete = true,
                "-exec" | "-execdir" | "-ok" | "-okdir" => {
                    let end = args[i + 1..]
                        .iter()
                        .position(|a| matches!(a.text().as_str(), ";" | "+"));
                    let end = end.map_or(args.len(), |e| i + 1 + e);
                    execs.push(&args[i + 1..end]);
                    i = end;
                }
                _ => {}
            }
            i += 1;
        }
        let mut st = st.clone();
        if !names.is_empty() {
            st.names = Some(Rc::new(names));
        }
        if delete && let Some(f) = self.targets(&roots, &st) {
            return Some(f);
        }
        for exec in execs {
            for root in &roots {
                let root_text = root.text();
                let sub: Vec<Arg> = exec
                    .iter()
                    .map(|a| {
                        if a.text().contains("{}") {
                            literal(&a.text().replace("{}", &root_text))
                        } else {
                            a.clone()
                        }
                    })
                    .collect();
                if let Some(f) = self.run(&sub, None, &mut st.clone(), depth + 1) {
                    return Some(f);
                }
            }
        }
        None
    }
}
