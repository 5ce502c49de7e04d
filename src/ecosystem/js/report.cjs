'use strict';
// loopgate's start hook for the oracle's runs (issue 29, item 2; issue 39, item 1; see `room::hook`), loaded by
// the oracle through `NODE_OPTIONS=--require`. It acts only in a process that runs a test runner's own command,
// takes the report's path out of the environment there before any test file is loaded, so the code under test
// and its child processes never see it, and appends the runner's own per-test results to that file, one JSON
// line per event, between a `begin` and an `end`. Nothing is printed; any other node process (npm, a tool the
// tests start) is left as it was.
//
// - mocha (`mocha/bin/mocha.js` or `mocha/lib/cli/cli.js`, which load mocha whether it is CommonJS or an ES
//   module): `EventEmitter.prototype.emit` is wrapped, and the first mocha `Runner` that emits `start` has its
//   events recorded until its `end`.
// - Jest (`jest/bin/jest.js`, `jest-cli/bin/jest.js`): Jest's own JSON report is asked for on its arguments
//   (`--json --outputFile=…`, a file beside the events that only this process is told of), and when the process
//   exits the report's test files are recorded, named as Jest's output names them (relative to the working
//   directory), `end` last. A process that exits before Jest wrote its report (code under test that prints a
//   passing summary and exits 0) leaves a `begin` without its `end`: a run cut short. A command that asks for
//   Jest's JSON itself, lists or watches is left as it is.
// - Vitest (`vitest/vitest.mjs`): the same, Vitest's JSON reporter asked for beside its default one. Reporters on
//   its command line replace those of its configuration, so one configured to hide failures is not loaded.
//
// The events file is found from where this hook stands (`report/events.jsonl`, two directories up), so no
// variable names it. In the runner's process the hook takes itself out of `NODE_OPTIONS` before any test file
// loads: the code under test sees the user's `NODE_OPTIONS`, and the node processes it starts (a runner run
// inside the tests) load no hook.
(() => {
  if (!process.argv[1]) return;
  const fs = require('fs');
  const path = require('path').join(__dirname, '..', '..', 'report', 'events.jsonl');
  let script;
  try {
    script = fs.realpathSync(process.argv[1]);
  } catch {
    return;
  }
  let fd = null;
  const write = (runner, event, name) => {
    if (fd === null) fd = fs.openSync(path, 'a', 0o600);
    fs.writeSync(fd, JSON.stringify({ runner, pid: process.pid, event, name: name || '' }) + '\n');
  };

  const mocha = () => {
    const EventEmitter = require('events');
    const emit = EventEmitter.prototype.emit;
    let outer = null;
    const title = (test) =>
      (test && typeof test.titlePath === 'function' ? test.titlePath() : [String(test && test.title)]).join(' > ');
    const isRunner = (emitter) =>
      emitter && emitter.suite && typeof emitter.runTests === 'function' && typeof emitter.run === 'function';
    EventEmitter.prototype.emit = function (event, ...args) {
      if (event === 'start' && outer === null && isRunner(this)) {
        outer = this;
        write('mocha', 'begin');
      }
      if (this === outer) {
        if (event === 'pass') write('mocha', 'pass', title(args[0]));
        else if (event === 'fail') write('mocha', 'fail', title(args[0]));
        else if (event === 'pending') write('mocha', 'skip', title(args[0]));
      }
      const result = emit.call(this, event, ...args);
      if (this === outer && event === 'end') {
        write('mocha', 'end');
        outer = null;
      }
      return result;
    };
  };

  // Jest and Vitest write the same JSON report (`testResults[].name`, `.status`); each is asked for it on its own
  // arguments, at a file beside the events that only this process is told of.
  const jsonReport = (name, args) => () => {
    const { dirname, join, relative, sep } = require('path');
    const out = join(dirname(path), `${name}-${process.pid}.json`);
    try {
      fs.unlinkSync(out);
    } catch {}
    process.argv.push(...args(out));
    // The runner says where it wrote the report; that line is loopgate's, not the run's.
    for (const stream of [process.stdout, process.stderr]) {
      const streamWrite = stream.write;
      stream.write = function (chunk, ...rest) {
        if (typeof chunk === 'string' && chunk.includes(out) && /(Test results|JSON report) written to/.test(chunk))
          return true;
        return streamWrite.call(this, chunk, ...rest);
      };
    }
    write(name, 'begin');
    process.on('exit', () => {
      let report;
      try {
        report = JSON.parse(fs.readFileSync(out, 'utf8'));
        fs.unlinkSync(out);
      } catch {
        return;
      }
      let cwd = process.cwd();
      try {
        cwd = fs.realpathSync(cwd);
      } catch {}
      for (const file of report.testResults || []) {
        const test = relative(cwd, String(file.name)).split(sep).join('/');
        write(name, file.status === 'failed' ? 'fail' : 'pass', test);
      }
      write(name, 'end');
    });
  };
  const jest = jsonReport('jest', (out) => ['--json', `--outputFile=${out}`]);
  // Vitest's reporters on its command line replace those of its configuration: the run prints Vitest's default
  // report, and a reporter the project configured (one that hides failures, or exits early) is not loaded. Where
  // the command line names reporters Vitest ships (`--reporter=dot`), they print instead of the default one
  // (`runner::js::VITEST_REPORTERS`; one it does not ship leaves the command as it is, below).
  const VITEST_REPORTERS = ['default', 'basic', 'verbose', 'dot', 'tree', 'json', 'junit', 'tap', 'tap-flat', 'hanging-process', 'github-actions', 'blob'];
  const vitestReporters = (args) =>
    args.flatMap((a, i) => (a === '--reporter' ? [args[i + 1]] : a.startsWith('--reporter=') ? [a.slice(11)] : []));
  const vitest = jsonReport('vitest', (out) => [
    ...(vitestReporters(process.argv.slice(2)).length ? [] : ['--reporter=default']),
    '--reporter=json',
    `--outputFile.json=${out}`,
  ]);

  // `NODE_OPTIONS` as the run's own variables had it: loopgate appends `--require FILE` last (the file quoted where
  // it holds a space, a quote or a backslash: `room::hook::js::options_word`).
  const withoutHook = () => {
    const options = process.env.NODE_OPTIONS || '';
    const last = /\s*--require\s+("(?:[^"\\]|\\.)*"|\S+)$/.exec(options);
    if (!last || !/[\\/]hook[\\/]node[\\/]loopgate-report\.cjs"?$/.test(last[1])) return;
    const theirs = options.slice(0, last.index);
    if (theirs) process.env.NODE_OPTIONS = theirs;
    else delete process.env.NODE_OPTIONS;
  };

  const runner = [
    [/[\\/]mocha[\\/](bin|lib[\\/]cli)[\\/][^\\/]+$/, mocha],
    [/[\\/]jest(-cli)?[\\/]bin[\\/]jest\.js$/, jest, /^--(json|outputFile|listTests|watch|watchAll|showConfig)(=|$)/],
    [/[\\/]vitest[\\/]vitest\.mjs$/, vitest, /^(--reporter\.|--(outputFile|output-file|watch|ui|standalone|mergeReports|merge-reports)([=.]|$)|-w$|list$|bench$|init$|watch$|dev$)/],
  ].find(([pattern]) => pattern.test(script));
  if (!runner) return;
  // A command that asks for the report itself, lists, watches or benchmarks is left as it is; so is Vitest's
  // with a reporter it does not ship (code it loads).
  if (runner[2] && process.argv.slice(2).some((a) => runner[2].test(a))) return;
  if (runner[1] === vitest && vitestReporters(process.argv.slice(2)).some((r) => !VITEST_REPORTERS.includes(r))) return;
  withoutHook();
  runner[1]();
})();
