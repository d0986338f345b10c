// The developer portal's Examples tab shows these samples (frontends/developer/src/examples/examples.ts). Here each
// one runs as a reader would run it (node, python3, bash with curl) against the real platform with a real API key.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EXAMPLES, type CodeExample } from '../../frontends/developer/src/examples/examples';
import { fillPlaceholders } from '../../frontends/developer/src/sdks/catalogue';
import { startPlatform, type RunningPlatform } from '../support/platform';

let platform: RunningPlatform;
let apiKey: string;
const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-examples-'));

const RUNNERS: Record<CodeExample['id'], { command: string; file: string }> = {
  javascript: { command: process.execPath, file: 'kasa.mjs' },
  python: { command: 'python3', file: 'kasa.py' },
  curl: { command: 'bash', file: 'kasa.sh' },
};

function run(example: CodeExample, key: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const runner = RUNNERS[example.id];
  const file = path.join(workDir, `${randomUUID().slice(0, 8)}-${runner.file}`);
  fs.writeFileSync(file, fillPlaceholders(example.source, { baseUrl: platform.baseUrl, apiKey: key }));
  return new Promise((resolve) => {
    execFile(runner.command, [file], { timeout: 30_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

async function post<T>(url: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(`${platform.baseUrl}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

beforeAll(async () => {
  platform = await startPlatform({ CHAT_OFFLINE_WORD_DELAY_MS: '0' });
  const id = randomUUID().slice(0, 8);
  const { token } = await post<{ token: string }>('/api/auth/register', {
    username: `esi_${id}`,
    email: `esi.${id}@example.com`,
    password: 'adinkra-code',
  });
  ({ secret: apiKey } = await post<{ secret: string }>(
    '/api/developer/keys',
    { name: 'Examples', scopes: ['chat'] },
    token,
  ));
}, 120_000);

afterAll(async () => {
  await platform?.stop();
  fs.rmSync(workDir, { recursive: true, force: true });
});

describe('the portal’s code examples', () => {
  it('offers JavaScript, Python and curl', () => {
    expect(EXAMPLES.map((e) => e.id)).toEqual(['javascript', 'python', 'curl']);
    for (const example of EXAMPLES) {
      expect(example.source).toContain('{{BASE_URL}}');
      expect(example.source).toContain('{{API_KEY}}');
    }
    // Python with the standard library only: nothing to pip install.
    const python = EXAMPLES.find((e) => e.id === 'python')!.source;
    expect(python.match(/^(?:import|from) (\S+)/gm)).toEqual([
      'import json',
      'import urllib.error',
      'import urllib.request',
    ]);
  });

  it.each(EXAMPLES.map((e) => [e.title, e] as const))(
    '%s lists the personas and gets a reply with a real key',
    async (_title, example) => {
      const result = await run(example, apiKey);
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      if (example.id === 'curl') {
        const [personas, completion] = result.stdout.trim().split('\n');
        expect((JSON.parse(personas!) as Array<{ id: string }>).map((p) => p.id)).toContain('kasa');
        const reply = JSON.parse(completion!) as { choices: Array<{ message: { content: string } }> };
        expect(reply.choices[0]!.message.content.length).toBeGreaterThan(0);
      } else {
        expect(result.stdout).toMatch(/^Personas: .*Kasa/m);
        expect(result.stdout).toMatch(/^Kasa: \S/m);
      }
    },
    60_000,
  );

  it.each(EXAMPLES.map((e) => [e.title, e] as const))(
    '%s fails with the server’s message when the key is refused',
    async (_title, example) => {
      const result = await run(example, `ksk_${'x'.repeat(43)}`);
      expect(result.code).not.toBe(0);
      expect(`${result.stdout}${result.stderr}`).toContain('401');
    },
    60_000,
  );
});
