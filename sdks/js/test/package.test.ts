/**
 * @kasa/sdk and @kasa/react as a stranger gets them: each packed with `npm pack` (which builds it first), installed
 * from the tarball into an empty project outside this repository, then used from TypeScript under --strict (as ES
 * modules and as CommonJS, with node16 and bundler resolution) and from Node (both entry points). Nothing is
 * downloaded: the peers (react, react-dom, @tanstack/react-query and React's types) are linked from this repository's
 * node_modules, and the project is type-checked with this repository's TypeScript.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const TSC = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
// Linked by name; what they depend on in turn (scheduler, @tanstack/query-core) resolves from where they really are.
const PEERS = ['react', 'react-dom', '@tanstack/react-query', '@types/react'];

interface Run {
  stdout: string;
  stderr: string;
}

/** Runs a command; rejects with everything it printed when it exits non-zero. */
function run(command: string, args: string[], cwd: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${stdout}\n${stderr}`));
      else resolve({ stdout, stderr });
    });
  });
}

const ESM_CONSUMER = `import {
  Kasa,
  KasaError,
  isKasaError,
  type AssistantReply,
  type CallOptions,
  type ReplyEvent,
  type Session,
  type VideoJob,
} from '@kasa/sdk';

const kasa = new Kasa({ baseUrl: 'https://kasa.example', apiKey: 'ksk_example', maxRetries: 1 });

export async function chat(options: CallOptions = {}): Promise<{ text: string; reply: AssistantReply | undefined }> {
  const session: Session = await kasa.chat.sessions.create(
    { personaId: 'nana', title: 'Weekend in Kumasi' },
    { ...options, idempotencyKey: 'trip-1' },
  );
  const stream = await kasa.chat.messages.stream(session.id, { content: 'Akwaaba!', language: 'auto' }, options);
  let text = '';
  let reply: AssistantReply | undefined;
  for await (const event of stream satisfies AsyncIterable<ReplyEvent>) {
    if (event.type === 'token') text += event.text;
    else if (event.type === 'done') reply = event.message;
    else if (event.type === 'meta') console.log(event.provider, event.model, event.continued);
  }
  return { text, reply };
}

export function describeFailure(error: unknown): string {
  if (error instanceof KasaError) return \`\${error.status} \${error.code}: \${error.message} (\${error.requestId ?? '-'})\`;
  return isKasaError(error) ? error.code : String(error);
}

export const languages = kasa.languages.list({ capability: 'speak' }).then((list) => list.languages.map((l) => l.name));

export async function followAgain(sessionId: string, messageId: string): Promise<AssistantReply> {
  const stream = await kasa.chat.messages.resume(sessionId, messageId);
  return stream.finalMessage();
}

export async function video(signal: AbortSignal): Promise<string | undefined> {
  const job: VideoJob = await kasa.video.create({ prompt: 'Akwaaba!', language: 'auto' });
  const done = await kasa.video.wait(job.id, { timeoutMs: 60_000, onProgress: (j) => console.log(j.progress) }, { signal });
  if (done.status === 'failed') return done.error;
  const mp4: Blob = await kasa.video.download(done);
  return \`\${mp4.size} bytes at \${done.videoUrl}\`;
}

// The declarations are real types, not any: a session needs its persona.
// @ts-expect-error personaId is missing
void kasa.chat.sessions.create({ title: 'No persona' });
// @ts-expect-error a video needs its language (or 'auto')
void kasa.video.create({ prompt: 'No language' });
`;

const CJS_CONSUMER = `import sdk = require('@kasa/sdk');
import react = require('@kasa/react');

const kasa: sdk.Kasa = new sdk.Kasa({ baseUrl: '', token: 'token', idempotencyKeys: false });
const failure: sdk.KasaError = new sdk.KasaError({ status: 404, code: 'not_found', message: 'No such session' });

export const isFailure: boolean = sdk.isKasaError(failure);
export const sessions: Promise<sdk.SessionPage> = kasa.chat.sessions.list({ limit: 10 });
export const provider: typeof react.KasaProvider = react.KasaProvider;
export const keys: readonly unknown[] = react.kasaKeys.all;

// @ts-expect-error maxRetries is a number
void new sdk.Kasa({ baseUrl: '', maxRetries: 'two' });
`;

const REACT_CONSUMER = `import { Kasa, type Persona } from '@kasa/sdk';
import { KasaProvider, usePersonas, useSendMessage, useStreamedReply } from '@kasa/react';

export function App({ kasa }: { kasa: Kasa }) {
  return (
    <KasaProvider client={kasa}>
      <Chat sessionId="665f1c2ab1e4c3d2a1f0e9d8" />
    </KasaProvider>
  );
}

function Chat({ sessionId }: { sessionId: string }) {
  const personas = usePersonas();
  const send = useSendMessage(sessionId);
  const reply = useStreamedReply(sessionId);
  const names: string[] = (personas.data ?? []).map((persona: Persona) => persona.name);
  return (
    <>
      <p>{names.join(', ')}</p>
      <button onClick={() => send.mutate({ content: 'Akwaaba!' })}>Send</button>
      <button onClick={() => void reply.send({ content: 'Akwaaba!' })}>Stream</button>
      {reply.status === 'streaming' && <button onClick={reply.stop}>Stop</button>}
      <p>{reply.text}</p>
      {reply.error && <p role="alert">{reply.error.message}</p>}
    </>
  );
}
`;

/** Builds one element with the client of the nearest provider, and reports what happened, as one JSON line. */
const runtimeCheck = (format: 'esm' | 'cjs') => `
const kasa = new Kasa({ baseUrl: 'http://127.0.0.1:1', maxRetries: 0 });
const failure = await kasa.personas.list().catch((error) => error);
function Probe() {
  return createElement('span', null, useKasa() === kasa ? 'the provider’s client' : 'another client');
}
const html = renderToString(createElement(KasaProvider, { client: kasa }, createElement(Probe)));
console.log(JSON.stringify({
  format: '${format}',
  failure: isKasaError(failure) ? failure.code : String(failure),
  html,
  hasQueryClient: typeof createKasaQueryClient() === 'object',
}));
`;

const ESM_RUNTIME = `import { Kasa, isKasaError } from '@kasa/sdk';
import { KasaProvider, useKasa, createKasaQueryClient } from '@kasa/react';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
${runtimeCheck('esm')}`;

const CJS_RUNTIME = `const { Kasa, isKasaError } = require('@kasa/sdk');
const { KasaProvider, useKasa, createKasaQueryClient } = require('@kasa/react');
const { createElement } = require('react');
const { renderToString } = require('react-dom/server');
(async () => {
${runtimeCheck('cjs')}
})().catch((error) => {
  console.error(error);
  process.exit(1);
});`;

const strictOptions = {
  strict: true,
  noEmit: true,
  target: 'ES2022',
  lib: ['ES2022', 'DOM', 'DOM.Iterable'],
  jsx: 'react-jsx',
  types: [],
  // The packages' declarations are checked too: an import they cannot resolve is an error, not a silent any.
  skipLibCheck: false,
};

let work: string;
let project: string;

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), 'kasa-sdk-package-'));
  const packed = path.join(work, 'packed');
  await fs.mkdir(packed);
  // `npm pack` runs each package's prepack, which builds both of its outputs first.
  await run('npm', ['pack', '--pack-destination', packed], path.join(ROOT, 'sdks', 'js'));
  await run('npm', ['pack', '--pack-destination', packed], path.join(ROOT, 'sdks', 'react'));
  const tarballs = (await fs.readdir(packed)).map((name) => path.join(packed, name));

  project = path.join(work, 'project');
  await fs.mkdir(path.join(project, 'src'), { recursive: true });
  await fs.writeFile(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'kasa-consumer', version: '1.0.0', private: true, type: 'module' }, null, 2),
  );
  // Offline: the tarballs are all there is to install (@kasa/sdk has no dependencies; the peers are linked below).
  await run(
    'npm',
    ['install', '--offline', '--legacy-peer-deps', '--ignore-scripts', '--no-audit', '--no-fund', ...tarballs],
    project,
  );
  for (const name of PEERS) {
    const link = path.join(project, 'node_modules', name);
    await fs.mkdir(path.dirname(link), { recursive: true });
    await fs.symlink(path.join(ROOT, 'node_modules', name), link, 'dir');
  }

  await fs.writeFile(path.join(project, 'src', 'chat.ts'), ESM_CONSUMER);
  await fs.writeFile(path.join(project, 'src', 'legacy.cts'), CJS_CONSUMER);
  await fs.writeFile(path.join(project, 'src', 'App.tsx'), REACT_CONSUMER);
  await fs.writeFile(path.join(project, 'run.mjs'), ESM_RUNTIME);
  await fs.writeFile(path.join(project, 'run.cjs'), CJS_RUNTIME);
  await fs.writeFile(
    path.join(project, 'tsconfig.node16.json'),
    JSON.stringify({ compilerOptions: { ...strictOptions, module: 'node16', moduleResolution: 'node16' } }),
  );
  await fs.writeFile(
    path.join(project, 'tsconfig.bundler.json'),
    JSON.stringify({
      compilerOptions: { ...strictOptions, module: 'esnext', moduleResolution: 'bundler' },
      include: ['src/**/*.ts', 'src/**/*.tsx'],
    }),
  );
}, 300_000);

afterAll(async () => {
  if (work) await fs.rm(work, { recursive: true, force: true });
});

async function installedFiles(name: string): Promise<string[]> {
  const dir = path.join(project, 'node_modules', name);
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();
}

describe.each(['@kasa/sdk', '@kasa/react'])('the packed %s', (name) => {
  it('holds its ES module and CommonJS builds with their declarations, its README and nothing private', async () => {
    const files = await installedFiles(name);
    expect(files).toEqual(
      expect.arrayContaining([
        'README.md',
        'package.json',
        'dist/cjs/index.js',
        'dist/cjs/index.d.ts',
        'dist/esm/index.js',
        'dist/esm/index.d.ts',
        'dist/esm/package.json',
      ]),
    );
    expect(files.filter((file) => file.startsWith('src/') || file.endsWith('.test.js'))).toEqual([]);
    const dir = path.join(project, 'node_modules', name);
    for (const file of files.filter((file) => /\.(d\.ts|js)$/.test(file))) {
      const text = await fs.readFile(path.join(dir, file), 'utf8');
      expect({ file, imports: /from ['"]@kasa\/(contracts|api-client|service-kit)['"]/.test(text) }).toEqual({
        file,
        imports: false,
      });
    }
    const manifest = JSON.parse(await fs.readFile(path.join(dir, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    expect(Object.keys(manifest.dependencies ?? {})).toEqual([]);
  });
});

describe('an empty project that installed the tarballs', () => {
  it('type-checks ES module, CommonJS and React code under --strict with node16 resolution', async () => {
    await run(process.execPath, [TSC, '-p', 'tsconfig.node16.json'], project);
  }, 120_000);

  it('type-checks the ES module and React code under --strict with bundler resolution', async () => {
    await run(process.execPath, [TSC, '-p', 'tsconfig.bundler.json'], project);
  }, 120_000);

  it.each([
    ['esm', 'run.mjs'],
    ['cjs', 'run.cjs'],
  ])(
    'runs the %s entry points in Node: a client, a KasaError, and the provider around a component',
    async (format, file) => {
      const { stdout } = await run(process.execPath, [file], project);
      expect(JSON.parse(stdout.trim())).toEqual({
        format,
        failure: 'network_error',
        html: '<span>the provider’s client</span>',
        hasQueryClient: true,
      });
    },
    60_000,
  );
});
