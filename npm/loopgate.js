#!/usr/bin/env node
// The `loopgate` command of the npm package: runs the native binary from the platform package npm installed
// beside this one (an optionalDependency chosen by its `os` / `cpu` fields, no install script, no download).
//
// Exit status and signals pass through: the binary's exit code is ours; if it was killed by a signal, we
// re-raise that signal on ourselves so the shell sees 128+N. Ctrl-C reaches the binary from the terminal (same
// process group), so SIGINT is only swallowed here, never forwarded twice; SIGTERM and SIGHUP sent to this
// process are passed on to the binary. Hooks and the slash commands call the binary by its own path (written by
// `loopgate install`), not through this file, so they pay no Node start-up.
"use strict";

const { spawn } = require("child_process");
const path = require("path");

const manifest = require("../package.json");
const platform = `${process.platform}-${process.arch}`;
const wanted = `@loopgate/${platform}`;
const supported = Object.keys(manifest.optionalDependencies || {}).map((name) => name.replace("@loopgate/", ""));

function fail(message) {
  process.stderr.write(`loopgate: ${message}\n`);
  process.exit(127);
}

let binary;
try {
  binary = path.join(path.dirname(require.resolve(`${wanted}/package.json`)), "bin", "loopgate");
} catch {
  if (!supported.includes(platform)) {
    fail(
      `no prebuilt binary for ${platform} (prebuilt: ${supported.join(", ")}); build it from source with \`cargo install loopgate\``,
    );
  }
  fail(
    `the platform package \`${wanted}\` is not installed (npm skipped optional dependencies?); reinstall with \`npm install -g loopgate\` without --omit=optional / --no-optional`,
  );
}

const child = spawn(binary, process.argv.slice(2), { stdio: "inherit" });
const forward = (signal) => () => child.kill(signal);
process.on("SIGINT", () => {});
process.on("SIGTERM", forward("SIGTERM"));
process.on("SIGHUP", forward("SIGHUP"));
child.on("error", (error) => fail(`failed to run \`${binary}\`: ${error.message}`));
child.on("exit", (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code === null ? 1 : code);
});
