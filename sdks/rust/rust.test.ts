import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FakeOpenAI, fakeProviderEnv } from '../../tests/support/fakeOpenAI';
import { startFakeProviderControl, type FakeProviderControl } from '../../tests/support/fakeProviderControl';
import { isolatedRunSettings, startPlanControl, type PlanControl } from '../../tests/support/planControl';
import { lowPriority } from '../../tests/support/lowPriority';
import { startPlatform, type RunningPlatform } from '../../tests/support/platform';

/**
 * The Rust SDK (crate `kasa`, sdks/rust) against the built platform: this suite starts the gateway and services from
 * their built output with a fake OpenAI-compatible provider at the edge, then runs the crate's `cargo test --offline`
 * (unit tests and integration tests, built from Debian's librust-*-dev crates) and fails with cargo's output when
 * any Rust test fails.
 *
 * The Rust integration tests (tests/platform.rs) read the platform's address from KASA_BASE_URL (without it they
 * return at once, so that a plain `cargo test` in sdks/rust runs the unit tests alone), set the fake provider's
 * behaviour through KASA_FAKE_PROVIDER_URL, and move a new account to the Enterprise plan (sold by the sales team,
 * not the checkout) through KASA_PLAN_CONTROL_URL, a control here that sets the plan in auth's database.
 */
const SDK_DIR = __dirname;
const isolation = isolatedRunSettings('rust');

/** `cargo` from PATH, else where rustup installs it. */
function cargoBinary(): string {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  dirs.push(path.join(process.env.CARGO_HOME ?? path.join(os.homedir(), '.cargo'), 'bin'));
  for (const dir of dirs) {
    const candidate = path.join(dir, 'cargo');
    if (fs.existsSync(candidate)) return candidate;
  }
  return 'cargo';
}

/**
 * Where cargo builds: outside the source tree and outside node_modules (which `npm ci` empties), so that a later run
 * on the same machine reuses the compiled crates.
 */
const TARGET_DIR = process.env.CARGO_TARGET_DIR ?? path.join(os.tmpdir(), 'kasa-sdk-rust-target');

/** How long cargo test may run (a cold build included): less than the test's own timeout, so that its output shows. */
const CARGO_TEST_LIMIT_MS = 840_000;

/** Runs `cargo test --offline` to the end (or CARGO_TEST_LIMIT_MS) and gives its exit code and everything it printed. */
function runCargoTest(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(...lowPriority(cargoBinary(), ['test', '--offline', ...args]), {
      cwd: SDK_DIR,
      env: { ...process.env, ...env, CARGO_TARGET_DIR: TARGET_DIR, CARGO_TERM_COLOR: 'never' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => {
      output += `\n[killed: cargo test ran longer than ${CARGO_TEST_LIMIT_MS / 1000} s]`;
      child.kill('SIGKILL');
    }, CARGO_TEST_LIMIT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

let platform: RunningPlatform;
let provider: FakeOpenAI;
let control: FakeProviderControl;
let planControl: PlanControl;
/** The OpenAPI document's shapes (sdks/openapi-snapshot.js), which the SDK's contract tests compare its types with. */
let openApiSnapshot: string;

beforeAll(async () => {
  openApiSnapshot = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-openapi-')), 'snapshot.json');
  execFileSync(process.execPath, [path.resolve(__dirname, '../openapi-snapshot.js'), openApiSnapshot]);
  provider = await new FakeOpenAI().start();
  control = await startFakeProviderControl(provider);
  platform = await startPlatform({ ...fakeProviderEnv(provider), ...isolation });
  planControl = await startPlanControl(isolation);
}, 120_000);

afterAll(async () => {
  await platform?.stop();
  await provider?.stop();
  await control?.stop();
  await planControl?.stop();
  if (openApiSnapshot) fs.rmSync(path.dirname(openApiSnapshot), { recursive: true, force: true });
});

it('passes the Rust SDK’s unit and integration tests against the platform', async () => {
  // KASA_CARGO_TEST_ARGS narrows the run while working on the SDK (e.g. "--test platform stop -- --nocapture").
  const only = process.env.KASA_CARGO_TEST_ARGS?.split(' ').filter(Boolean) ?? [];
  const started = Date.now();
  const { code, output } = await runCargoTest(only, {
    KASA_BASE_URL: platform.baseUrl,
    KASA_FAKE_PROVIDER_URL: control.url,
    KASA_PLAN_CONTROL_URL: planControl.url,
    KASA_OPENAPI_SNAPSHOT: openApiSnapshot,
    // The tests choose their credentials; a key of the developer's environment must not leak into them.
    KASA_API_KEY: '',
  });
  if (code !== 0) {
    const logs = platform.logs.slice(-30).join('\n');
    throw new Error(`cargo test exited with ${code}:\n${output}\n--- the platform's last log lines ---\n${logs}`);
  }
  console.log(`cargo test took ${Math.round((Date.now() - started) / 1000)} s (target dir ${TARGET_DIR})`);
  if (only.length > 0) return;
  // Every test passed, none was ignored, and the integration tests (the reason for this suite) were among them.
  const passed = [...output.matchAll(/^test (\S+) \.\.\. ok$/gm)].map((m) => m[1]!);
  expect(output).not.toMatch(/^test \S+ \.\.\. ignored/m);
  expect(passed.filter((name) => name.startsWith('platform_')).length).toBeGreaterThan(20);
  expect(passed.filter((name) => !name.startsWith('platform_')).length).toBeGreaterThan(30);
  // The checks of the types against the OpenAPI document (tests/contract.rs) ran with the snapshot written here.
  expect(passed.filter((name) => name.startsWith('contract_')).length).toBeGreaterThanOrEqual(4);
}, 900_000);
