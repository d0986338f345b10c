#!/usr/bin/env node
/**
 * Releases Kasa's SDKs: `npm run release:sdks -- --registry <url> [--dry-run] [--out <dir>]`.
 *
 *  1. npm: `@kasa/sdk`, then `@kasa/react`, each packed by `npm pack` (which builds it first) into <out>/npm and
 *     published to <url> with `npm publish`. @kasa/react's peer dependency on @kasa/sdk is set to the version just
 *     published (`^1.6.0`), after checking that the range in sdks/react/package.json allows it.
 *  2. Python: the sdist and the wheel of `kasa`, built offline by `python3 -m build --no-isolation`, into <out>/python.
 *  3. Go: the files a Go module proxy serves for `github.com/kasa-ai/kasa-go` (`<module>/@v/list`, `vX.Y.Z.info`,
 *     `.mod`, `.zip`) into <out>/goproxy, for `GOPROXY=file://<out>/goproxy` or any static web server. The version is
 *     the newest of sdks/go/README.md's "Changes", which must match `Version` in sdks/go/client.go.
 *  4. Rust: the crate `kasa`, packed and verified by `cargo package --offline` (it builds the packed crate), into
 *     <out>/rust.
 *
 * <out> is dist/sdks by default. `--dry-run` makes every file but publishes nothing (`npm publish --dry-run`).
 * npm publishes with the credential it has for the registry (`npm login --registry <url>`, or an `_authToken` line in
 * .npmrc). A version already on the registry is not published again, so a release that stopped half-way can be run
 * again; a Go version already in the proxy folder with other contents is refused (Go's checksums would break).
 */
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { parseArgs } = require('node:util');

const ROOT = path.resolve(__dirname, '..');
const SDKS = path.join(ROOT, 'sdks');

const USAGE = 'usage: npm run release:sdks -- --registry <npm registry url> [--dry-run] [--out <dir>]';

class ReleaseError extends Error {}

/** The options, or a usage error. */
function options(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        registry: { type: 'string' },
        'dry-run': { type: 'boolean', default: false },
        out: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    }).values;
  } catch (error) {
    throw new ReleaseError(`${error.message}\n${USAGE}`);
  }
  if (parsed.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const dryRun = parsed['dry-run'];
  if (!parsed.registry && !dryRun) throw new ReleaseError(`--registry is required to publish\n${USAGE}`);
  if (parsed.registry && !/^https?:\/\/[^/\s]+/.test(parsed.registry))
    throw new ReleaseError(`--registry must be an http(s) address, not ${parsed.registry}`);
  return {
    registry: parsed.registry,
    dryRun,
    out: path.resolve(parsed.out ?? path.join(ROOT, 'dist', 'sdks')),
  };
}

/** Runs a command to its end; its output is shown only when it fails (with `hint`, what to do about it). */
function run(command, args, { cwd = ROOT, input, hint } = {}) {
  const result = spawnSync(command, args, { cwd, input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error?.code === 'ENOENT') throw new ReleaseError(`${command} was not found${hint ? `: ${hint}` : ''}`);
  if (result.error) throw result.error;
  if (result.status !== 0) {
    const said = `${result.stdout}${result.stderr}`.trim();
    throw new ReleaseError(
      `\`${[command, ...args].join(' ')}\` failed (exit ${result.status ?? result.signal}) in ${cwd}${
        said ? `:\n${said}` : ''
      }${hint ? `\n${hint}` : ''}`,
    );
  }
  return result.stdout;
}

/** `name` from PATH, else the first of `fallbacks` that exists. */
function binary(name, fallbacks = []) {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  return [...dirs.map((dir) => path.join(dir, name)), ...fallbacks].find((file) => fs.existsSync(file));
}

const readJson = (file) => JSON.parse(fs.readFileSync(file, 'utf8'));

/** `key = "value"` in one `[section]` of a TOML file. */
function tomlValue(file, section, key) {
  const body = fs
    .readFileSync(file, 'utf8')
    .split(/^\[/m)
    .find((part) => part.startsWith(`${section}]`));
  const value = body && new RegExp(`^${key}\\s*=\\s*"([^"]*)"`, 'm').exec(body)?.[1];
  if (!value) throw new ReleaseError(`${path.relative(ROOT, file)} has no ${key} in [${section}]`);
  return value;
}

const SEMVER = /^(\d+)\.(\d+)\.(\d+)$/;

function compareVersions(a, b) {
  const [x, y] = [SEMVER.exec(a.replace(/^v/, '')), SEMVER.exec(b.replace(/^v/, ''))];
  if (!x || !y) return a.localeCompare(b);
  for (let i = 1; i <= 3; i += 1) if (Number(x[i]) !== Number(y[i])) return Number(x[i]) - Number(y[i]);
  return 0;
}

/** Whether a caret range (`^1.5.0`) allows `version`; any other form of range is refused rather than guessed at. */
function caretAllows(range, version) {
  const floor = /^\^(\d+\.\d+\.\d+)$/.exec(range)?.[1];
  if (!floor) throw new ReleaseError(`@kasa/react's peer range for @kasa/sdk is ${range}: the release needs ^X.Y.Z`);
  const [major, minor] = floor.split('.').map(Number);
  const [vMajor, vMinor] = version.split('.').map(Number);
  const sameLine = major === 0 ? vMajor === 0 && vMinor === minor : vMajor === major;
  return sameLine && compareVersions(version, floor) >= 0;
}

const say = (line) => console.log(line);
/** A path as printed: relative to where the release runs when it is inside it. */
function shown(file) {
  const relative = path.relative(process.cwd(), file);
  return !relative ? '.' : relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}

// ---------------------------------------------------------------------------------------------------------- npm

/** npm's name for a package's tarball: `@kasa/sdk` 1.6.0 is kasa-sdk-1.6.0.tgz. */
const tarballName = (name, version) => `${name.replace(/^@/, '').replace('/', '-')}-${version}.tgz`;

/** Packs a workspace (npm runs its prepack: the ES module and CommonJS builds) into `dir`. */
function packWorkspace(workspace, dir) {
  const manifest = readJson(path.join(SDKS, workspace, 'package.json'));
  run('npm', ['pack', '-w', manifest.name, '--pack-destination', dir]);
  const tarball = path.join(dir, tarballName(manifest.name, manifest.version));
  if (!fs.existsSync(tarball)) throw new ReleaseError(`npm pack made no ${shown(tarball)}`);
  return { manifest, tarball };
}

/** Whether `name@version` is on the registry already. */
function published(registry, name, version) {
  const result = spawnSync('npm', ['view', `${name}@${version}`, 'version', '--registry', registry], {
    encoding: 'utf8',
  });
  return result.status === 0 && result.stdout.trim() === version;
}

function publish(settings, tarball, { name, version }) {
  const { registry, dryRun } = settings;
  if (!dryRun && published(registry, name, version)) {
    say(`  ${name}@${version} is on ${registry} already: not published again`);
    return;
  }
  // Scoped packages are private on npmjs.com unless published public.
  const args = ['publish', tarball, '--access', 'public'];
  if (registry) args.push('--registry', registry);
  if (dryRun) args.push('--dry-run');
  run('npm', args, {
    hint: 'npm needs a credential for the registry: `npm login --registry <url>`, or an _authToken in .npmrc',
  });
  say(`  ${dryRun ? 'would publish' : 'published'} ${name}@${version}${registry ? ` to ${registry}` : ''}`);
}

/**
 * @kasa/react's packed tarball again, with its peer dependency on @kasa/sdk set to `^<sdkVersion>`: the version
 * published just before it, so that installing it from the registry brings an SDK that is there.
 */
function repackReact(tarball, sdkVersion, dir) {
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-react-release-'));
  try {
    run('tar', ['-xzf', tarball, '-C', stage]);
    const manifestFile = path.join(stage, 'package', 'package.json');
    const manifest = readJson(manifestFile);
    const range = manifest.peerDependencies?.['@kasa/sdk'];
    if (!range) throw new ReleaseError('sdks/react/package.json has no peer dependency on @kasa/sdk');
    if (!caretAllows(range, sdkVersion))
      throw new ReleaseError(
        `@kasa/react asks for @kasa/sdk ${range}, which does not allow ${sdkVersion}: update sdks/react/package.json`,
      );
    manifest.peerDependencies['@kasa/sdk'] = `^${sdkVersion}`;
    fs.writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
    fs.rmSync(tarball);
    // Already built: its prepack (the build) has nothing to build from here.
    run('npm', ['pack', path.join(stage, 'package'), '--ignore-scripts', '--pack-destination', dir], { cwd: stage });
    return manifest;
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
}

function releaseNpm(settings) {
  const dir = path.join(settings.out, 'npm');
  fs.mkdirSync(dir, { recursive: true });
  say('npm: @kasa/sdk, then @kasa/react');
  const sdk = packWorkspace('js', dir);
  say(`  made ${shown(sdk.tarball)}`);
  publish(settings, sdk.tarball, sdk.manifest);

  const react = packWorkspace('react', dir);
  const manifest = repackReact(react.tarball, sdk.manifest.version, dir);
  say(`  made ${shown(react.tarball)} (peer @kasa/sdk ${manifest.peerDependencies['@kasa/sdk']})`);
  publish(settings, react.tarball, manifest);
}

// ------------------------------------------------------------------------------------------------------- Python

/**
 * Debian's python3 unless PYTHON names another: it has python3-build, setuptools and wheel from Debian's packages,
 * where a python3 of pyenv or of a virtual environment first on PATH often has none of them.
 */
function python() {
  const chosen = process.env.PYTHON || (fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');
  const check = spawnSync(chosen, ['-m', 'build', '--version'], { encoding: 'utf8' });
  if (check.status !== 0)
    throw new ReleaseError(
      `${chosen} has no \`build\` module: install Debian's python3-build (apt-get install python3-build), or ` +
        '`pip install build` for the python3 that PYTHON names',
    );
  return chosen;
}

function releasePython(out) {
  const source = path.join(SDKS, 'python');
  const pyproject = path.join(source, 'pyproject.toml');
  const [name, version] = [tomlValue(pyproject, 'project', 'name'), tomlValue(pyproject, 'project', 'version')];
  const dir = path.join(out, 'python');
  fs.mkdirSync(dir, { recursive: true });
  say(`Python: ${name} ${version}`);
  const interpreter = python();
  // Built from a copy, so that setuptools' build/ and egg-info never land in (or leak stale files from) the checkout.
  const stage = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-python-release-'));
  try {
    for (const entry of ['pyproject.toml', 'README.md', 'src'])
      fs.cpSync(path.join(source, entry), path.join(stage, entry), {
        recursive: true,
        filter: (file) => !/(^|[/\\])(__pycache__|[^/\\]+\.egg-info)$/.test(file),
      });
    // No isolation: the interpreter's own setuptools and wheel build it, where an isolated build would download them.
    // Without --sdist/--wheel, build makes the sdist and then the wheel from it, which proves the sdist complete.
    run(interpreter, ['-m', 'build', '--no-isolation', '--outdir', dir, stage], {
      hint: 'the build needs setuptools 61 or later and wheel (Debian: python3-setuptools, python3-wheel)',
    });
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
  for (const file of [`${name}-${version}.tar.gz`, `${name}-${version}-py3-none-any.whl`]) {
    const made = path.join(dir, file);
    if (!fs.existsSync(made)) throw new ReleaseError(`python3 -m build made no ${shown(made)}`);
    say(`  made ${shown(made)}`);
  }
}

// ----------------------------------------------------------------------------------------------------------- Go

/** The newest version of the Go SDK's README "Changes", checked against the Version constant the client sends. */
function goVersion(dir) {
  const readme = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
  const changes = readme.split(/^## Changes$/m)[1] ?? '';
  const latest = /^- \*\*(\d+\.\d+\.\d+)\*\*/m.exec(changes)?.[1];
  if (!latest) throw new ReleaseError('sdks/go/README.md has no version under "## Changes"');
  const constant = /^const Version = "([^"]+)"/m.exec(fs.readFileSync(path.join(dir, 'client.go'), 'utf8'))?.[1];
  if (constant !== latest)
    throw new ReleaseError(`sdks/go/client.go's Version is ${constant}, its README's latest change ${latest}`);
  return `v${latest}`;
}

/**
 * The module's files, by their path in it: Go sources and tests, go.mod and go.sum, testdata, README and licence.
 * Not the repository's own tooling beside them (the jest suite, its tsconfig).
 */
function goModuleFiles(dir, prefix = '') {
  const files = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const relative = `${prefix}${entry.name}`;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      // A folder with a go.mod of its own is another module; dot folders and node_modules are not Go's.
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      if (fs.existsSync(path.join(full, 'go.mod'))) continue;
      files.push(...goModuleFiles(full, `${relative}/`));
    } else if (
      /\.go$/.test(entry.name) ||
      (!prefix && /^(go\.mod|go\.sum|README\.md|LICEN[CS]E(\.\w+)?)$/.test(entry.name)) ||
      relative.split('/').includes('testdata')
    ) {
      files.push([full, relative]);
    }
  }
  return files;
}

/** A module path as the proxy protocol spells it: each capital letter as `!` and the letter in lower case. */
const escapeModulePath = (modulePath) => modulePath.replace(/[A-Z]/g, (letter) => `!${letter.toLowerCase()}`);

// Every entry stored with one time and mode, in path order: the same source gives the same bytes, hence the same
// go.sum line, whenever it is packed.
const ZIP_WRITER = `
import json, sys, zipfile
job = json.load(sys.stdin)
with zipfile.ZipFile(job["zip"], "w", zipfile.ZIP_DEFLATED) as archive:
    for source, name in sorted(job["files"], key=lambda file: file[1]):
        info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = 0o644 << 16
        with open(source, "rb") as data:
            archive.writestr(info, data.read())
`;

function releaseGo(out) {
  const source = path.join(SDKS, 'go');
  const modulePath = /^module\s+(\S+)/m.exec(fs.readFileSync(path.join(source, 'go.mod'), 'utf8'))?.[1];
  if (!modulePath) throw new ReleaseError('sdks/go/go.mod names no module');
  const version = goVersion(source);
  const proxy = path.join(out, 'goproxy');
  const dir = path.join(proxy, escapeModulePath(modulePath), '@v');
  fs.mkdirSync(dir, { recursive: true });
  say(`Go: ${modulePath} ${version}`);

  const files = goModuleFiles(source).map(([file, name]) => [file, `${modulePath}@${version}/${name}`]);
  const zip = path.join(dir, `${version}.zip`);
  const fresh = path.join(dir, `.${version}.zip.new`);
  run(python(), ['-c', ZIP_WRITER], { input: JSON.stringify({ zip: fresh, files }) });
  if (fs.existsSync(zip) && !fs.readFileSync(zip).equals(fs.readFileSync(fresh))) {
    fs.rmSync(fresh);
    throw new ReleaseError(
      `${shown(zip)} holds other contents for ${version}: a released Go version never changes (its go.sum lines ` +
        'would break); give the module a new version in sdks/go (README "Changes" and client.go)',
    );
  }
  fs.renameSync(fresh, zip);
  fs.copyFileSync(path.join(source, 'go.mod'), path.join(dir, `${version}.mod`));
  const info = path.join(dir, `${version}.info`);
  // The time a version was first released stays its time.
  if (!fs.existsSync(info)) {
    const time = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    fs.writeFileSync(info, `${JSON.stringify({ Version: version, Time: time })}\n`);
  }
  const listFile = path.join(dir, 'list');
  const listed = fs.existsSync(listFile) ? fs.readFileSync(listFile, 'utf8').split('\n').filter(Boolean) : [];
  const versions = [...new Set([...listed, version])].sort(compareVersions);
  fs.writeFileSync(listFile, `${versions.join('\n')}\n`);
  for (const file of [listFile, info, path.join(dir, `${version}.mod`), zip]) say(`  made ${shown(file)}`);
  say(`  (${files.length} files; GOPROXY=file://${proxy} go get ${modulePath}@${version})`);
}

// --------------------------------------------------------------------------------------------------------- Rust

function releaseRust(out) {
  const source = path.join(SDKS, 'rust');
  const manifest = path.join(source, 'Cargo.toml');
  const [name, version] = [tomlValue(manifest, 'package', 'name'), tomlValue(manifest, 'package', 'version')];
  const dir = path.join(out, 'rust');
  fs.mkdirSync(dir, { recursive: true });
  say(`Rust: ${name} ${version}`);
  const cargo = binary('cargo', [path.join(process.env.CARGO_HOME ?? path.join(os.homedir(), '.cargo'), 'bin/cargo')]);
  if (!cargo) throw new ReleaseError("cargo was not found: install Debian's cargo (apt-get install cargo) or rustup");
  // Verified (cargo builds the packed crate), offline: sdks/rust/.cargo/config.toml points cargo at Debian's crates.
  // --allow-dirty: the crate is packed from the working tree, as the other SDKs are, committed or not.
  run(cargo, ['package', '--offline', '--allow-dirty'], {
    cwd: source,
    hint: "the crate builds from Debian's librust-*-dev packages, which sdks/rust/README.md lists",
  });
  const metadata = JSON.parse(
    run(cargo, ['metadata', '--format-version', '1', '--no-deps', '--offline'], { cwd: source }),
  );
  const crate = path.join(metadata.target_directory, 'package', `${name}-${version}.crate`);
  if (!fs.existsSync(crate)) throw new ReleaseError(`cargo package made no ${crate}`);
  const made = path.join(dir, path.basename(crate));
  fs.copyFileSync(crate, made);
  say(`  made ${shown(made)}`);
}

// ------------------------------------------------------------------------------------------------------- main

function main() {
  const settings = options(process.argv.slice(2));
  say(
    `Releasing the SDKs into ${shown(settings.out)}${
      settings.dryRun ? ' (dry run: nothing is published)' : `, publishing to ${settings.registry}`
    }`,
  );
  releaseNpm(settings);
  releasePython(settings.out);
  releaseGo(settings.out);
  releaseRust(settings.out);
  say('Done.');
}

try {
  main();
} catch (error) {
  if (!(error instanceof ReleaseError)) throw error;
  console.error(`release-sdks: ${error.message}`);
  process.exit(1);
}
