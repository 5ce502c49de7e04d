use std::path::{Path, PathBuf};

use super::*;

/// A project at `<tmp>/w/p`, a "system" at `<tmp>/sys` (the standard library and the runner), and a home.
struct World {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    sys: PathBuf,
    home: PathBuf,
}

impl World {
    fn new() -> World {
        let tmp = tempfile::tempdir().expect("test world");
        let base = tmp.path().canonicalize().expect("test world");
        let w = World {
            root: base.join("w/p"),
            sys: base.join("sys"),
            home: base.join("home"),
            _tmp: tmp,
        };
        for (path, text) in [
            ("sys/lib/json/__init__.py", "real json"),
            ("sys/lib/json/decoder.py", "real decoder"),
            ("sys/site-packages/_pytest/__init__.py", ""),
            ("sys/site-packages/_pytest/python.py", "real runner"),
            ("w/p/calc.py", "def add(a, b): return a - b"),
            ("w/p/node_modules/expect/package.json", "{\"name\": \"expect\"}"),
            ("w/p/node_modules/expect/build/index.js", "real expect"),
            ("w/p/package.json", "{\"name\": \"calc\"}"),
            ("w/p/src/calc.js", "exports.add = (a, b) => a - b"),
        ] {
            w.write(&base, path, text);
        }
        w
    }

    fn write(&self, base: &Path, path: &str, text: &str) {
        let path = base.join(path);
        std::fs::create_dir_all(path.parent().expect("test world")).expect("test world");
        std::fs::write(path, text).expect("test world");
    }

    fn put(&self, path: &Path, text: &str) {
        std::fs::create_dir_all(path.parent().expect("test world")).expect("test world");
        std::fs::write(path, text).expect("test world");
    }

    fn reads(&self, paths: &[PathBuf]) -> Vec<Event> {
        paths
            .iter()
            .map(|p| Event {
                access: Access::Read,
                path: p.clone(),
            })
            .collect()
    }

    /// What a baseline run reads: the runner, the standard library, the code under test, `expect`.
    fn baseline_reads(&self) -> Vec<PathBuf> {
        vec![
            self.sys.join("site-packages/_pytest/__init__.py"),
            self.sys.join("site-packages/_pytest/python.py"),
            self.sys.join("lib/json/__init__.py"),
            self.sys.join("lib/json/decoder.py"),
            self.root.join("calc.py"),
            self.root.join("node_modules/expect/build/index.js"),
            self.root.join("src/calc.js"),
        ]
    }
}

#[test]
fn the_test_side_is_what_was_loaded_from_outside_the_project_or_its_tool_places() {
    let w = World::new();
    let side = test_side(&w.reads(&w.baseline_reads()), &w.root, None);
    let names: Vec<&str> = side.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(
        names,
        vec![
            "js:expect/build/index.js",
            "py:_pytest",
            "py:_pytest.python",
            "py:json",
            "py:json.decoder"
        ]
    );
    assert_eq!(side[0].path, "node_modules/expect/build/index.js");
}

#[test]
fn a_test_side_module_loaded_from_a_new_place_with_other_content_is_a_redirect() {
    let w = World::new();
    let baseline = test_side(&w.reads(&w.baseline_reads()), &w.root, None);
    // A weakened copy of the runner in the project, put first on the path; a vendored `expect` that the
    // package manager links in; a stand-in for `json` in a parent directory the run searched up to.
    w.put(&w.root.join("vendor/_pytest/__init__.py"), "");
    w.put(&w.root.join("vendor/_pytest/python.py"), "weak runner");
    w.put(&w.root.join("vendor/expect/package.json"), "{\"name\": \"expect\"}");
    w.put(&w.root.join("vendor/expect/build/index.js"), "weak expect");
    let parent = w.root.parent().expect("test world");
    w.put(&parent.join("lib/json/__init__.py"), "fake json");
    let mut reads = w.baseline_reads();
    reads[1] = w.root.join("vendor/_pytest/python.py");
    reads[5] = w.root.join("vendor/expect/build/index.js");
    reads[2] = parent.join("lib/json/__init__.py");
    reads.push(w.root.join("lib"));
    let found = redirects(&baseline, &w.reads(&reads), &w.root, None);
    let moved: Vec<(&str, &str)> = found.iter().map(|r| (r.name.as_str(), r.now.as_str())).collect();
    let json_now = parent.join("lib/json/__init__.py").to_string_lossy().into_owned();
    assert_eq!(
        moved,
        vec![
            ("js:expect/build/index.js", "vendor/expect/build/index.js"),
            ("py:_pytest.python", "vendor/_pytest/python.py"),
            ("py:json", json_now.as_str()),
        ]
    );
    assert!(
        found[1].was.ends_with("sys/site-packages/_pytest/python.py"),
        "{found:?}"
    );
}

#[test]
fn the_code_under_test_moving_a_new_module_an_identical_copy_and_the_users_home_are_free() {
    let w = World::new();
    let baseline = test_side(&w.reads(&w.baseline_reads()), &w.root, None);
    // `calc.py` turned into a package; a new dependency of the code; `expect` hoisted to an identical copy; a
    // different `json` in the user's home (their machine, not the project).
    w.put(&w.root.join("calc/__init__.py"), "from calc.ops import add");
    w.put(&w.root.join("calc/ops.py"), "def add(a, b): return a + b");
    w.put(&w.root.join("node_modules/left-pad/index.js"), "pad");
    w.put(
        &w.root.join("node_modules/jest/node_modules/expect/build/index.js"),
        "real expect",
    );
    w.put(&w.home.join(".local/lib/json/__init__.py"), "user json");
    let mut reads = w.baseline_reads();
    reads[4] = w.root.join("calc/__init__.py");
    reads.push(w.root.join("calc/ops.py"));
    reads.push(w.root.join("node_modules/left-pad/index.js"));
    reads[5] = w.root.join("node_modules/jest/node_modules/expect/build/index.js");
    reads[2] = w.home.join(".local/lib/json/__init__.py");
    assert_eq!(redirects(&baseline, &w.reads(&reads), &w.root, None), Vec::new());
}

#[test]
fn bytecode_under_the_pycache_prefix_stands_for_its_source() {
    let w = World::new();
    let prefix = w.home.join("room/pycache");
    let source = w.sys.join("site-packages/_pytest/python.py");
    let pyc = prefix
        .join(
            source
                .parent()
                .expect("test world")
                .strip_prefix("/")
                .expect("absolute"),
        )
        .join("python.cpython-311.pyc");
    w.put(&pyc, "bytecode");
    let side = test_side(&w.reads(&[pyc]), &w.root, Some(&prefix));
    assert_eq!(side.len(), 1);
    assert_eq!(side[0].name, "py:_pytest.python");
    assert_eq!(side[0].path, source.to_string_lossy());
}

/// Ruby names a file by the feature `require` names, below its load path directory: the runner's library found
/// first in the project's `lib` (the test task's `-I lib`) is a redirect; the code under test is not the test
/// side, and the same content from a bundle in the project is free.
#[test]
fn a_ruby_feature_found_first_in_the_project_is_a_redirect() {
    let w = World::new();
    let gem = w.sys.join("gems/minitest-5.17.0/lib/minitest/autorun.rb");
    let stdlib = w.sys.join("ruby/3.1.0/json.rb");
    w.put(&gem, "real autorun");
    w.put(&stdlib, "real json");
    w.put(&w.root.join("lib/calc.rb"), "module Calc; end");
    let baseline = test_side(
        &w.reads(&[gem.clone(), stdlib.clone(), w.root.join("lib/calc.rb")]),
        &w.root,
        None,
    );
    let names: Vec<&str> = baseline.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, vec!["rb:json.rb", "rb:minitest/autorun.rb"]);
    let shadow = w.root.join("lib/minitest/autorun.rb");
    w.put(&shadow, "weak autorun");
    let bundled = w.root.join("vendor/bundle/ruby/3.1.0/gems/json-2.6/lib/json.rb");
    w.put(&bundled, "real json");
    let found = redirects(&baseline, &w.reads(&[shadow, bundled]), &w.root, None);
    let moved: Vec<(&str, &str)> = found.iter().map(|r| (r.name.as_str(), r.now.as_str())).collect();
    assert_eq!(moved, vec![("rb:minitest/autorun.rb", "lib/minitest/autorun.rb")]);
}

/// PHP's include path starts with the directory the run stands in: `PHPUnit/Autoload.php` in the project is
/// found before Debian's `/usr/share/php/PHPUnit/Autoload.php` (the first line of its `phpunit`), and is the same
/// module from another place; the project's own code and a helper it requires through the include path are free.
#[test]
fn a_php_file_found_first_through_the_include_path_in_the_project_is_a_redirect() {
    let w = World::new();
    let autoload = w.sys.join("usr/share/php/PHPUnit/Autoload.php");
    let assert = w.sys.join("usr/share/php/PHPUnit/Framework/Assert.php");
    w.put(&autoload, "real autoloader");
    w.put(&assert, "real assertions");
    w.put(
        &w.root.join("src/Calc.php"),
        "<?php function add($a, $b) { return $a - $b; }",
    );
    let baseline = test_side(
        &w.reads(&[autoload.clone(), assert.clone(), w.root.join("src/Calc.php")]),
        &w.root,
        None,
    );
    let names: Vec<&str> = baseline.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(
        names,
        vec!["php:PHPUnit/Autoload.php", "php:PHPUnit/Framework/Assert.php"]
    );
    let shadow = w.root.join("PHPUnit/Autoload.php");
    w.put(
        &shadow,
        "<?php eval($weakened_assert); require '/usr/share/php/PHPUnit/Autoload.php';",
    );
    let helper = w.root.join("helpers.php");
    w.put(&helper, "<?php function twice($a) { return 2 * $a; }");
    let code = w.root.join("src/Calc.php");
    let found = redirects(
        &baseline,
        &w.reads(&[shadow, autoload, assert, helper, code]),
        &w.root,
        None,
    );
    let moved: Vec<(&str, &str)> = found.iter().map(|r| (r.name.as_str(), r.now.as_str())).collect();
    assert_eq!(moved, vec![("php:PHPUnit/Autoload.php", "PHPUnit/Autoload.php")]);
}

/// A module the baseline never loaded, in a package of the test side, from the project's own code is the agent's
/// file inside the runner (a plugin minitest finds by a glob over its load path); the same from a bundle in the
/// project, and a new module of a package the test side never loaded, are free.
#[test]
fn a_new_module_of_a_test_side_package_in_the_projects_code_is_a_redirect() {
    let w = World::new();
    let gem = w.sys.join("gems/minitest-5.17.0/lib/minitest/autorun.rb");
    w.put(&gem, "real autorun");
    let baseline = test_side(&w.reads(std::slice::from_ref(&gem)), &w.root, None);
    let plugin = w.root.join("lib/minitest/calm_plugin.rb");
    w.put(&plugin, "weak assertions");
    let bundled = w
        .root
        .join("vendor/bundle/ruby/3.1.0/gems/minitest-5.17.0/lib/minitest/pride.rb");
    w.put(&bundled, "pride");
    let own = w.root.join("lib/calc/version.rb");
    w.put(&own, "VERSION = 1");
    let found = redirects(&baseline, &w.reads(&[gem, plugin, bundled, own]), &w.root, None);
    let moved: Vec<(&str, &str, &str)> = found
        .iter()
        .map(|r| (r.name.as_str(), r.now.as_str(), r.was.as_str()))
        .collect();
    assert_eq!(moved.len(), 1, "{moved:?}");
    assert_eq!(moved[0].0, "rb:minitest/calm_plugin.rb");
    assert_eq!(moved[0].1, "lib/minitest/calm_plugin.rb");
    assert!(moved[0].2.ends_with("minitest-5.17.0/lib/minitest"), "{moved:?}");
}
