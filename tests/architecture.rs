//! The module graph has no circle across top-level modules (`ARCHITECTURE.md`, "Layers").
//!
//! Every file of the library is read from the module tree that `src/lib.rs` declares; each `crate::…` path in
//! non-test code (a `use`, a path in an expression or a type, a group `crate::{a, b::c}`) is an edge from the
//! file's top-level module to the one the path names. Test code is left out: a `#[cfg(test)]` module — a file
//! declared with `#[cfg(test)] mod x;`, everything under it, and a `#[cfg(test)] mod x { … }` block to the end of
//! its file — may use any layer, as an integration test does. Comments are left out too (a doc link is not a
//! dependency).
//!
//! The test fails with every circle it finds, each printed as `a → b → … → a` with the files behind each edge,
//! so the edge to cut is named.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Edges between top-level modules: `from → to → files of `from` that name `to``.
type Graph = BTreeMap<String, BTreeMap<String, BTreeSet<String>>>;

#[test]
fn no_import_circle_among_top_level_modules() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = graph(&src);
    assert!(graph.len() > 20, "the module walk found only {} modules", graph.len());
    let circles = circles(&graph);
    let shown: Vec<String> = circles.iter().map(|c| describe(c, &graph)).collect();
    assert!(
        circles.is_empty(),
        "{} import circle(s) among top-level modules (a module below must not name one above; move the shared type \
         into a schema module such as `schema`, or the rendering into `messages`):\n\n{}",
        circles.len(),
        shown.join("\n\n")
    );
}

#[test]
fn the_schema_imports_no_behaviour() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = graph(&src);
    let names = &graph["schema"];
    assert!(
        names.is_empty(),
        "`schema` holds the persisted vocabulary every layer shares, so it may name no other module: {names:?}"
    );
}

#[test]
fn the_walk_sees_a_circle_when_there_is_one() {
    let mut graph = Graph::new();
    for (from, to) in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")] {
        graph
            .entry(from.into())
            .or_default()
            .entry(to.into())
            .or_default()
            .insert(format!("{from}.rs"));
    }
    graph.entry("d".into()).or_default();
    let circles = circles(&graph);
    assert_eq!(circles.len(), 1);
    assert_eq!(describe(&circles[0], &graph).lines().next(), Some("a → b → c → a"));
    assert_eq!(
        crate_paths("use crate::{a::X, b, c::{d, e}};\nlet x = crate::d::f(); // crate::z\n"),
        ["a", "b", "c", "d"]
    );
}

/// Walks the module tree from `src/lib.rs` and collects the edges of its non-test code.
fn graph(src: &Path) -> Graph {
    let mut graph = Graph::new();
    let text = read(&src.join("lib.rs"));
    for child in children(&text) {
        let Some(file) = module_file(src, &child.name) else {
            continue;
        };
        if !child.test {
            walk(&file, &src.join(&child.name), &child.name, src, &mut graph);
        }
    }
    graph
}

fn walk(file: &Path, dir: &Path, top: &str, src: &Path, graph: &mut Graph) {
    let text = read(file);
    let text = without_test_block(&text);
    let edges = graph.entry(top.to_string()).or_default();
    for to in crate_paths(text) {
        if to != top && !["self", "super"].contains(&to.as_str()) {
            let shown = file.strip_prefix(src).unwrap_or(file).display().to_string();
            edges.entry(to).or_default().insert(shown);
        }
    }
    for child in children(text) {
        if child.test {
            continue;
        }
        if let Some(path) = module_file(dir, &child.name) {
            walk(&path, &dir.join(&child.name), top, src, graph);
        }
    }
}

struct Child {
    name: String,
    test: bool,
}

/// The `mod name;` declarations of a file, and whether each is under `#[cfg(test)]`.
fn children(text: &str) -> Vec<Child> {
    let mut out = Vec::new();
    let mut test = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with("#[cfg(test)]") {
            test = true;
            continue;
        }
        if line.starts_with("#[") || line.starts_with("//") {
            continue;
        }
        let decl = line
            .strip_prefix("pub(crate) ")
            .or_else(|| line.strip_prefix("pub(super) "))
            .or_else(|| line.strip_prefix("pub "))
            .unwrap_or(line);
        if let Some(name) = decl.strip_prefix("mod ").and_then(|rest| rest.strip_suffix(';')) {
            out.push(Child {
                name: name.trim().to_string(),
                test,
            });
        }
        test = false;
    }
    out
}

/// `dir/name.rs` or `dir/name/mod.rs`.
fn module_file(dir: &Path, name: &str) -> Option<PathBuf> {
    [dir.join(format!("{name}.rs")), dir.join(name).join("mod.rs")]
        .into_iter()
        .find(|p| p.is_file())
}

/// The file up to an inline `#[cfg(test)] mod … {` block (by convention the last item of a file).
fn without_test_block(text: &str) -> &str {
    let mut offset = 0;
    let mut lines = text.split_inclusive('\n').peekable();
    while let Some(line) = lines.next() {
        if line.trim() == "#[cfg(test)]"
            && lines
                .peek()
                .is_some_and(|next| next.trim_start().starts_with("mod ") && next.trim_end().ends_with('{'))
        {
            return &text[..offset];
        }
        offset += line.len();
    }
    text
}

/// The top-level modules named by `crate::…` paths outside comments, in order of first appearance.
fn crate_paths(text: &str) -> Vec<String> {
    let code: String = text
        .lines()
        .map(|line| match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n");
    let mut out: Vec<String> = Vec::new();
    let mut push = |name: &str| {
        if !name.is_empty() && !out.iter().any(|n| n == name) {
            out.push(name.to_string());
        }
    };
    let mut rest = code.as_str();
    while let Some(i) = rest.find("crate::") {
        let preceded = rest[..i]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '_');
        rest = &rest[i + "crate::".len()..];
        if preceded {
            continue; // `loopgate_crate::…` or the like
        }
        if let Some(group) = rest.strip_prefix('{') {
            let mut depth = 1;
            let mut start = 0;
            for (j, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' | ',' if depth == 1 => {
                        push(ident(&group[start..j]));
                        start = j + 1;
                        if c == '}' {
                            break;
                        }
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
        } else {
            push(ident(rest));
        }
    }
    out
}

fn ident(text: &str) -> &str {
    let text = text.trim_start();
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// The strongly connected components of more than one module (Tarjan), each as one cycle through all of them.
fn circles(graph: &Graph) -> Vec<Vec<String>> {
    struct Tarjan<'g> {
        graph: &'g Graph,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        components: Vec<Vec<&'g str>>,
    }
    impl<'g> Tarjan<'g> {
        fn visit(&mut self, v: &'g str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.graph.get(v).into_iter().flat_map(BTreeMap::keys) {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v, low);
                } else if self.on_stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                self.components.push(component);
            }
        }
    }
    let mut t = Tarjan {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        components: Vec::new(),
    };
    for v in graph.keys() {
        if !t.index.contains_key(v.as_str()) {
            t.visit(v);
        }
    }
    t.components
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|c| cycle_through(graph, &c.into_iter().collect()))
        .collect()
}

/// A cycle inside one strongly connected component, from its first module back to it (breadth-first, so short).
fn cycle_through(graph: &Graph, component: &BTreeSet<&str>) -> Vec<String> {
    let start = *component.iter().next().expect("a component is never empty");
    let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(v) = queue.pop_front() {
        for w in graph.get(v).into_iter().flat_map(BTreeMap::keys) {
            let w = w.as_str();
            if w == start {
                let mut back = vec![];
                let mut at = v;
                while at != start {
                    back.push(at.to_string());
                    at = came_from[at];
                }
                back.reverse();
                return std::iter::once(start.to_string())
                    .chain(back)
                    .chain([start.to_string()])
                    .collect();
            }
            if component.contains(w) && !came_from.contains_key(w) && w != start {
                came_from.insert(w, v);
                queue.push_back(w);
            }
        }
    }
    unreachable!("a strongly connected component of two or more modules has a cycle through its first")
}

fn describe(cycle: &[String], graph: &Graph) -> String {
    let mut text = cycle.join(" → ");
    for pair in cycle.windows(2) {
        let files: Vec<&str> = graph[&pair[0]][&pair[1]].iter().map(String::as_str).collect();
        text.push_str(&format!("\n  {} → {}: {}", pair[0], pair[1], files.join(", ")));
    }
    text
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("failed to read `{}`: {e}", path.display()))
}
