/**
 * test/openapi.generated.ts is what openapi-typescript makes of the current OpenAPI document, so that
 * openapiTypes.check.ts compares the SDK's types with the document as it is (the check runs in `npm run typecheck`).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

const SCRIPT = path.resolve(__dirname, '..', 'scripts', 'openapi-types.js');
const GENERATED = path.resolve(__dirname, 'openapi.generated.ts');
const REGENERATE = 'npx tsc -b shared/contracts && node sdks/js/scripts/openapi-types.js';

/** What the script writes now, from shared/contracts/dist. */
function generate(): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [SCRIPT, '--stdout'], { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) =>
      error ? reject(new Error(`${SCRIPT} failed:\n${stderr}`)) : resolve(stdout),
    );
  });
}

describe('the types generated from the OpenAPI document', () => {
  it('are up to date with the document', async () => {
    const fresh = await generate();
    const committed = readFileSync(GENERATED, 'utf8');
    expect(committed === fresh ? 'up to date' : `out of date: run ${REGENERATE}`).toBe('up to date');
  });

  it('give /v1/chat/completions real answers, whole and streamed', () => {
    const committed = readFileSync(GENERATED, 'utf8');
    const operation = committed.slice(committed.indexOf('  postV1ChatCompletions: {'));
    const answer = operation.slice(operation.indexOf('200: {'), operation.indexOf('400: {'));
    expect(answer).toContain("'application/json': components['schemas']['OpenAIChatCompletion'];");
    expect(answer).toContain("'text/event-stream': components['schemas']['OpenAIChatCompletionChunk'];");
    expect(answer).not.toMatch(/content\??: never/);
  });
});
