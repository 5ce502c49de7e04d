'use strict';
// loopgate's reading of the configuration Jest or Vitest resolves in the working directory (see
// `closure::js_config`), run in the oracle's room where and as the verify command runs. It loads the configuration
// the way the runner does — Jest's own `readConfigs` (what `jest --showConfig` prints), Vite's `loadConfigFromFile`
// on the file Vitest picks — and prints it as one line of JSON after a mark only this process was told of:
// `{"file": PATH|null, "config": {LABEL: VALUE…}}`, or `{"error": TEXT}`.
//
// Values are made plain so that nothing a configuration can hold is lost on the way: a function or an object of a
// class (a plugin, a reporter instance) becomes `{"(code)": its source}`, a regular expression `{"(regexp)": …}`;
// the working directory inside a string becomes `<rootDir>`. `JSON.stringify` would drop a function silently.
(() => {
  const mark = process.env.LOOPGATE_CONFIG_MARK || '';
  const runner = process.env.LOOPGATE_CONFIG_RUNNER || '';
  delete process.env.LOOPGATE_CONFIG_MARK;
  delete process.env.LOOPGATE_CONFIG_RUNNER;
  const byProject = process.env.LOOPGATE_CONFIG_PROJECTS === '1';
  delete process.env.LOOPGATE_CONFIG_PROJECTS;
  const fs = require('fs');
  const path = require('path');
  const { createRequire } = require('module');
  const cwd = process.cwd();
  let real = cwd;
  try {
    real = fs.realpathSync(cwd);
  } catch {}
  const say = (value) => {
    fs.writeSync(1, `${mark} ${JSON.stringify(value)}\n`);
    process.exit(0);
  };
  const rooted = (text) => text.split(real).join('<rootDir>').split(cwd).join('<rootDir>');

  const plain = (value, above) => {
    if (value === null || typeof value === 'boolean') return value;
    if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
    if (typeof value === 'string') return rooted(value);
    if (typeof value === 'function') return { '(code)': String(value) };
    if (typeof value !== 'object') return String(value);
    if (value instanceof RegExp) return { '(regexp)': String(value) };
    if (above.includes(value)) return '(cycle)';
    const inner = [...above, value];
    if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : plain(v, inner)));
    if (value instanceof Map) return { '(map)': [...value].map((pair) => plain(pair, inner)) };
    if (value instanceof Set) return { '(set)': [...value].map((v) => plain(v, inner)) };
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      // An instance carries its behaviour in its class: code, whatever its fields say.
      return { '(code)': String(value.constructor), fields: plainObject(value, inner) };
    }
    return plainObject(value, inner);
  };
  const plainObject = (value, above) => {
    const object = {};
    for (const key of Object.keys(value).sort()) {
      if (value[key] !== undefined) object[key] = plain(value[key], above);
    }
    return object;
  };

  const requireFrom = (dir) => createRequire(path.join(dir, 'package.json'));
  const packageDir = (from, name) => path.dirname(requireFrom(from).resolve(`${name}/package.json`));

  const jest = async () => {
    const jestDir = packageDir(cwd, 'jest');
    const cliDir = packageDir(jestDir, 'jest-cli');
    const { readConfigs } = requireFrom(cliDir)('jest-config');
    const names = ['js', 'ts', 'mjs', 'cjs', 'cts', 'json'].map((ext) => `jest.config.${ext}`);
    const file = names.map((name) => path.join(cwd, name)).find((p) => fs.existsSync(p)) || null;
    const { configs, globalConfig } = await readConfigs({ $0: 'jest', _: [] }, [cwd]);
    if (byProject && Array.isArray(globalConfig.projects) && globalConfig.projects.length > 0) {
      // `projects` entry by entry: the global keys (not `projects`, whose entries are judged as what they
      // resolve to), then each project's resolved configuration under `project NAME`, NAME its display name, else
      // its directory: a project keeps its name wherever a new one lands in the list.
      const { projects, ...rest } = globalConfig;
      const patterns = rest.testPathPatterns;
      const config = plainObject({ ...rest, testPathPatterns: patterns && patterns.patterns }, []);
      const seen = new Set();
      configs.forEach((project, i) => {
        const shown = project.displayName && project.displayName.name;
        let name = shown ? `"${shown}"` : rooted(String(project.rootDir || i + 1));
        if (seen.has(name)) name = `${name} #${i + 1}`;
        seen.add(name);
        config[`project ${name}`] = plainObject(project, []);
      });
      return { file, config };
    }
    // One document: the project's keys, then the global ones it lacks; a global key that differs from the
    // project's is its own entry. A second project is one entry of its own.
    const config = plainObject(configs[0] || {}, []);
    // Jest builds `testPathPatterns` from its command line as an object of its own class: its patterns are the data.
    const patterns = globalConfig.testPathPatterns;
    const global = plainObject({ ...globalConfig, testPathPatterns: patterns && patterns.patterns }, []);
    for (const [key, value] of Object.entries(global)) {
      if (!(key in config)) config[key] = value;
      else if (JSON.stringify(config[key]) !== JSON.stringify(value)) config[`${key} (global)`] = value;
    }
    configs.slice(1).forEach((project, i) => {
      config[`project ${i + 2}`] = plainObject(project, []);
    });
    return { file, config };
  };

  const vitest = async () => {
    const vitestDir = packageDir(cwd, 'vitest');
    // Vitest's own search: `vitest.config.*` then `vite.config.*`, in each directory from here up.
    const names = ['vitest.config', 'vite.config'].flatMap((stem) =>
      ['.ts', '.mts', '.cts', '.js', '.mjs', '.cjs'].map((ext) => stem + ext),
    );
    let file = null;
    for (let dir = cwd; file === null; dir = path.dirname(dir)) {
      file = names.map((name) => path.join(dir, name)).find((p) => fs.existsSync(p)) || null;
      if (path.dirname(dir) === dir) break;
    }
    const config = {};
    if (file !== null) {
      // Vite is loaded only for a file to load: a project without one costs a directory walk.
      const vite = await import(require('url').pathToFileURL(requireFrom(vitestDir).resolve('vite')).href);
      const loaded = await vite.loadConfigFromFile(
        { command: 'serve', mode: 'test', isSsrBuild: false, isPreview: false },
        file,
        cwd,
        'silent',
      );
      if (!loaded) throw new Error(`\`${file}\` did not load`);
      for (const [key, value] of Object.entries(plainObject(loaded.config || {}, []))) {
        if (key === 'test' && value && typeof value === 'object' && !Array.isArray(value) && !value['(code)']) {
          for (const [option, set] of Object.entries(value)) config[`test.${option}`] = set;
        } else {
          config[key] = value;
        }
      }
    }
    return { file, config };
  };

  const read = { jest, vitest }[runner];
  if (!read) say({ error: `no reading for runner \`${runner}\`` });
  read().then(say, (err) => say({ error: String((err && err.message) || err).split('\n')[0] }));
})();
