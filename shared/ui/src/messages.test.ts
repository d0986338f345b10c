/// <reference types="node" />
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { UI_MESSAGES } from './messages';

/**
 * @kasa/ui holds no text: its components read their words from the catalogue of the frontend that renders them. So
 * every frontend that uses one of them must carry its messages, or the person would read a message id.
 */
const FRONTENDS = path.resolve(__dirname, '../../../frontends');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

const apps = readdirSync(FRONTENDS)
  .filter((app) => existsSync(path.join(FRONTENDS, app, 'src', 'i18n', 'en.json')))
  .map((app) => ({
    app,
    text: sourceFiles(path.join(FRONTENDS, app, 'src'))
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n'),
    english: Object.keys(JSON.parse(readFileSync(path.join(FRONTENDS, app, 'src', 'i18n', 'en.json'), 'utf8'))),
  }));

/** The message ids a frontend's sources need from its catalogue for the @kasa/ui components they render. */
function neededIds(text: string): string[] {
  const ids: string[] = Object.entries(UI_MESSAGES).flatMap(([component, messages]) =>
    new RegExp(`<${component}\\b`).test(text) ? [...messages] : [],
  );
  // `context` makes CopyButton's accessible name from `copy.named`.
  if (/<CopyButton\b[^>]*\bcontext=/.test(text)) ids.push('copy.named');
  return ids;
}

describe("@kasa/ui's messages in the frontends' catalogues", () => {
  it('finds the frontends that use components with text', () => {
    expect(apps.filter(({ text }) => neededIds(text).length > 0).map(({ app }) => app)).toEqual(
      expect.arrayContaining(['chat', 'developer']),
    );
  });

  it.each(apps.map(({ app }) => app))('%s has the messages of the components it renders', (app) => {
    const { text, english } = apps.find((entry) => entry.app === app)!;
    const missing = neededIds(text).filter((id) => !english.includes(id));
    expect(missing).toEqual([]);
  });
});
