import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FakeOpenAI, fakeProviderEnv } from '../../tests/support/fakeOpenAI';
import { startFakeProviderControl, type FakeProviderControl } from '../../tests/support/fakeProviderControl';
import { isolatedRunSettings, startPlanControl, type PlanControl } from '../../tests/support/planControl';
import { startPlatform, type RunningPlatform } from '../../tests/support/platform';

/**
 * The Python SDK (`kasa`, sdks/python) against the built platform: this suite starts the gateway and services from
 * their built output with a fake OpenAI-compatible provider at the edge, then runs the package's pytest suite (unit
 * tests and integration tests) with Debian's python3 and fails with pytest's output when any Python test fails.
 *
 * The Python tests set the fake provider's behaviour (a long reply, an endless one) and read whether the platform
 * hung up on it through a small control server (tests/support/fakeProviderControl.ts, at KASA_FAKE_PROVIDER_URL), and
 * move a new account to the Enterprise plan (sold by the sales team, not the checkout) for the video tests through
 * KASA_PLAN_CONTROL_URL, a control here that sets the plan in auth's database.
 */
const ROOT = path.resolve(__dirname, '../..');
const PYTHON = '/usr/bin/python3';
const isolation = isolatedRunSettings('python');

let platform: RunningPlatform;
let provider: FakeOpenAI;
let control: FakeProviderControl;
let planControl: PlanControl;
/** The OpenAPI document's shapes (sdks/openapi-snapshot.js), which the SDK's contract tests compare its types with. */
let openApiSnapshot: string;

/** How long pytest may run: less than the test's own timeout, so that a hung run is killed and its output shown. */
const PYTEST_LIMIT_MS = 540_000;

/** Runs pytest to the end (or PYTEST_LIMIT_MS) and gives its exit code and everything it printed. */
function runPytest(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, ['-m', 'pytest', 'sdks/python/tests', '-q', '-p', 'no:cacheprovider', ...args], {
      cwd: ROOT,
      // No .pyc files in the working tree.
      env: { ...process.env, ...env, PYTHONDONTWRITEBYTECODE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => {
      output += `\n[killed: pytest ran longer than ${PYTEST_LIMIT_MS / 1000} s]`;
      child.kill('SIGKILL');
    }, PYTEST_LIMIT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

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

it('passes the Python SDK’s unit and integration tests against the platform', async () => {
  const reportDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-pytest-'));
  const report = path.join(reportDir, 'report.xml');
  try {
    // KASA_PYTEST_ARGS narrows the run while working on the SDK (e.g. "-k resumable -x").
    const only = process.env.KASA_PYTEST_ARGS?.split(' ').filter(Boolean) ?? [];
    const { code, output } = await runPytest([`--junitxml=${report}`, ...only], {
      KASA_BASE_URL: platform.baseUrl,
      KASA_FAKE_PROVIDER_URL: control.url,
      KASA_PLAN_CONTROL_URL: planControl.url,
      KASA_OPENAPI_SNAPSHOT: openApiSnapshot,
    });
    if (code !== 0) {
      const logs = platform.logs.slice(-30).join('\n');
      throw new Error(`pytest exited with ${code}:\n${output}\n--- the platform's last log lines ---\n${logs}`);
    }
    if (only.length > 0) return;
    // Every test ran, none skipped, and the integration tests (the reason for this suite) were among them.
    const xml = fs.readFileSync(report, 'utf8');
    const cases = [...xml.matchAll(/<testcase classname="([^"]+)"/g)].map((m) => m[1]!);
    expect(cases.filter((name) => name.startsWith('tests.integration.')).length).toBeGreaterThan(10);
    expect(cases.filter((name) => name.startsWith('tests.unit.')).length).toBeGreaterThan(10);
    expect(xml).not.toMatch(/<skipped/);
    // The checks of the types against the OpenAPI document (tests/unit/test_contract_types.py).
    expect(cases.filter((name) => name === 'tests.unit.test_contract_types').length).toBeGreaterThan(20);
  } finally {
    fs.rmSync(reportDir, { recursive: true, force: true });
  }
}, 600_000);
