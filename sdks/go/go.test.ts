import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FakeOpenAI, fakeProviderEnv } from '../../tests/support/fakeOpenAI';
import { startFakeProviderControl, type FakeProviderControl } from '../../tests/support/fakeProviderControl';
import { isolatedRunSettings, startPlanControl, type PlanControl } from '../../tests/support/planControl';
import { lowPriority } from '../../tests/support/lowPriority';
import { startPlatform, type RunningPlatform } from '../../tests/support/platform';

/**
 * The Go SDK (`github.com/kasa-ai/kasa-go`, sdks/go) against the built platform: this suite starts the gateway and
 * services from their built output with a fake OpenAI-compatible provider at the edge, then runs the module's
 * `go test` (unit tests and integration tests) and fails with go's output when any Go test fails.
 *
 * The Go integration tests read the platform's address from KASA_BASE_URL (without it they skip, so that a plain
 * `go test ./...` in sdks/go runs the unit tests alone), set the fake provider's behaviour (a long reply, an endless
 * one) through KASA_FAKE_PROVIDER_URL, and move a new account to the Enterprise plan (sold by the sales team, not the
 * checkout) for the video tests through KASA_PLAN_CONTROL_URL, a control here that sets the plan in auth's database.
 * Here all three are always set, and a skipped test fails the suite.
 */
const SDK_DIR = __dirname;
const isolation = isolatedRunSettings('go');

/** `go` from PATH, else where the official archive installs it. */
function goBinary(): string {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    const candidate = path.join(dir, 'go');
    if (fs.existsSync(candidate)) return candidate;
  }
  return '/usr/local/go/bin/go';
}

/** How long go test may run: less than the test's own timeout, so that a hung run is killed and its output shown. */
const GO_TEST_LIMIT_MS = 540_000;

/** One line of `go test -json` (test2json). */
interface TestEvent {
  Action: 'start' | 'run' | 'pause' | 'cont' | 'pass' | 'fail' | 'skip' | 'output' | 'bench' | 'build-output';
  Package?: string;
  Test?: string;
  Output?: string;
}

interface GoTestRun {
  code: number | null;
  events: TestEvent[];
  /** Everything go printed that is not a test event (build errors, say). */
  other: string;
}

/** Runs `go test -json` to the end (or GO_TEST_LIMIT_MS) and gives its exit code and what it reported. */
function runGoTest(args: string[], env: NodeJS.ProcessEnv): Promise<GoTestRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(...lowPriority(goBinary(), ['test', '-json', '-count=1', '-timeout=8m', ...args, './...']), {
      cwd: SDK_DIR,
      env: {
        ...process.env,
        ...env,
        // The module has no dependencies: nothing is downloaded, and go.sum is not needed.
        GOFLAGS: '-mod=mod',
        // The Go found here builds the module (go.mod asks for 1.22 or later) instead of fetching another toolchain.
        GOTOOLCHAIN: process.env.GOTOOLCHAIN ?? 'local',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let other = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (other += chunk.toString()));
    const timer = setTimeout(() => {
      other += `\n[killed: go test ran longer than ${GO_TEST_LIMIT_MS / 1000} s]`;
      child.kill('SIGKILL');
    }, GO_TEST_LIMIT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const events: TestEvent[] = [];
      for (const line of stdout.split('\n')) {
        if (!line.trim()) continue;
        try {
          events.push(JSON.parse(line) as TestEvent);
        } catch {
          other += `${line}\n`;
        }
      }
      resolve({ code, events, other });
    });
  });
}

/** go's own report of a run: the output of the tests that failed, else all of it (a build error, say). */
function report(run: GoTestRun): string {
  const failed = new Set(run.events.filter((e) => e.Action === 'fail' && e.Test).map((e) => e.Test));
  const output = run.events.filter((e) => e.Output !== undefined && (failed.size === 0 || failed.has(e.Test)));
  return `${output.map((e) => e.Output).join('')}${run.other}`;
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

it('passes the Go SDK’s unit and integration tests against the platform', async () => {
  // KASA_GO_TEST_ARGS narrows the run while working on the SDK (e.g. "-run TestPlatformStop -v").
  const only = process.env.KASA_GO_TEST_ARGS?.split(' ').filter(Boolean) ?? [];
  const run = await runGoTest(only, {
    KASA_BASE_URL: platform.baseUrl,
    KASA_FAKE_PROVIDER_URL: control.url,
    KASA_PLAN_CONTROL_URL: planControl.url,
    KASA_OPENAPI_SNAPSHOT: openApiSnapshot,
    // The tests choose their credentials; a key of the developer's environment must not leak into them.
    KASA_API_KEY: '',
  });
  if (run.code !== 0) {
    const logs = platform.logs.slice(-30).join('\n');
    throw new Error(`go test exited with ${run.code}:\n${report(run)}\n--- the platform's last log lines ---\n${logs}`);
  }
  if (only.length > 0) return;
  // Every test ran, none skipped, and the integration tests (the reason for this suite) were among them.
  const outcome = (action: TestEvent['Action']) =>
    run.events.filter((e) => e.Action === action && e.Test && !e.Test.includes('/')).map((e) => e.Test!);
  expect(outcome('skip')).toEqual([]);
  const passed = outcome('pass');
  expect(passed.filter((name) => name.startsWith('TestPlatform')).length).toBeGreaterThan(20);
  expect(passed.filter((name) => !name.startsWith('TestPlatform')).length).toBeGreaterThan(40);
  // The checks of the types against the OpenAPI document (contract_test.go).
  expect(passed.filter((name) => name.startsWith('TestContract')).length).toBeGreaterThanOrEqual(4);
}, 600_000);

it('passes go vet with no finding', () => {
  // go vet prints its findings on stderr and exits non-zero when there are any.
  const vet = spawnSync(goBinary(), ['vet', './...'], {
    cwd: SDK_DIR,
    env: { ...process.env, GOFLAGS: '-mod=mod', GOTOOLCHAIN: process.env.GOTOOLCHAIN ?? 'local' },
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (vet.error) throw vet.error;
  if (vet.status !== 0) throw new Error(`go vet ./... exited with ${vet.status}:\n${vet.stderr}${vet.stdout}`);
  expect(vet.stderr.trim()).toBe('');
}, 320_000);
