// Builds loopgate's npm packages and stamps the version into every committed file that carries it.
// Called by scripts/dist.sh; the version is read from Cargo.toml, the one place a release changes it.
//
//   node npm/pack.mjs platforms                 print "RUST_TARGET NPM_PLATFORM" per line
//   node npm/pack.mjs pack BIN_DIR OUT_DIR      stage and `npm pack` the packages into OUT_DIR; BIN_DIR holds
//                                               NPM_PLATFORM/loopgate for every platform that was built
//   node npm/pack.mjs stamp [--check]           write (or check) the version in package.json,
//                                               package-lock.json and .claude-plugin/*.json
//
// The packages follow esbuild and biome: `loopgate` holds a Node launcher (npm/loopgate.js) and lists one
// package per platform as optionalDependencies; each platform package declares `os` and `cpu`, so npm installs
// only the matching one, with no install script (Claude Code installs plugin dependencies with
// --ignore-scripts, and many users disable scripts). The repository root, which is also the Claude Code
// plugin, has a package.json and package-lock.json listing the same platform packages: Claude Code runs
// `npm ci --ignore-scripts` in an installed plugin, so the plugin gets its binary the same way.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Every prebuilt platform: Node's `process.platform-process.arch` name, the Rust target, npm's os/cpu. */
const PLATFORMS = [
  { name: "linux-x64", target: "x86_64-unknown-linux-musl", os: "linux", cpu: "x64" },
  { name: "linux-arm64", target: "aarch64-unknown-linux-musl", os: "linux", cpu: "arm64" },
  { name: "darwin-x64", target: "x86_64-apple-darwin", os: "darwin", cpu: "x64" },
  { name: "darwin-arm64", target: "aarch64-apple-darwin", os: "darwin", cpu: "arm64" },
];
const SCOPE = "@loopgate";
const PLUGIN_PACKAGE = "loopgate-plugin";

function fail(message) {
  process.stderr.write(`npm/pack.mjs: ${message}\n`);
  process.exit(1);
}

/** The `[package]` fields of Cargo.toml this script needs (a flat `key = "value"` read is enough there). */
function cargoPackage() {
  const file = path.join(repo, "Cargo.toml");
  const text = fs.readFileSync(file, "utf8");
  const section = text.split(/^\[/m).find((s) => s.startsWith("package]"));
  if (!section) fail(`\`${file}\` has no [package] table`);
  const field = (key) => {
    const match = section.match(new RegExp(`^${key}\\s*=\\s*"([^"]*)"`, "m"));
    if (!match) fail(`\`${file}\`: [package] has no \`${key}\` string`);
    return match[1];
  };
  const version = field("version");
  if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) fail(`\`${file}\`: version \`${version}\` is not semver`);
  return { version, description: field("description"), license: field("license"), repository: field("repository") };
}

const json = (value) => `${JSON.stringify(value, null, 2)}\n`;

function optionalDependencies(version) {
  return Object.fromEntries(PLATFORMS.map((p) => [`${SCOPE}/${p.name}`, version]));
}

function write(file, text, mode) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  if (mode !== undefined) fs.chmodSync(file, mode);
}

function pack(binDir, outDir) {
  const cargo = cargoPackage();
  const common = {
    version: cargo.version,
    license: cargo.license,
    repository: { type: "git", url: `git+${cargo.repository}.git` },
    homepage: cargo.repository,
  };
  const stage = path.join(outDir, "stage");
  fs.rmSync(stage, { recursive: true, force: true });
  fs.mkdirSync(outDir, { recursive: true });
  for (const old of fs.readdirSync(outDir).filter((f) => f.endsWith(".tgz"))) fs.rmSync(path.join(outDir, old));
  const license = fs.readFileSync(path.join(repo, "LICENSE"), "utf8");
  const dirs = [];

  for (const p of PLATFORMS) {
    const binary = path.join(binDir, p.name, "loopgate");
    if (!fs.existsSync(binary)) continue;
    const dir = path.join(stage, p.name);
    const name = `${SCOPE}/${p.name}`;
    write(
      path.join(dir, "package.json"),
      json({
        name,
        ...common,
        description: `The loopgate binary for ${p.name} (${p.target}); installed by the \`loopgate\` package`,
        os: [p.os],
        cpu: [p.cpu],
        files: ["bin/loopgate"],
        preferUnplugged: true,
      }),
    );
    write(
      path.join(dir, "README.md"),
      `# ${name}\n\nThe prebuilt \`loopgate\` binary for ${p.name} (Rust target \`${p.target}\`). ` +
        "Install the `loopgate` package instead: `npm install -g loopgate && loopgate install`.\n",
    );
    write(path.join(dir, "LICENSE"), license);
    fs.mkdirSync(path.join(dir, "bin"), { recursive: true });
    fs.copyFileSync(binary, path.join(dir, "bin", "loopgate"));
    fs.chmodSync(path.join(dir, "bin", "loopgate"), 0o755);
    dirs.push(dir);
  }
  if (dirs.length === 0) fail(`no binary found under \`${binDir}\` (expected PLATFORM/loopgate)`);

  const main = path.join(stage, "loopgate");
  write(
    path.join(main, "package.json"),
    json({
      name: "loopgate",
      ...common,
      description: cargo.description,
      keywords: ["claude-code", "agent", "loop", "hook", "verify"],
      bin: { loopgate: "bin/loopgate.js" },
      files: ["bin/loopgate.js"],
      engines: { node: ">=16" },
      optionalDependencies: optionalDependencies(cargo.version),
    }),
  );
  write(path.join(main, "bin", "loopgate.js"), fs.readFileSync(path.join(repo, "npm", "loopgate.js"), "utf8"), 0o755);
  write(path.join(main, "README.md"), fs.readFileSync(path.join(repo, "README.md"), "utf8"));
  write(path.join(main, "LICENSE"), license);
  dirs.push(main);

  for (const dir of dirs) {
    execFileSync("npm", ["pack", "--silent", "--pack-destination", outDir], { cwd: dir, stdio: ["ignore", "inherit", "inherit"] });
  }
  fs.rmSync(stage, { recursive: true, force: true });
}

/** The committed files that carry the version: path → expected text (a function of the current text). */
function stamped() {
  const { version, license } = cargoPackage();
  const deps = optionalDependencies(version);
  // Lockfile entries pin an exact version and carry no `resolved` URL, hence no `integrity`: Claude Code 2.1.330
  // refuses a download link without an integrity hash, and a hash committed here could only be that of one
  // particular build, not of every build CI makes. npm fetches NAME@VERSION from the configured registry and
  // checks it against the registry's own integrity; a published version never changes.
  const lockEntries = Object.fromEntries(
    PLATFORMS.map((p) => [
      `node_modules/${SCOPE}/${p.name}`,
      {
        version,
        cpu: [p.cpu],
        license,
        optional: true,
        os: [p.os],
      },
    ]),
  );
  const manifest = {
    name: PLUGIN_PACKAGE,
    version,
    private: true,
    description:
      "The loopgate Claude Code plugin's binary: Claude Code runs `npm ci --ignore-scripts` here, which installs the prebuilt loopgate for this platform",
    license,
    optionalDependencies: deps,
  };
  const lock = {
    name: PLUGIN_PACKAGE,
    version,
    lockfileVersion: 3,
    requires: true,
    packages: { "": { name: PLUGIN_PACKAGE, version, license, optionalDependencies: deps }, ...lockEntries },
  };
  // The plugin manifests keep their hand-written layout: only their "version" values are replaced.
  const versionField = (text) => text.replace(/("version":\s*")[^"]*(")/g, `$1${version}$2`);
  return [
    ["package.json", () => json(manifest)],
    ["package-lock.json", () => json(lock)],
    [".claude-plugin/plugin.json", versionField],
    [".claude-plugin/marketplace.json", versionField],
  ];
}

function stamp(check) {
  const stale = [];
  for (const [rel, expected] of stamped()) {
    const file = path.join(repo, rel);
    const current = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
    const want = expected(current);
    if (current === want) continue;
    if (check) stale.push(rel);
    else write(file, want);
  }
  if (stale.length > 0) {
    fail(`${stale.join(", ")} do not carry Cargo.toml's version ${cargoPackage().version}: run \`scripts/dist.sh --stamp\``);
  }
}

const [command, ...args] = process.argv.slice(2);
if (command === "platforms") {
  for (const p of PLATFORMS) process.stdout.write(`${p.target} ${p.name}\n`);
} else if (command === "pack" && args.length === 2) {
  pack(path.resolve(args[0]), path.resolve(args[1]));
} else if (command === "stamp" && (args.length === 0 || (args.length === 1 && args[0] === "--check"))) {
  stamp(args[0] === "--check");
} else {
  fail("usage: node npm/pack.mjs platforms | pack BIN_DIR OUT_DIR | stamp [--check]");
}
