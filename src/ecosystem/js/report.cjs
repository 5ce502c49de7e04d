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
(() => {
  const path = process.env.LOOPGATE_REPORT;
  if (!path || !process.argv[1]) return;
  const fs = require('fs');
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

  const jest = () => {
    const { dirname, join, relative, sep } = require('path');
    const out = join(dirname(path), `jest-${process.pid}.json`);
    try {
      fs.unlinkSync(out);
    } catch {}
    process.argv.push('--json', `--outputFile=${out}`);
    // Jest says where it wrote the report; that line is loopgate's, not the run's.
    const stderrWrite = process.stderr.write;
    process.stderr.write = function (chunk, ...rest) {
      if (typeof chunk === 'string' && chunk.startsWith('Test results written to: ') && chunk.includes(`jest-${process.pid}.json`))
        return true;
      return stderrWrite.call(this, chunk, ...rest);
    };
    write('jest', 'begin');
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
        const name = relative(cwd, String(file.name)).split(sep).join('/');
        write('jest', file.status === 'failed' ? 'fail' : 'pass', name);
      }
      write('jest', 'end');
    });
  };

  const runner = [
    [/[\\/]mocha[\\/](bin|lib[\\/]cli)[\\/][^\\/]+$/, mocha],
    [/[\\/]jest(-cli)?[\\/]bin[\\/]jest\.js$/, jest],
  ].find(([pattern]) => pattern.test(script));
  if (!runner) return;
  if (runner[1] === jest && process.argv.slice(2).some((a) => /^--(json|outputFile|listTests|watch|watchAll|showConfig)(=|$)/.test(a)))
    return;
  delete process.env.LOOPGATE_REPORT;
  runner[1]();
})();
