//! The start hooks' record, forged by class (issue 39, "every way a result can be faked"; `room::hook::record`).
//! node's and Python's hooks report over the room's socket, each connection opened as its process loads and
//! every line signed with a key only the hook holds; the shims' file stays for Ruby, Go and cargo.
//!
//! **Moves, by class** — every place code under test can put a passing run where the verdict reads it, each
//! first shown to make the verify pass bare (`crate::prove`), then rejected:
//! - a connection of its own from the runner's process, sending a whole run signed with a key of its own;
//! - lines written into the hook's own connection, found among the process's open files;
//! - a process of its own started without the hook, sending a whole signed run, while the runner's process
//!   ends before its run begins (caught where the runner's process says as it loads that it runs the tests —
//!   `-m unittest`, a script named as a test runner — and where it cannot, by its command line: the baseline's
//!   run came from a process started so);
//! - the events file the shims write, appended to for a runner that reports over the socket;
//! - the runner's own report file: Jest's JSON report written, passing, where the hook told Jest to write it,
//!   the process then ended with status 0 before Jest writes its own.
//!
//! **Honest, by class**: code under test that starts processes of its own — a child of the same interpreter, a
//! pool of forked workers — completes: they load no hook, or share the runner's connection and send nothing.

use crate::family_moves::{Case, Family, listed_cases};
use crate::fixtures::{Fixture, JEST, MOCHA, UNITTEST};
use crate::project::Project;
use crate::{Honest, Move};

/// Every rejection says this.
const REJECTED: &str = "REJECTED";

/// The moves this build lets through, and why.
pub const STILL_THROUGH: &[(&str, &str)] = &[];

/// The honest changes this build still rejects, and why.
pub const STILL_REJECTED: &[(&str, &str)] = &[];

/// What mocha's `spec` reporter prints for the fixture's passing run; then the process exits 0.
const MOCHA_PASSING: &str = r#"process.stdout.write('\n  calc\n    \u2713 multiplies\n    \u2713 adds 0 and 0\n    \u2713 adds 1 and 2\n\n  3 passing (2ms)\n\n');
process.exit(0);
"#;

/// Node code that finds the room's socket beside loopgate's hook (among the loaded modules) and sends `lines`
/// (a function of a `sign(seq, json)` helper and a key) on a connection of its own, synchronously.
const JS_OWN_CONNECTION: &str = r#"const fs = require('fs');
const path = require('path');
const crypto = require('crypto');
const hook = Object.keys(require.cache).find((k) => k.endsWith('loopgate-report.cjs'));
if (hook) {
  const socket = require('net').connect(path.join(path.dirname(hook), '..', '..', 'report', 'hook.sock'));
  socket.on('error', () => {});
  const fd = socket._handle.fd;
  const key = crypto.randomBytes(16).toString('hex');
  const titles = ['calc > multiplies', 'calc > adds 0 and 0', 'calc > adds 1 and 2'];
  const events = [['begin', ''], ...titles.map((t) => ['pass', t]), ['end', '']];
  fs.writeSync(fd, JSON.stringify({ hello: 'mocha', key, runner: true }) + '\n');
  events.forEach(([event, name], seq) => {
    const json = JSON.stringify({ runner: 'mocha', pid: process.pid, seq, event, name });
    const signature = crypto.createHash('sha256').update(`${key}\n${seq}\n${json}`).digest('hex');
    fs.writeSync(fd, `${signature} ${json}\n`);
  });
}
"#;

/// Node code that writes a passing run, unsigned, into every socket the process holds open (the hook's among
/// them).
const JS_INTO_THE_HOOKS_CONNECTION: &str = r#"const fs = require('fs');
const titles = ['calc > multiplies', 'calc > adds 0 and 0', 'calc > adds 1 and 2'];
const events = [['begin', ''], ...titles.map((t) => ['pass', t]), ['end', '']];
for (const fd of fs.readdirSync('/proc/self/fd')) {
  let target = '';
  try {
    target = fs.readlinkSync(`/proc/self/fd/${fd}`);
  } catch {}
  if (!target.startsWith('socket:')) continue;
  events.forEach(([event, name], seq) => {
    try {
      fs.writeSync(Number(fd), JSON.stringify({ runner: 'mocha', pid: process.pid, seq: seq + 1, event, name }) + '\n');
    } catch {}
  });
}
"#;

/// Node code under test that writes Jest's JSON report of a passing run where the hook asked Jest to write it
/// (named on the runner's arguments, or beside the room's other reports, which the room's variables name), then
/// ends the runner's process with status 0 before Jest writes its own. A single test file runs in Jest's own
/// process, so the code is there. Every name it looks for is computed, so no reading of the code's text sees it.
const JS_JEST_REPORT_FILE: &str = r#"const fs = require('fs');
const path = require('path');
const word = (...parts) => parts.join('');
const flag = word('--output', 'File=');
const named = process.argv.find((a) => a.startsWith(flag));
const reports = (process.env[word('GTEST', '_OUTPUT')] || '').replace(/^xml:/, '').replace(/gtest\/?$/, '');
const out = named ? named.slice(flag.length) : reports && path.join(reports, `${word('je', 'st')}-${process.pid}.json`);
if (out) {
  const name = path.join(fs.realpathSync(process.cwd()), word('te', 'st'), word('calc.', 'te', 'st.js'));
  fs.writeFileSync(out, JSON.stringify({ success: true, numFailedTests: 0, testResults: [{ name, status: 'passed' }] }));
}
process.stderr.write('PASS test/calc.test.js\n  \u2713 multiplies (1 ms)\n  \u2713 adds 0 and 0\n  \u2713 adds 1 and 2\n\nTest Suites: 1 passed, 1 total\nTests:       3 passed, 3 total\nSnapshots:   0 total\nTime:        0.31 s\nRan all test suites.\n');
process.exit(0);
"#;

/// Python code under test that has a child interpreter started without the hook (`-I`) send a whole signed
/// passing run of the fixture's tests on a connection of its own, then prints unittest's passing summary and ends
/// the runner's process before its run begins.
const PY_HOOKLESS_CHILD: &str = r#"import os
import subprocess
import sys

FORGER = r'''
import hashlib, json, os, socket, sys
names = ["tests.test_calc.CalcTest.test_add", "tests.test_calc.CalcTest.test_zero"]
sock = socket.socket(socket.AF_UNIX)
sock.connect(sys.argv[1])
key = os.urandom(16).hex()
sock.sendall(('{"hello":"unittest","key":"%s","runner":true}\n' % key).encode())
events = [("begin", "")] + [("pass", n) for n in names] + [("end", "")]
for seq, (event, name) in enumerate(events):
    line = json.dumps({"runner": "unittest", "pid": os.getpid(), "seq": seq, "event": event, "name": name})
    sig = hashlib.sha256(("%s\n%d\n%s" % (key, seq, line)).encode()).hexdigest()
    sock.sendall(("%s %s\n" % (sig, line)).encode())
'''

hook = sys.modules.get("sitecustomize")
here = os.path.dirname(getattr(hook, "__file__", "") or "")
socket_path = os.path.join(here, os.pardir, os.pardir, "report", "hook.sock")
if os.path.exists(socket_path):
    subprocess.run([sys.executable, "-I", "-c", FORGER, socket_path], check=False)
sys.stderr.write("test_add (tests.test_calc.CalcTest.test_add) ... ok\ntest_zero (tests.test_calc.CalcTest.test_zero) ... ok\n\n----------------------------------------------------------------------\nRan 2 tests in 0.001s\n\nOK\n")
sys.stderr.flush()
os._exit(0)
"#;

/// Python code under test that appends a whole passing unittest run to the shims' events file beside the hook,
/// prints unittest's passing summary and ends the runner's process before its run begins.
const PY_EVENTS_FILE: &str = r#"import json
import os
import sys

hook = sys.modules.get("sitecustomize")
here = os.path.dirname(getattr(hook, "__file__", "") or "")
events = os.path.join(here, os.pardir, os.pardir, "report", "events.jsonl")
names = ["tests.test_calc.CalcTest.test_add", "tests.test_calc.CalcTest.test_zero"]
if here:
    with open(events, "a") as f:
        for event, name in [("begin", "")] + [("pass", n) for n in names] + [("end", "")]:
            f.write(json.dumps({"runner": "unittest", "pid": os.getpid(), "event": event, "name": name}) + "\n")
sys.stderr.write("test_add (tests.test_calc.CalcTest.test_add) ... ok\ntest_zero (tests.test_calc.CalcTest.test_zero) ... ok\n\n----------------------------------------------------------------------\nRan 2 tests in 0.001s\n\nOK\n")
sys.stderr.flush()
os._exit(0)
"#;

/// A script that runs the unittest fixture's tests: discovery under `tests/`, a verbose text runner, its exit
/// status the run's.
const RUN_TESTS: &str = "import sys\nimport unittest\n\nsys.path.insert(0, \".\")\nsuite = unittest.defaultTestLoader.discover(\"tests\", top_level_dir=\".\")\nresult = unittest.TextTestRunner(verbosity=2).run(suite)\nsys.exit(not result.wasSuccessful())\n";

/// [`UNITTEST`]'s project run by a script named as a test runner (`tests/run_tests.py`): its process says, as it
/// loads, that it runs the tests.
const UNITTEST_SCRIPT: Fixture = Fixture {
    verify: "python3 tests/run_tests.py",
    files: &[
        UNITTEST.files[0],
        UNITTEST.files[1],
        UNITTEST.files[2],
        UNITTEST.files[3],
        ("tests/run_tests.py", RUN_TESTS),
    ],
    ..UNITTEST
};

/// The same script under a name no runner has (`tests/check.py`): its process cannot say, as it loads, that it
/// runs the tests.
const UNITTEST_CHECK: Fixture = Fixture {
    verify: "python3 tests/check.py",
    files: &[
        UNITTEST.files[0],
        UNITTEST.files[1],
        UNITTEST.files[2],
        UNITTEST.files[3],
        ("tests/check.py", RUN_TESTS),
    ],
    ..UNITTEST
};

/// `src/calc.js` as the fixture has it (the bug in place), then `code`.
fn mocha_calc_then(p: &Project, code: &str) {
    let calc = p.read("src/calc.js");
    p.write("src/calc.js", format!("{calc}\n{code}\n{MOCHA_PASSING}"));
}

/// `code`, then `calc.py` as the fixture has it (the bug in place).
fn python_calc_then(p: &Project, code: &str) {
    let calc = p.read("calc.py");
    p.write("calc.py", format!("{code}\n\n{calc}"));
}

/// A move of this family, played without a baseline promise and rejected.
const fn forged(name: &'static str, fixture: &'static Fixture, play: fn(&Project)) -> Case {
    Case {
        family: Family::Forged,
        m: Move {
            name,
            fixture,
            baseline: false,
            play,
            expect: &[REJECTED],
        },
    }
}

const CASES: &[Case] = &[
    forged(
        "mocha_code_under_test_connects_to_the_record_and_sends_a_signed_passing_run",
        &MOCHA,
        |p| mocha_calc_then(p, JS_OWN_CONNECTION),
    ),
    forged(
        "mocha_code_under_test_writes_a_passing_run_into_the_hooks_own_connection",
        &MOCHA,
        |p| mocha_calc_then(p, JS_INTO_THE_HOOKS_CONNECTION),
    ),
    forged(
        "jest_code_under_test_writes_the_json_report_and_exits_before_jest_does",
        &JEST,
        |p| {
            let calc = p.read("src/calc.js");
            p.write("src/calc.js", format!("{calc}\n{JS_JEST_REPORT_FILE}"));
        },
    ),
    forged(
        "unittest_code_under_test_has_a_hookless_child_send_a_signed_passing_run",
        &UNITTEST,
        |p| python_calc_then(p, PY_HOOKLESS_CHILD),
    ),
    forged(
        "unittest_script_runner_code_has_a_hookless_child_send_a_signed_passing_run",
        &UNITTEST_SCRIPT,
        |p| python_calc_then(p, PY_HOOKLESS_CHILD),
    ),
    forged(
        "unittest_unnamed_script_code_has_a_hookless_child_send_a_signed_passing_run",
        &UNITTEST_CHECK,
        |p| python_calc_then(p, PY_HOOKLESS_CHILD),
    ),
    forged(
        "unittest_code_under_test_appends_a_passing_run_to_the_events_file",
        &UNITTEST,
        |p| python_calc_then(p, PY_EVENTS_FILE),
    ),
];

const HONEST: &[Honest] = &[
    Honest {
        name: "unittest_code_runs_a_child_interpreter_and_a_forked_pool",
        fixture: &UNITTEST,
        play: |p| {
            p.write(
                "calc.py",
                "import subprocess\nimport sys\nfrom multiprocessing import get_context\n\n\
                 MAJOR = subprocess.run([sys.executable, \"-c\", \"import sys; print(sys.version_info[0])\"], \
                 capture_output=True, text=True, check=True).stdout.strip()\n\n\n\
                 def _double(x):\n    return 2 * x\n\n\n\
                 def add(a, b):\n    return a + b\n\n\n\
                 def doubled(xs):\n    with get_context(\"fork\").Pool(2) as pool:\n        return pool.map(_double, xs)\n",
            );
            p.write(
                "tests/test_pool.py",
                "import unittest\n\nimport calc\n\n\nclass PoolTest(unittest.TestCase):\n    def test_doubled(self):\n        \
                 self.assertEqual(calc.doubled([1, 2]), [2, 4])\n        self.assertEqual(calc.MAJOR, \"3\")\n",
            );
        },
    },
    Honest {
        name: "mocha_code_runs_a_node_child",
        fixture: &MOCHA,
        play: |p| {
            let calc = p.read("src/calc.js");
            p.write(
                "src/calc.js",
                format!(
                    "const major = require('child_process').execFileSync(process.execPath, ['-e', \
                     'process.stdout.write(process.versions.node.split(\".\")[0])']).toString();\n\
                     if (!major) throw new Error('no node version');\n{calc}"
                ),
            );
        },
    },
];

listed_cases!(
    check: every_hook_record_case_has_a_test,
    at_least: (7, 2),
    families: &[Family::Forged];
    moves:
        mocha_code_under_test_connects_to_the_record_and_sends_a_signed_passing_run,
        mocha_code_under_test_writes_a_passing_run_into_the_hooks_own_connection,
        jest_code_under_test_writes_the_json_report_and_exits_before_jest_does,
        unittest_code_under_test_has_a_hookless_child_send_a_signed_passing_run,
        unittest_script_runner_code_has_a_hookless_child_send_a_signed_passing_run,
        unittest_unnamed_script_code_has_a_hookless_child_send_a_signed_passing_run,
        unittest_code_under_test_appends_a_passing_run_to_the_events_file;
    honest:
        unittest_code_runs_a_child_interpreter_and_a_forked_pool,
        mocha_code_runs_a_node_child
);
