// Jest resolver: integration suites run what ships. Production runs each package's tsc output in dist/, so a test in a
// package's test/ folder or under tests/ (and any dist file it loads) gets dist/**/*.js where it names src/**/*.ts, and
// `@kasa/<name>` resolves to the package's built main. Unit tests beside the code (src/**/*.test.ts) stay on src.
// Packages that tsc does not build (the test kit, the api client, the webpack-built frontends) stay on src everywhere.
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const rootManifest = require(path.join(ROOT, 'package.json'));

/** Every workspace package: its name, folder, and (when tsc builds it) its dist entry. */
const packages = rootManifest.workspaces
  .map((folder) => {
    const dir = path.join(ROOT, folder);
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
    const main = typeof manifest.main === 'string' ? manifest.main : undefined;
    const built = main !== undefined && main.startsWith('dist/');
    return { name: manifest.name, dir, built, main: built ? path.join(dir, main) : undefined };
  })
  .filter((pkg) => pkg.name.startsWith('@kasa/'));
const byName = new Map(packages.map((pkg) => [pkg.name, pkg]));

const sep = path.sep;
const packageOf = (file) => packages.find((pkg) => file === pkg.dir || file.startsWith(pkg.dir + sep));
const within = (file, dir) => file === dir || file.startsWith(dir + sep);

/** A file in a package's test/ folder, under tests/, or inside a built package's dist/ (what dist code requires). */
function loadsBuiltCode(basedir) {
  if (within(basedir, path.join(ROOT, 'tests'))) return true;
  const pkg = packageOf(basedir);
  if (!pkg) return false;
  return within(basedir, path.join(pkg.dir, 'test')) || (pkg.built && within(basedir, path.join(pkg.dir, 'dist')));
}

const checked = new Map();

/** Why a package's built output cannot be used (missing, or older than its src), or undefined when it can. */
function buildProblem(pkg, file) {
  const relative = path.relative(ROOT, file);
  if (!fs.existsSync(file)) return `${relative} is missing: integration tests run the built output`;
  if (!checked.has(pkg.dir)) {
    const buildInfo = path.join(pkg.dir, 'tsconfig.tsbuildinfo');
    const builtAt = fs.existsSync(buildInfo) ? fs.statSync(buildInfo).mtimeMs : 0;
    const newer = newestSource(path.join(pkg.dir, 'src'));
    checked.set(
      pkg.dir,
      newer && newer.mtimeMs > builtAt
        ? `${path.relative(ROOT, newer.file)} changed after ${path.relative(ROOT, pkg.dir)} was last built: ` +
            'integration tests run the built output'
        : undefined,
    );
  }
  return checked.get(pkg.dir);
}

/**
 * `file` when the package's build can be used; otherwise a module that fails the suite with the reason. Jest turns
 * an error thrown here into a bare "Cannot find module", so the reason travels in a module that throws it on load.
 */
function builtOrFailing(pkg, file) {
  const problem = buildProblem(pkg, file);
  if (!problem) return file;
  const message = `${problem}; run npm run build:ts first.`;
  const dir = path.join(os.tmpdir(), 'kasa-jest-not-built');
  const stub = path.join(dir, `${crypto.createHash('sha1').update(message).digest('hex')}.js`);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(stub, `throw new Error(${JSON.stringify(message)});\n`);
  return stub;
}

/** The most recently changed source file that tsc compiles (tests beside the code are not part of the build). */
function newestSource(dir) {
  let newest;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    const candidate = entry.isDirectory()
      ? newestSource(file)
      : /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)
        ? { file, mtimeMs: fs.statSync(file).mtimeMs }
        : undefined;
    if (candidate && (!newest || candidate.mtimeMs > newest.mtimeMs)) newest = candidate;
  }
  return newest;
}

/** The src entry a unit test sees for `@kasa/<name>`. */
function sourceEntry(pkg) {
  const tsx = path.join(pkg.dir, 'src', 'index.tsx');
  return fs.existsSync(tsx) ? tsx : path.join(pkg.dir, 'src', 'index.ts');
}

/** dist/<same path>.js for a built package's src/**\/*.ts(x), or undefined when the file is not built source. */
function builtCounterpart(file) {
  const pkg = packageOf(file);
  if (!pkg || !pkg.built) return undefined;
  const src = path.join(pkg.dir, 'src');
  if (!within(file, src) || !/\.tsx?$/.test(file) || file.endsWith('.d.ts')) return undefined;
  const relative = path.relative(src, file).replace(/\.tsx?$/, '.js');
  return { pkg, file: path.join(pkg.dir, 'dist', relative) };
}

/** Jest resolves with the `require` condition; an ESM-only package that exports `import` alone resolves by that. */
function resolveAnyCondition(request, options) {
  try {
    return options.defaultResolver(request, options);
  } catch (err) {
    if (!options.conditions || options.conditions.includes('import')) throw err;
    return options.defaultResolver(request, { ...options, conditions: [...options.conditions, 'import'] });
  }
}

module.exports = function resolveBuilt(request, options) {
  const built = loadsBuiltCode(options.basedir);
  const pkg = byName.get(request);
  if (pkg && !built) return sourceEntry(pkg);
  if (pkg && pkg.built) return builtOrFailing(pkg, pkg.main);
  const resolved = resolveAnyCondition(request, options);
  if (!built) return resolved;
  const counterpart = builtCounterpart(resolved);
  if (counterpart) return builtOrFailing(counterpart.pkg, counterpart.file);
  return resolved;
};
