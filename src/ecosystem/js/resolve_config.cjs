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
  // `as-run`: each project as the runner runs its tests, every setting that applies to them in one document
  // (`config::runs`): Jest's project configuration with the global one beside it, Vitest's projects as
  // `createVitest` resolves them.
  const asRun = process.env.LOOPGATE_CONFIG_FORM === 'as-run';
  delete process.env.LOOPGATE_CONFIG_FORM;
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

  // One document: the project's keys, then the global ones it lacks; a global key that differs from the
  // project's is its own entry.
  const oneDocument = (project, globalConfig) => {
    const config = plainObject(project, []);
    // Jest builds `testPathPatterns` from its command line as an object of its own class: its patterns are the data.
    const patterns = globalConfig.testPathPatterns;
    const global = plainObject({ ...globalConfig, testPathPatterns: patterns && patterns.patterns }, []);
    for (const [key, value] of Object.entries(global)) {
      if (!(key in config)) config[key] = value;
      else if (JSON.stringify(config[key]) !== JSON.stringify(value)) config[`${key} (global)`] = value;
    }
    return config;
  };

  // Calls `each(NAME, project)` for each of Jest's projects: NAME its display name, else its directory (else its
  // place), with its place added where two share one, so a project keeps its name wherever a new one lands.
  const eachProject = (configs, each) => {
    const seen = new Set();
    configs.forEach((project, i) => {
      const shown = project.displayName && project.displayName.name;
      let name = shown ? `"${shown}"` : rooted(String(project.rootDir || i + 1));
      if (seen.has(name)) name = `${name} #${i + 1}`;
      seen.add(name);
      each(name, project);
    });
  };

  const jest = async () => {
    const jestDir = packageDir(cwd, 'jest');
    const cliDir = packageDir(jestDir, 'jest-cli');
    const { readConfigs } = requireFrom(cliDir)('jest-config');
    const names = ['js', 'ts', 'mjs', 'cjs', 'cts', 'json'].map((ext) => `jest.config.${ext}`);
    const file = names.map((name) => path.join(cwd, name)).find((p) => fs.existsSync(p)) || null;
    const { configs, globalConfig } = await readConfigs({ $0: 'jest', _: [] }, [cwd]);
    if (asRun && Array.isArray(globalConfig.projects) && globalConfig.projects.length > 0) {
      // Each project as one document of what applies to its tests — its own keys and the global ones beside them,
      // shaped as a configuration without `projects` is — so a sealed test is compared under the same labels
      // whether one configuration or a project runs it.
      const { projects, ...rest } = globalConfig;
      const config = {};
      eachProject(configs, (name, project) => {
        config[`project ${name}`] = oneDocument(project, rest);
      });
      return { file, config };
    }
    if (byProject && Array.isArray(globalConfig.projects) && globalConfig.projects.length > 0) {
      // `projects` entry by entry: the global keys (not `projects`, whose entries are judged as what they
      // resolve to), then each project's resolved configuration under `project NAME`, NAME its display name, else
      // its directory: a project keeps its name wherever a new one lands in the list.
      const { projects, ...rest } = globalConfig;
      const patterns = rest.testPathPatterns;
      const config = plainObject({ ...rest, testPathPatterns: patterns && patterns.patterns }, []);
      eachProject(configs, (name, project) => {
        config[`project ${name}`] = plainObject(project, []);
      });
      return { file, config };
    }
    const config = oneDocument(configs[0] || {}, globalConfig);
    // Read as run, an empty `projects` is the one document it stands for: a project holding these settings compares
    // equal to it.
    if (asRun && Array.isArray(config.projects) && config.projects.length === 0) delete config.projects;
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
    if (asRun) return vitestAsRun(vitestDir, file);
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

  // What Vitest's main process reads from the root configuration alone, whichever project runs a test: its
  // reporters, when the run stops, whether no test is a pass, the root's global setup and what it provides.
  const VITEST_ROOT_ONLY = ['reporters', 'outputFile', 'bail', 'passWithNoTests', 'allowOnly'];
  // Vite's and Vitest's own plugins, by the names they give themselves: the resolved list holds them for every
  // project (a project defined inline has one more), and they are the runner's code, held in the room.
  const ownPlugin = (name) =>
    typeof name === 'string' && (/^(vite|vitest|builtin|native):/.test(name) || ['alias', 'vitest'].includes(name));

  // Vitest's projects as `createVitest` resolves them — inline ones, `extends`, paths, globs of directories, the
  // workspace file of Vitest 3 — each as one document of what applies to its tests: its resolved `test` options
  // (`test.KEY`), what the main process reads from the root, the aliases and user plugins its modules go through.
  // One project and no `projects`: the document is the top level's, as a configuration without `projects` is.
  const vitestAsRun = async (vitestDir, file) => {
    const workspace = ['ts', 'mts', 'cts', 'js', 'mjs', 'cjs', 'json']
      .map((ext) => path.join(cwd, `vitest.workspace.${ext}`))
      .some((p) => fs.existsSync(p));
    // With no file, the defaults as Vitest resolves them: a file created later is compared with them key by key.
    const url = require('url').pathToFileURL(requireFrom(vitestDir).resolve('vitest/node')).href;
    const node = await import(url);
    const sequencers = [node.BaseSequencer, node.RandomSequencer].filter(Boolean);
    const options = { watch: false, run: true };
    if (file !== null) options.config = file;
    const ctx = await node.createVitest('test', options, {}, {});
    try {
      const root = ctx.config;
      const asDocument = (project) => {
        const own = { ...project.config };
        delete own.projects;
        delete own.workspace;
        for (const key of VITEST_ROOT_ONLY) own[key] = root[key];
        // Values resolution fills in that say nothing of how the tests run: a disabled browser mode's or type
        // check's defaults, coverage's reports (its provider stays: a custom one is code), how long imports took.
        if (own.browser && !own.browser.enabled) own.browser = { enabled: false };
        if (own.typecheck && !own.typecheck.enabled) own.typecheck = { enabled: false };
        if (own.coverage) {
          const { provider, customProviderModule } = own.coverage;
          own.coverage = { provider, customProviderModule };
        }
        if (own.experimental) {
          const { importDurations, ...rest } = own.experimental;
          own.experimental = rest;
        }
        if (own.sequence && sequencers.includes(own.sequence.sequencer)) {
          own.sequence = { ...own.sequence, sequencer: own.sequence.sequencer.name };
        }
        const doc = {};
        for (const [key, value] of Object.entries(plainObject(own, []))) doc[`test.${key}`] = value;
        const vite = project.vite.config;
        doc.resolve = plain({ alias: vite.resolve.alias, conditions: vite.resolve.conditions }, []);
        // How Vite transforms the modules: replaced identifiers, the transformer's own options, SSR's resolution.
        for (const key of ['define', 'esbuild', 'oxc', 'ssr', 'json']) {
          if (vite[key] !== undefined) doc[key] = plain(vite[key], []);
        }
        const plugins = vite.plugins.filter((plugin) => !ownPlugin(plugin && plugin.name));
        if (plugins.length > 0) doc.plugins = plain(plugins, []);
        return doc;
      };
      const listed = Array.isArray(root.projects) || workspace;
      if (!listed && ctx.projects.length === 1) return { file, config: asDocument(ctx.projects[0]) };
      const config = {};
      for (const project of ctx.projects) config[`project "${project.name}"`] = asDocument(project);
      return { file, config };
    } finally {
      await ctx.close();
    }
  };

  const read = { jest, vitest }[runner];
  if (!read) say({ error: `no reading for runner \`${runner}\`` });
  read().then(say, (err) => say({ error: String((err && err.message) || err).split('\n')[0] }));
})();
