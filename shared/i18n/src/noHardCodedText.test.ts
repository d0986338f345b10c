import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * CI's enforcement of the lint rule against hard-coded user-visible text (formatjs/no-literal-string-in-jsx in
 * eslint.config.mjs; `npm test` does not run ESLint). Every frontend with a message catalogue must be covered by
 * the rule and clean. ESLint runs as its own process: its configuration is an ES module, which jest's CommonJS
 * sandbox cannot load.
 */
const ROOT = join(__dirname, '..', '..', '..');
const RULE = 'formatjs/no-literal-string-in-jsx';
const ESLINT = join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');

const apps = readdirSync(join(ROOT, 'frontends')).filter((app) =>
  existsSync(join(ROOT, 'frontends', app, 'src', 'i18n', 'en.json')),
);

interface LintResult {
  filePath: string;
  messages: Array<{ ruleId: string | null; line: number; column: number; message: string }>;
}

function eslint(args: string[], input?: string): LintResult[] {
  try {
    return JSON.parse(
      execFileSync(process.execPath, [ESLINT, '--format', 'json', '--no-warn-ignored', ...args], {
        cwd: ROOT,
        input,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      }),
    ) as LintResult[];
  } catch (error) {
    // ESLint exits 1 when it reports problems; its JSON report is still on stdout.
    const stdout = (error as { stdout?: string }).stdout;
    if (stdout) return JSON.parse(stdout) as LintResult[];
    throw error;
  }
}

describe('no hard-coded user-visible text in the frontends', () => {
  jest.setTimeout(120_000);

  it.each(apps)('applies the rule to %s', (app) => {
    const probe = '<p title="Untranslated">Hello</p>;\n';
    const [result] = eslint(['--stdin', '--stdin-filename', `frontends/${app}/src/Probe.tsx`], probe);
    expect(result?.messages.filter((message) => message.ruleId === RULE)).toHaveLength(2);
  });

  it('finds no literal text in the JSX of any frontend with a catalogue', () => {
    const results = eslint(apps.map((app) => `frontends/${app}/src`));
    const offenders = results.flatMap((result) =>
      result.messages
        .filter((message) => message.ruleId === RULE)
        .map((message) => `${relative(ROOT, result.filePath)}:${message.line}:${message.column}`),
    );
    expect(offenders).toEqual([]);
  });
});
