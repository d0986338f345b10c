import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { API_KEY_PLACEHOLDER } from '../../frontends/developer/src/examples/examples';
import { fillPlaceholders, SDKS, type SdkEntry } from '../../frontends/developer/src/sdks/catalogue';
import { freeApiKey } from '../support/accounts';
import { FakeOpenAI, fakeProviderEnv } from '../support/fakeOpenAI';
import { npmEnv, startNpmRegistry, type NpmRegistry } from '../support/npmRegistry';
import { startPlatform, type RunningPlatform } from '../support/platform';
import { CARGO_BINARY, describeRun, GO_BINARY, runProgram, type ProgramRun } from '../support/programs';

/**
 * The SDKs as a stranger gets them from a release: `npm run release:sdks` (scripts/release-sdks.js) run against a
 * Verdaccio npm registry started here, then each package installed from what the release made, in empty projects
 * outside the repository, and the developer portal's quick starts (frontends/developer/src/sdks/catalogue.ts) run
 * with them against the built platform: @kasa/sdk and @kasa/react from the registry, the Python wheel in a fresh
 * virtual environment, kasa-go by its version through the Go module proxy folder, and the Rust crate as packed.
 * Nothing is downloaded: the registry has no uplinks, React comes from this repository's node_modules, httpx from
 * Debian's python3-httpx, and kasa-go needs no other module.
 */
const ROOT = path.resolve(__dirname, '../..');
const RELEASE = path.join(ROOT, 'scripts/release-sdks.js');
/** The system's python3: Debian's, with python3-venv and python3-httpx (a pyenv python3 may come first on PATH). */
const PYTHON = '/usr/bin/python3';
/**
 * Where cargo verifies the packed crate: a target folder of this suite's own, kept between runs, since the Rust suites
 * hold theirs locked while they build and run (it starts cold once: about a minute of compiling at nice 19).
 */
const CARGO_TARGET_DIR = path.join(os.tmpdir(), 'kasa-sdk-release-target');
/** What the fake provider answers; the quick starts that chat print it token by token. */
const REPLY = 'Akwaaba! I can plan a weekend in Kumasi with you.';
const QUESTION = 'Akwaaba! What can you do?';

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-sdk-release-'));
const out = path.join(work, 'dist');
let registry: NpmRegistry;
let platform: RunningPlatform;
let provider: FakeOpenAI;
let apiKey: string;
let personaNames: string[];
let release: ProgramRun;

const card = (id: string): SdkEntry => {
  const found = SDKS.find((sdk) => sdk.id === id);
  if (!found) throw new Error(`the SDK catalogue has no ${id} card`);
  return found;
};

/** A card's quick start as the portal shows it, with the platform's address for the portal's own. */
const sample = (id: string) =>
  fillPlaceholders(card(id).quickStart, { baseUrl: platform.baseUrl, apiKey: API_KEY_PLACEHOLDER });

/** The arguments of a card's install command, which runs `tool`. */
function installArgs(id: string, tool: string): string[] {
  const [command, ...args] = card(id).installCommand.split(' ');
  expect(command).toBe(tool);
  return args;
}

/** The file a quick start says to save it as, on its first line (`// kasa.mjs: …`, `# quickstart.py: …`). */
function fileNameOf(id: string): string {
  const fileName = /^(?:\/\/|#) ([\w.-]+\.\w+):/.exec(sample(id))?.[1];
  if (!fileName) throw new Error(`the ${id} quick start does not say which file to save it as`);
  return fileName;
}

/** A fresh folder under the suite's own. */
function folder(name: string): string {
  const dir = path.join(work, `${name}-${randomUUID().slice(0, 8)}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** The environment a reader runs a sample in: theirs, with the key they set and no other Kasa setting. */
function readerEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, KASA_API_KEY: apiKey, ...extra };
  delete env.KASA_BASE_URL;
  return env;
}

/** Runs a program and fails the test with everything it printed when it exits non-zero. */
async function succeed(
  what: string,
  command: string,
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<ProgramRun> {
  const result = await runProgram(command, args, options);
  if (result.code !== 0) throw new Error(describeRun(what, result));
  return result;
}

/** The quick start asked the fake provider the question and printed the reply it streamed. */
function expectReply(result: ProgramRun): void {
  expect({ code: result.code, stderr: result.stderr, reply: result.stdout.trim() }).toEqual({
    code: 0,
    stderr: '',
    reply: REPLY,
  });
  const asked = provider.requests.some((request) =>
    request.body.messages.some((message) => message.role === 'user' && message.content === QUESTION),
  );
  expect(asked).toBe(true);
}

/** `npm run release:sdks` into the suite's folder, publishing to its registry with the token of its npm config. */
const runRelease = () =>
  runProgram(process.execPath, [RELEASE, '--registry', registry.url, '--out', out], {
    cwd: ROOT,
    env: npmEnv(registry.npmrc, { ...process.env, CARGO_TARGET_DIR }),
    timeoutMs: 300_000,
  });

/** Fails with the Debian package to install when a tool the suite needs is missing. */
function requireTools(): void {
  const missing: string[] = [];
  if (!GO_BINARY) missing.push('go: Go 1.22 or later (Debian: golang-go from bookworm-backports, or go.dev/dl)');
  if (!CARGO_BINARY) missing.push("cargo: Debian's cargo, or rustup");
  if (!fs.existsSync(PYTHON)) missing.push(`${PYTHON}: Debian's python3`);
  else
    // Debian's python3 has venv without ensurepip, which python3-venv adds.
    for (const [pythonModule, pkg] of [
      ['ensurepip', 'python3-venv'],
      ['build', 'python3-build'],
      ['httpx', 'python3-httpx'],
    ]) {
      try {
        execFileSync(PYTHON, ['-c', `import ${pythonModule}`], { stdio: 'ignore' });
      } catch {
        missing.push(`python3's ${pythonModule} module: Debian's ${pkg}`);
      }
    }
  if (missing.length) throw new Error(`the SDK release suite needs:\n- ${missing.join('\n- ')}`);
}

beforeAll(async () => {
  requireTools();
  provider = await new FakeOpenAI().start();
  provider.mode = { kind: 'ok', text: REPLY };
  registry = await startNpmRegistry();
  // The release (cargo's verification is most of it) runs while the platform starts.
  const releasing = runRelease();
  platform = await startPlatform(fakeProviderEnv(provider));
  apiKey = await freeApiKey(platform.baseUrl, 'ama', 'Release');
  const personas = await fetch(`${platform.baseUrl}/api/personas`, { headers: { authorization: `Bearer ${apiKey}` } });
  personaNames = ((await personas.json()) as Array<{ name: string }>).map((persona) => persona.name);
  release = await releasing;
  if (release.code !== 0) throw new Error(describeRun('npm run release:sdks', release));
}, 330_000);

afterAll(async () => {
  await platform?.stop();
  await registry?.stop();
  await provider?.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

beforeEach(() => {
  provider.requests.length = 0;
});

describe('npm run release:sdks', () => {
  it('says what it made and published for each SDK', () => {
    const said = release.stdout;
    for (const line of [
      `published @kasa/sdk@${card('javascript').version} to ${registry.url}`,
      `published @kasa/react@${card('react').version} to ${registry.url}`,
      `made ${out}/python/kasa-${card('python').version}-py3-none-any.whl`,
      `made ${out}/python/kasa-${card('python').version}.tar.gz`,
      `made ${out}/goproxy/github.com/kasa-ai/kasa-go/@v/v${card('go').version}.zip`,
      `made ${out}/rust/kasa-${card('rust').version}.crate`,
    ])
      expect(said).toContain(line);
  });

  it('publishes @kasa/react with its peer dependency on the @kasa/sdk it published', async () => {
    const res = await fetch(`${registry.url}@kasa%2freact`);
    expect(res.status).toBe(200);
    const packument = (await res.json()) as {
      versions: Record<string, { peerDependencies?: Record<string, string> }>;
    };
    expect(Object.keys(packument.versions)).toEqual([card('react').version]);
    expect(packument.versions[card('react').version]!.peerDependencies).toMatchObject({
      '@kasa/sdk': `^${card('javascript').version}`,
    });
  });

  it('publishes nothing again when the same versions are released again, and makes the same Go module', async () => {
    const zip = path.join(out, 'goproxy/github.com/kasa-ai/kasa-go/@v', `v${card('go').version}.zip`);
    const before = fs.readFileSync(zip);
    const again = await runRelease();
    if (again.code !== 0) throw new Error(describeRun('npm run release:sdks (again)', again));
    expect(again.stdout).toContain(`@kasa/sdk@${card('javascript').version} is on ${registry.url} already`);
    expect(again.stdout).toContain(`@kasa/react@${card('react').version} is on ${registry.url} already`);
    expect(fs.readFileSync(zip).equals(before)).toBe(true);
    const list = fs.readFileSync(path.join(path.dirname(zip), 'list'), 'utf8');
    expect(list).toBe(`v${card('go').version}\n`);
  }, 330_000);
});

describe('installed from the npm registry', () => {
  let project: string;
  const npmInstall = (args: string[]) =>
    succeed(`npm ${args.join(' ')}`, 'npm', args, {
      cwd: project,
      env: npmEnv(registry.npmrc),
      timeoutMs: 120_000,
    });
  /** Where the project's lockfile says a package came from. */
  const resolvedFrom = (name: string) =>
    (
      JSON.parse(fs.readFileSync(path.join(project, 'package-lock.json'), 'utf8')) as {
        packages: Record<string, { version?: string; resolved?: string }>;
      }
    ).packages[`node_modules/${name}`];

  beforeAll(async () => {
    project = folder('npm-project');
    fs.writeFileSync(
      path.join(project, 'package.json'),
      `${JSON.stringify({ name: 'kasa-consumer', version: '1.0.0', private: true }, null, 2)}\n`,
    );
    // The card's command, with the registry the release published to as npm's (as sdks/README.md says to set it).
    await npmInstall(installArgs('javascript', 'npm'));
  }, 150_000);

  it('@kasa/sdk comes from the registry, at the version its card names', () => {
    const { version } = card('javascript');
    expect(card('node').installCommand).toBe(card('javascript').installCommand);
    expect(resolvedFrom('@kasa/sdk')).toMatchObject({
      version,
      resolved: `${registry.url}@kasa/sdk/-/sdk-${version}.tgz`,
      integrity: expect.stringMatching(/^sha512-/),
    });
    expect(fs.lstatSync(path.join(project, 'node_modules/@kasa/sdk')).isSymbolicLink()).toBe(false);
  });

  it.each(['javascript', 'node'])('runs the %s quick start against the platform', async (id) => {
    fs.writeFileSync(path.join(project, fileNameOf(id)), sample(id));
    const result = await runProgram(process.execPath, [fileNameOf(id)], { cwd: project, env: readerEnv() });
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(personaNames.length).toBeGreaterThan(0);
    if (id === 'node') expect(result.stdout).toBe(`${personaNames.length} personas\n`);
    else for (const name of personaNames) expect(result.stdout).toContain(`'${name}'`);
  });

  it('@kasa/react installs from the registry with React from this repository, and renders with the SDK', async () => {
    // The peers a React app has already, as folders of this repository's node_modules: nothing comes from the internet.
    const manifestFile = path.join(project, 'package.json');
    const manifest = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as { dependencies: Record<string, string> };
    for (const peer of ['react', 'react-dom', '@tanstack/react-query'])
      manifest.dependencies[peer] = `file:${path.join(ROOT, 'node_modules', peer)}`;
    fs.writeFileSync(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`);
    await npmInstall(['install', '@kasa/react']);
    expect(resolvedFrom('@kasa/react')).toMatchObject({
      version: card('react').version,
      resolved: `${registry.url}@kasa/react/-/react-${card('react').version}.tgz`,
    });

    const check = `import { Kasa } from '@kasa/sdk';
import { KasaProvider, useKasa, usePersonas } from '@kasa/react';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { createRequire } from 'node:module';

const kasa = new Kasa({ baseUrl: 'http://127.0.0.1:1' });
function Probe() {
  return createElement('span', null, useKasa() === kasa ? 'the provider’s client' : 'another client');
}
const require = createRequire(import.meta.url);
console.log(JSON.stringify({
  html: renderToString(createElement(KasaProvider, { client: kasa }, createElement(Probe))),
  hooks: typeof usePersonas,
  cjs: Object.keys(require('@kasa/react')).includes('KasaProvider'),
}));
`;
    fs.writeFileSync(path.join(project, 'react-check.mjs'), check);
    const result = await succeed('the @kasa/react check', process.execPath, ['react-check.mjs'], { cwd: project });
    expect(JSON.parse(result.stdout)).toEqual({
      html: '<span>the provider’s client</span>',
      hooks: 'function',
      cjs: true,
    });
  }, 150_000);
});

describe('the Python wheel, in a fresh virtual environment', () => {
  let python: string;
  const { version } = card('python');

  beforeAll(async () => {
    const venv = path.join(folder('python'), 'venv');
    // Debian's httpx (python3-httpx) from the system's packages: pip needs no index.
    await succeed('python3 -m venv', PYTHON, ['-m', 'venv', '--system-site-packages', venv], { cwd: work });
    python = path.join(venv, 'bin', 'python');
    // The card's command, where the release put the wheel.
    const [install, ...wheel] = installArgs('python', 'pip');
    await succeed(
      'pip install',
      python,
      ['-m', 'pip', install!, '--no-index', '--disable-pip-version-check', ...wheel],
      {
        cwd: path.join(out, 'python'),
        timeoutMs: 120_000,
      },
    );
  }, 150_000);

  it('installs kasa at the version its card names, beside the sdist', async () => {
    expect(fs.existsSync(path.join(out, 'python', `kasa-${version}.tar.gz`))).toBe(true);
    const env: NodeJS.ProcessEnv = { ...process.env, PYTHONDONTWRITEBYTECODE: '1' };
    delete env.PYTHONPATH;
    const result = await succeed(
      'import kasa',
      python,
      ['-c', 'import json, kasa; print(json.dumps([kasa.__version__, kasa.__file__]))'],
      { cwd: work, env },
    );
    const [installed, file] = JSON.parse(result.stdout) as [string, string];
    expect(installed).toBe(version);
    expect(file.startsWith(path.dirname(path.dirname(python)))).toBe(true);
  });

  it('runs the Python quick start against the platform', async () => {
    const dir = folder('python-quick-start');
    fs.writeFileSync(path.join(dir, fileNameOf('python')), sample('python'));
    const env = readerEnv({ PYTHONDONTWRITEBYTECODE: '1' });
    delete env.PYTHONPATH;
    expectReply(await runProgram(python, [fileNameOf('python')], { cwd: dir, env }));
  });
});

describe('kasa-go, by its version from the Go module proxy folder', () => {
  let dir: string;
  let goEnv: NodeJS.ProcessEnv;
  const modulePath = card('go').packageName;
  const version = `v${card('go').version}`;

  beforeAll(async () => {
    dir = folder('go');
    const gopath = folder('gopath');
    goEnv = readerEnv({
      GOPROXY: `file://${path.join(out, 'goproxy')}`,
      // The checksum database does not know a module of a private proxy; go.sum records its hash.
      GONOSUMDB: modulePath,
      GOPRIVATE: '',
      GONOPROXY: '',
      GOPATH: gopath,
      GOMODCACHE: path.join(gopath, 'pkg', 'mod'),
      // Writable, so that the suite's folder can be removed.
      GOFLAGS: '-mod=mod -modcacherw',
      // The Go found here builds it (go.mod asks for 1.22 or later) instead of fetching another toolchain.
      GOTOOLCHAIN: 'local',
    });
    fs.writeFileSync(path.join(dir, 'go.mod'), 'module example.com/quickstart\n\ngo 1.22\n');
    fs.writeFileSync(path.join(dir, fileNameOf('go')), `${sample('go')}\n`);
    // The card's command.
    expect(card('go').installCommand).toBe(`go get ${modulePath}@${version}`);
    await succeed(card('go').installCommand, GO_BINARY!, installArgs('go', 'go'), {
      cwd: dir,
      env: goEnv,
      timeoutMs: 120_000,
    });
  }, 150_000);

  it('resolves the module from the proxy, not from a replace', async () => {
    const result = await succeed('go list -m', GO_BINARY!, ['list', '-m', '-json', modulePath], {
      cwd: dir,
      env: goEnv,
    });
    const listed = JSON.parse(result.stdout) as { Version: string; Dir: string; Replace?: unknown };
    expect(listed).toMatchObject({ Version: version, Dir: path.join(goEnv.GOMODCACHE!, `${modulePath}@${version}`) });
    expect(listed.Replace).toBeUndefined();
    expect(fs.readFileSync(path.join(dir, 'go.sum'), 'utf8')).toContain(`${modulePath} ${version} h1:`);
  });

  it('builds the Go quick start and runs it against the platform', async () => {
    await succeed('go build', GO_BINARY!, ['build', '-o', 'quickstart', '.'], {
      cwd: dir,
      env: goEnv,
      timeoutMs: 240_000,
    });
    expectReply(await runProgram(path.join(dir, 'quickstart'), [], { cwd: dir, env: goEnv }));
  }, 270_000);
});

describe('the Rust crate', () => {
  it('is packed by cargo package with the crate’s sources and without the repository’s tooling', async () => {
    const { version } = card('rust');
    const crate = path.join(out, 'rust', `kasa-${version}.crate`);
    const listed = await succeed('tar -tzf', 'tar', ['-tzf', crate], { cwd: work });
    const files = listed.stdout.split('\n').filter(Boolean);
    for (const file of ['Cargo.toml', 'Cargo.lock', 'README.md', 'src/lib.rs', 'examples/quickstart.rs'])
      expect(files).toContain(`kasa-${version}/${file}`);
    for (const file of ['.cargo/config.toml', 'rust.test.ts', 'tsconfig.typecheck.json'])
      expect(files).not.toContain(`kasa-${version}/${file}`);
  });
});
