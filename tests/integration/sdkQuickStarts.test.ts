import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { API_KEY_PLACEHOLDER } from '../../frontends/developer/src/examples/examples';
import { fillPlaceholders, SDKS, type SdkEntry } from '../../frontends/developer/src/sdks/catalogue';
import { FakeOpenAI, fakeProviderEnv } from '../support/fakeOpenAI';
import { lowPriority } from '../support/lowPriority';
import { startPlatform, type RunningPlatform } from '../support/platform';

/**
 * The quick start of every SDK card in the developer portal (frontends/developer/src/sdks/catalogue.ts, shown on the
 * SDKs and Examples tabs), taken from the catalogue itself and run as a reader runs it against the built platform: the
 * platform's address where the portal puts its own, and a real API key in KASA_API_KEY. The JavaScript and Node.js
 * samples run with node against sdks/js, the Python one with Debian's python3 against sdks/python/src, the Go one with
 * `go run` in a module that replaces kasa-go with sdks/go, and the Rust one as sdks/rust/examples/quickstart.rs (the
 * card's text) with `cargo run --offline`; the React one, which needs a browser, is type-checked under --strict.
 */
const ROOT = path.resolve(__dirname, '../..');
/** What the fake provider answers; the samples that chat print it token by token. */
const REPLY = 'Akwaaba! I can plan a weekend in Kumasi with you.';
/** The question the chatting samples ask. */
const QUESTION = 'Akwaaba! What can you do?';
/** Where `npm start` serves the platform: the Rust example's address when KASA_BASE_URL is not set. */
const RUST_EXAMPLE_BASE_URL = 'http://localhost:8080';
const RUST_EXAMPLE = path.join(ROOT, 'sdks/rust/examples/quickstart.rs');
/** Where cargo builds (as sdks/rust/rust.test.ts), so that the crates that suite compiled are reused. */
const CARGO_TARGET_DIR = process.env.CARGO_TARGET_DIR ?? path.join(os.tmpdir(), 'kasa-sdk-rust-target');
/** A compile that takes longer than this is killed and reported (a cold Rust build is the slow one). */
const COMPILE_LIMIT_MS = 540_000;

let platform: RunningPlatform;
let provider: FakeOpenAI;
let apiKey: string;
let personaNames: string[];
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-quick-starts-'));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to its end (or `timeoutMs`) and gives its exit code and what it printed; at the lowest CPU priority,
 * since most of them compile (go run, cargo run, tsc).
 */
function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs = 60_000): Promise<Run> {
  const [niced, nicedArgs] = lowPriority(command, args);
  return new Promise((resolve) => {
    execFile(
      niced,
      nicedArgs,
      { cwd, env, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout, stderr: error?.killed ? `${stderr}\n[killed after ${timeoutMs} ms]` : stderr });
      },
    );
  });
}

/** `name` from PATH, else the first of `fallbacks` that exists (where go's archive and rustup install). */
function binary(name: string, fallbacks: string[]): string {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  for (const candidate of [...dirs.map((dir) => path.join(dir, name)), ...fallbacks])
    if (fs.existsSync(candidate)) return candidate;
  return name;
}
const GO = binary('go', ['/usr/local/go/bin/go']);
const GOFMT = binary('gofmt', ['/usr/local/go/bin/gofmt']);
const CARGO_BIN = path.join(process.env.CARGO_HOME ?? path.join(os.homedir(), '.cargo'), 'bin');
const CARGO = binary('cargo', [path.join(CARGO_BIN, 'cargo')]);
const RUSTFMT = binary('rustfmt', [path.join(CARGO_BIN, 'rustfmt')]);

/** The environment a reader runs a sample in: theirs, with the key they set and no other Kasa setting. */
function readerEnv(key: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, KASA_API_KEY: key, ...extra };
  if (!('KASA_BASE_URL' in extra)) delete env.KASA_BASE_URL;
  return env;
}

/** A fresh folder under the suite's own. */
function folder(name: string): string {
  const dir = path.join(workDir, `${name}-${randomUUID().slice(0, 8)}`);
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** Links `node_modules/<name>` in `dir` to `target`. */
function link(dir: string, name: string, target: string): void {
  const at = path.join(dir, 'node_modules', name);
  fs.mkdirSync(path.dirname(at), { recursive: true });
  fs.symlinkSync(target, at, 'dir');
}

const card = (id: string): SdkEntry => {
  const found = SDKS.find((sdk) => sdk.id === id);
  if (!found) throw new Error(`the SDK catalogue has no ${id} card`);
  return found;
};

/** The card's quick start as the portal shows it, with `baseUrl` for the portal's address. */
const sample = (id: string, baseUrl = platform.baseUrl) =>
  fillPlaceholders(card(id).quickStart, { baseUrl, apiKey: API_KEY_PLACEHOLDER });

/** The file a quick start says to save it as, on its first line (`// kasa.mjs: …`, `# quickstart.py: …`). */
function fileNameOf(id: string, source: string): string {
  const fileName = /^(?:\/\/|#) ([\w.-]+\.\w+):/.exec(source)?.[1];
  if (!fileName) throw new Error(`the ${id} quick start does not say which file to save it as`);
  return fileName;
}

/** A JavaScript card, saved as it says (`.mjs`: an ES module) and run with node. */
function runJavaScript(id: string, key: string, baseUrl?: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const source = sample(id, baseUrl);
  const fileName = fileNameOf(id, source);
  const dir = folder(id);
  link(dir, '@kasa/sdk', path.join(ROOT, 'sdks/js'));
  fs.writeFileSync(path.join(dir, fileName), source);
  return run(process.execPath, [fileName], dir, readerEnv(key, env));
}

function runPython(key: string, baseUrl?: string, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const source = sample('python', baseUrl);
  const fileName = fileNameOf('python', source);
  const dir = folder('python');
  fs.writeFileSync(path.join(dir, fileName), source);
  // Debian's python3, which has httpx (the SDK's one dependency); the SDK from the repository.
  return run(
    '/usr/bin/python3',
    [fileName],
    dir,
    readerEnv(key, { PYTHONPATH: path.join(ROOT, 'sdks/python/src'), PYTHONDONTWRITEBYTECODE: '1', ...env }),
  );
}

const goEnv = (key: string): NodeJS.ProcessEnv =>
  readerEnv(key, {
    // kasa-go has no dependencies: nothing is downloaded, and go.sum is not needed.
    GOFLAGS: '-mod=mod',
    GOPROXY: 'off',
    // The Go found here builds it (go.mod asks for 1.22 or later) instead of fetching another toolchain.
    GOTOOLCHAIN: process.env.GOTOOLCHAIN ?? 'local',
  });

/** A module of the reader's with the card's main.go, kasa-go replaced by sdks/go (the card's install command). */
function goModule(): string {
  const dir = folder('go');
  const goMod = [
    'module example.com/quickstart',
    '',
    'go 1.22',
    '',
    `require ${card('go').packageName} v${card('go').version}`,
    '',
    `replace ${card('go').packageName} => ${path.join(ROOT, 'sdks/go')}`,
    '',
  ];
  fs.writeFileSync(path.join(dir, 'go.mod'), goMod.join('\n'));
  fs.writeFileSync(path.join(dir, fileNameOf('go', sample('go'))), `${sample('go')}\n`);
  return dir;
}

const cargoEnv = (key: string): NodeJS.ProcessEnv =>
  readerEnv(key, { KASA_BASE_URL: platform.baseUrl, CARGO_TARGET_DIR, CARGO_TERM_COLOR: 'never' });

const runRustExample = (key: string, timeoutMs: number) =>
  run(
    CARGO,
    ['run', '--offline', '--quiet', '--example', 'quickstart'],
    path.join(ROOT, 'sdks/rust'),
    cargoEnv(key),
    timeoutMs,
  );

async function post<T>(url: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(`${platform.baseUrl}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** What a sample printed and the platform's last log lines, for a failing expectation to show. */
const explain = (result: Run) =>
  `exit ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}\n--- platform\n${platform.logs
    .slice(-20)
    .join('\n')}`;

/** A key in the right shape that the platform does not know. */
const REFUSED_KEY = `ksk_${'x'.repeat(43)}`;
/** What each SDK's error says when the key is refused: the status and the API's code. */
const REFUSED = [/\b401\b/, /\bunauthenticated\b/];

/** The user's question reached the provider (the sample asked it), and the sample printed the reply it streamed. */
function expectReply(result: Run): void {
  expect({ code: result.code, reply: result.stdout.trim() }).toEqual({ code: 0, reply: REPLY });
  const asked = provider.requests.some((request) =>
    request.body.messages.some((message) => message.role === 'user' && message.content === QUESTION),
  );
  expect(asked).toBe(true);
}

beforeAll(async () => {
  provider = await new FakeOpenAI().start();
  provider.mode = { kind: 'ok', text: REPLY };
  platform = await startPlatform(fakeProviderEnv(provider));
  const id = randomUUID().slice(0, 8);
  const { token } = await post<{ token: string }>('/api/auth/register', {
    username: `kofi_${id}`,
    email: `kofi.${id}@example.com`,
    password: 'adinkra-code',
  });
  ({ secret: apiKey } = await post<{ secret: string }>(
    '/api/developer/keys',
    { name: 'Quick starts', scopes: ['chat'] },
    token,
  ));
  const personas = await fetch(`${platform.baseUrl}/api/personas`, { headers: { authorization: `Bearer ${apiKey}` } });
  personaNames = ((await personas.json()) as Array<{ name: string }>).map((p) => p.name);
}, 120_000);

afterAll(async () => {
  await platform?.stop();
  await provider?.stop();
  fs.rmSync(workDir, { recursive: true, force: true });
});

beforeEach(() => {
  provider.requests.length = 0;
});

describe('the SDK cards’ quick starts', () => {
  it('are each run here, and read the key from KASA_API_KEY unless they run in a browser', () => {
    expect(SDKS.map((sdk) => sdk.id).sort()).toEqual(['go', 'javascript', 'node', 'python', 'react', 'rust']);
    for (const sdk of SDKS) {
      expect(sdk.quickStart).toContain('{{BASE_URL}}');
      if (sdk.id === 'react') continue;
      expect(sdk.quickStart).toContain('KASA_API_KEY');
      expect(sdk.quickStart).not.toContain('{{API_KEY}}');
    }
  });

  describe('JavaScript and Node.js', () => {
    it('JavaScript lists the names of the personas', async () => {
      const result = await runJavaScript('javascript', apiKey);
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      expect(personaNames.length).toBeGreaterThan(0);
      for (const name of personaNames) expect(result.stdout).toContain(`'${name}'`);
    });

    it('Node.js counts the personas', async () => {
      const result = await runJavaScript('node', apiKey);
      expect({ code: result.code, stderr: result.stderr, stdout: result.stdout }).toEqual({
        code: 0,
        stderr: '',
        stdout: `${personaNames.length} personas\n`,
      });
    });

    it.each(['javascript', 'node'])('%s calls KASA_BASE_URL when it is set', async (id) => {
      const result = await runJavaScript(id, apiKey, 'http://127.0.0.1:9', { KASA_BASE_URL: platform.baseUrl });
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      expect(result.stdout).toContain(id === 'node' ? `${personaNames.length} personas` : `'${personaNames[0]}'`);
    });

    it.each(['javascript', 'node'])('%s fails when the key is refused', async (id) => {
      const result = await runJavaScript(id, REFUSED_KEY);
      expect(result.code).not.toBe(0);
      for (const said of REFUSED) expect(result.stderr).toMatch(said);
    });
  });

  describe('Python', () => {
    it('creates a session and prints the streamed reply', async () => {
      const result = await runPython(apiKey);
      expect(result.stderr).toBe('');
      expectReply(result);
    });

    it('calls KASA_BASE_URL when it is set', async () => {
      const result = await runPython(apiKey, 'http://127.0.0.1:9', { KASA_BASE_URL: platform.baseUrl });
      if (result.code !== 0) throw new Error(explain(result));
      expectReply(result);
    });

    it('fails when the key is refused', async () => {
      const result = await runPython(REFUSED_KEY);
      expect(result.code).not.toBe(0);
      for (const said of REFUSED) expect(result.stderr).toMatch(said);
    });
  });

  describe('Go', () => {
    let dir: string;
    beforeAll(() => {
      dir = goModule();
    });

    it('is formatted as gofmt formats it', async () => {
      const result = await run(GOFMT, ['-l', '.'], dir, goEnv(apiKey));
      expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
    });

    it('creates a session and prints the streamed reply (go run)', async () => {
      const result = await run(GO, ['run', '.'], dir, goEnv(apiKey), COMPILE_LIMIT_MS);
      if (result.code !== 0) throw new Error(explain(result));
      expectReply(result);
    }, 600_000);

    it('fails when the key is refused', async () => {
      const result = await run(GO, ['run', '.'], dir, goEnv(REFUSED_KEY), COMPILE_LIMIT_MS);
      expect(result.code).not.toBe(0);
      for (const said of REFUSED) expect(result.stderr).toMatch(said);
    }, 600_000);
  });

  describe('Rust', () => {
    it('is sdks/rust/examples/quickstart.rs, with the address `npm start` serves', () => {
      const example = fs.readFileSync(RUST_EXAMPLE, 'utf8');
      // The file opens with a comment on what it is; the rest is the card's text.
      const code = example.replace(/^(?:\/\/.*\n)+\n/, '');
      expect(code).not.toBe(example);
      expect(code).toBe(`${sample('rust', RUST_EXAMPLE_BASE_URL)}\n`);
    });

    it('is formatted as the crate’s rustfmt.toml says (cargo fmt leaves it as the card has it)', async () => {
      const result = await run(RUSTFMT, ['--check', '--edition', '2021', RUST_EXAMPLE], ROOT, process.env);
      expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
    });

    it('creates a session and prints the streamed reply (cargo run --example quickstart)', async () => {
      const result = await runRustExample(apiKey, COMPILE_LIMIT_MS);
      if (result.code !== 0) throw new Error(explain(result));
      expectReply(result);
    }, 600_000);

    it('fails when the key is refused', async () => {
      const result = await runRustExample(REFUSED_KEY, COMPILE_LIMIT_MS);
      expect(result.code).not.toBe(0);
      for (const said of REFUSED) expect(result.stderr).toMatch(said);
    }, 600_000);
  });

  describe('React', () => {
    it('type-checks under --strict against @kasa/react, @kasa/sdk and React’s types', async () => {
      const dir = folder('react');
      link(dir, '@kasa/sdk', path.join(ROOT, 'sdks/js'));
      link(dir, '@kasa/react', path.join(ROOT, 'sdks/react'));
      for (const peer of ['react', 'react-dom', '@tanstack/react-query', '@types/react'])
        link(dir, peer, path.join(ROOT, 'node_modules', peer));
      fs.writeFileSync(path.join(dir, 'App.tsx'), sample('react'));
      const tsconfig = {
        compilerOptions: {
          strict: true,
          noEmit: true,
          jsx: 'react-jsx',
          // An app compiled as CommonJS: the packages' `require` builds (tsc -b builds no ES module one of @kasa/react).
          module: 'node16',
          moduleResolution: 'node16',
          target: 'es2022',
          lib: ['es2022', 'dom'],
          types: [],
          noUnusedLocals: true,
        },
        files: ['App.tsx'],
      };
      fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
      const tsc = path.join(ROOT, 'node_modules/typescript/bin/tsc');
      const result = await run(process.execPath, [tsc, '-p', 'tsconfig.json'], dir, process.env, 120_000);
      expect({ code: result.code, output: `${result.stdout}${result.stderr}` }).toEqual({ code: 0, output: '' });
    }, 150_000);
  });
});
