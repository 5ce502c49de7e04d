'use strict';
// loopgate's start hook for the oracle's runs (issue 29, item 2; see `room::hook`), loaded by the oracle
// through `NODE_OPTIONS=--require`. In a process that runs mocha's own command (`mocha/bin/mocha.js` or
// `mocha/lib/cli/cli.js`, which load mocha whether it is CommonJS or an ES module) it takes the report's path
// out of the environment before any test file is loaded, so the code under test and its child processes never
// see it, and wraps `EventEmitter.prototype.emit`: the first mocha `Runner` that emits `start` has its per-test
// results appended to that file, one JSON line per event, until its `end`. Nothing is printed; any other node
// process (npm, a tool the tests start) is left as it was.
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
  if (!/[\\/]mocha[\\/](bin|lib[\\/]cli)[\\/][^\\/]+$/.test(script)) return;
  delete process.env.LOOPGATE_REPORT;
  const EventEmitter = require('events');
  const emit = EventEmitter.prototype.emit;
  let outer = null;
  let fd = null;
  const write = (event, name) =>
    fs.writeSync(fd, JSON.stringify({ runner: 'mocha', pid: process.pid, event, name: name || '' }) + '\n');
  const title = (test) =>
    (test && typeof test.titlePath === 'function' ? test.titlePath() : [String(test && test.title)]).join(' > ');
  const isRunner = (emitter) =>
    emitter && emitter.suite && typeof emitter.runTests === 'function' && typeof emitter.run === 'function';
  EventEmitter.prototype.emit = function (event, ...args) {
    if (event === 'start' && outer === null && isRunner(this)) {
      if (fd === null) fd = fs.openSync(path, 'a', 0o600);
      outer = this;
      write('begin');
    }
    if (this === outer) {
      if (event === 'pass') write('pass', title(args[0]));
      else if (event === 'fail') write('fail', title(args[0]));
      else if (event === 'pending') write('skip', title(args[0]));
    }
    const result = emit.call(this, event, ...args);
    if (this === outer && event === 'end') {
      write('end');
      outer = null;
    }
    return result;
  };
})();
