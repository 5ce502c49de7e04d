'use strict';
// loopgate's start hook for the oracle's runs (issue 29, item 2; issue 39, item 1; see `room::hook`), loaded by
// the oracle through `NODE_OPTIONS=--require`. It acts only in a process that runs a test runner's own command
// (in its main thread), takes itself out of `NODE_OPTIONS` there before any test file is loaded, so the code
// under test and its child processes never see it, and sends the runner's own per-test results to loopgate
// over the room's socket (`room::hook::record`): a connection made as the process loads, its first line the
// process's key, each line after it signed and counted, between a `begin` and an `end`. Nothing is printed; any
// other node process (npm, a tool the tests start) is left as it was.
//
// - mocha (`mocha/bin/mocha.js` or `mocha/lib/cli/cli.js`, which load mocha whether it is CommonJS or an ES
//   module): `EventEmitter.prototype.emit` is wrapped, and the first mocha `Runner` that emits `start` has its
//   events recorded until its `end`.
// - Jest (`jest/bin/jest.js`, `jest-cli/bin/jest.js`): Jest's own JSON report is asked for on its arguments
//   (`--json --outputFile=…`, a file beside the events that only this process is told of), Jest's own write of
//   it is kept in memory, never on disk (what any other code writes at that path is not read), and when the
//   process exits the report's test files are recorded, named as Jest's output names them (relative to the
//   working directory), `end` last. A process that exits before Jest wrote its report (code under test that prints a
//   passing summary and exits 0) leaves a `begin` without its `end`: a run cut short. A command that asks for
//   Jest's JSON itself, lists or watches is left as it is.
// - Vitest (`vitest/vitest.mjs`): the same, Vitest's JSON reporter asked for beside its default one. Reporters on
//   its command line replace those of its configuration, so one configured to hide failures is not loaded.
//
// The socket is found from where this hook stands (`report/hook.sock`, two directories up), so no variable names
// it; Jest's and Vitest's reports go beside it.
(() => {
  // A worker thread loads the preload too: its process's main thread is the one the hook acts in.
  if (!process.argv[1] || !require('worker_threads').isMainThread) return;
  const fs = require('fs');
  const path = require('path').join(__dirname, '..', '..', 'report', 'events.jsonl');
  let script;
  try {
    script = fs.realpathSync(process.argv[1]);
  } catch {
    return;
  }
  // The record (`room::hook::record`): a connection to the room's socket, made as the runner's process loads,
  // before any test file does; its first line is this process's key, which never leaves it otherwise, and every
  // line after it is signed with the key and counted, so a line that code under test sends, or one it keeps
  // from being sent, shows. Written synchronously on the connection's descriptor: the last lines go out from
  // the `exit` event, where nothing asynchronous runs.
  const record = (runner) => {
    const { createHash, randomBytes } = require('crypto');
    const key = randomBytes(16).toString('hex');
    let fd = null;
    try {
      const socket = require('net').connect(require('path').join(__dirname, '..', '..', 'report', 'hook.sock'));
      socket.on('error', () => {});
      socket.unref();
      fd = socket._handle && socket._handle.fd >= 0 ? socket._handle.fd : null;
    } catch {}
    const send = (line) => {
      if (fd === null) return false;
      for (let left = Buffer.from(line); left.length; ) {
        try {
          left = left.subarray(fs.writeSync(fd, left));
        } catch (e) {
          if (e.code !== 'EAGAIN') return false;
        }
      }
      return true;
    };
    if (!send(JSON.stringify({ hello: runner, key, runner: true, argv: process.argv }) + '\n')) {
      // No socket (a run in Claude Code's sandbox, which refuses Unix sockets): the events file, as the shims
      // write it; loopgate reads it whole only where it could make no socket (`room::hook::record::OFF`).
      let file = null;
      return (event, name) => {
        try {
          if (file === null) file = fs.openSync(path, 'a', 0o600);
          fs.writeSync(file, JSON.stringify({ runner, pid: process.pid, event, name: name || '' }) + '\n');
        } catch {}
      };
    }
    let seq = 0;
    return (event, name) => {
      const json = JSON.stringify({ runner, pid: process.pid, seq, event, name: name || '' });
      const signature = createHash('sha256').update(`${key}\n${seq}\n${json}`).digest('hex');
      seq += 1;
      send(`${signature} ${json}\n`);
    };
  };
  let sent = null;
  const write = (runner, event, name) => {
    if (sent === null) sent = record(runner);
    sent(event, name);
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
  // arguments, at a file beside the events that only this process is told of. The report never reaches that
  // file: the runner's own write of it is taken in this process's memory (`fs.writeFileSync`, `fs.writeFile`,
  // `fs.promises.writeFile`, wrapped before the runner loads), and only a write whose caller is the runner's own
  // code counts, so code under test that writes a passing report there, or where the room's other reports are,
  // and ends the process before the runner writes its own, leaves no report: a run cut short.
  const jsonReport = (name, args, writer) => () => {
    const { basename, dirname, join, relative, resolve, sep } = require('path');
    const out = join(dirname(path), `${name}-${process.pid}.json`);
    const own = writer();
    let taken = null;
    // The file of the first caller outside node's own code and this hook's.
    const caller = () => {
      const prepare = Error.prepareStackTrace;
      try {
        Error.prepareStackTrace = (_, frames) => frames;
        for (const frame of new Error().stack) {
          const file = frame.getFileName();
          if (!file || file.startsWith('node:') || file === __filename) continue;
          return file.startsWith('file:') ? require('url').fileURLToPath(file) : file;
        }
      } catch {
      } finally {
        Error.prepareStackTrace = prepare;
      }
      return null;
    };
    const takes = (file) => {
      if (taken !== null || own === null) return false;
      try {
        if (resolve(String(file)) !== out) return false;
      } catch {
        return false;
      }
      const from = caller();
      return from !== null && from.startsWith(own);
    };
    const take = (data) => {
      taken = typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
    };
    const writeFileSync = fs.writeFileSync;
    fs.writeFileSync = function (file, data, ...rest) {
      if (!takes(file)) return writeFileSync.call(this, file, data, ...rest);
      take(data);
    };
    const writeFile = fs.writeFile;
    fs.writeFile = function (file, data, ...rest) {
      if (!takes(file)) return writeFile.call(this, file, data, ...rest);
      take(data);
      const done = rest.find((r) => typeof r === 'function');
      if (done) process.nextTick(done, null);
    };
    const promised = fs.promises.writeFile;
    fs.promises.writeFile = function (file, data, ...rest) {
      if (!takes(file)) return promised.call(this, file, data, ...rest);
      take(data);
      return Promise.resolve();
    };
    // ES modules imported `node:fs` by name from the copy made at start-up: give them the wrapped functions.
    require('module').syncBuiltinESMExports();
    process.argv.push(...args(out));
    // The runner says where it wrote the report; that line is loopgate's, not the run's.
    for (const stream of [process.stdout, process.stderr]) {
      const streamWrite = stream.write;
      stream.write = function (chunk, ...rest) {
        if (typeof chunk === 'string' && chunk.includes(basename(out)) && /(Test results|JSON report) written to/.test(chunk))
          return true;
        return streamWrite.call(this, chunk, ...rest);
      };
    }
    write(name, 'begin');
    process.on('exit', () => {
      if (taken === null) return;
      let report;
      try {
        report = JSON.parse(taken);
      } catch {
        return;
      }
      let cwd = process.cwd();
      try {
        cwd = fs.realpathSync(cwd);
      } catch {}
      for (const file of (report && report.testResults) || []) {
        const test = relative(cwd, String(file.name)).split(sep).join('/');
        write(name, file.status === 'failed' ? 'fail' : 'pass', test);
      }
      write(name, 'end');
    });
  };
  // The directory of the runner's code that writes the report, with a separator last; null where it cannot be
  // found (then no report is taken).
  const below = (dir) => (dir ? dir + require('path').sep : null);
  const jestCore = () => {
    try {
      const { dirname } = require('path');
      return below(dirname(dirname(require.resolve('@jest/core', { paths: [dirname(script)] }))));
    } catch {
      return null;
    }
  };
  const jest = jsonReport('jest', (out) => ['--json', `--outputFile=${out}`], jestCore);
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
  ], () => below(require('path').dirname(script)));

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
    [/[\\/]mocha[\\/](bin|lib[\\/]cli)[\\/][^\\/]+$/, mocha, null, 'mocha'],
    [/[\\/]jest(-cli)?[\\/]bin[\\/]jest\.js$/, jest, /^--(json|outputFile|listTests|watch|watchAll|showConfig)(=|$)/, 'jest'],
    [/[\\/]vitest[\\/]vitest\.mjs$/, vitest, /^(--reporter\.|--(outputFile|output-file|watch|ui|standalone|mergeReports|merge-reports)([=.]|$)|-w$|list$|bench$|init$|watch$|dev$)/, 'vitest'],
  ].find(([pattern]) => pattern.test(script));
  if (!runner) return;
  // A command that asks for the report itself, lists, watches or benchmarks is left as it is; so is Vitest's
  // with a reporter it does not ship (code it loads).
  if (runner[2] && process.argv.slice(2).some((a) => runner[2].test(a))) return;
  if (runner[1] === vitest && vitestReporters(process.argv.slice(2)).some((r) => !VITEST_REPORTERS.includes(r))) return;
  withoutHook();
  sent = record(runner[3]);
  runner[1]();
})();
