import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LOCALE_CODES } from './locales';

/**
 * The completeness check of the interface's message catalogues, run by CI: for every catalogue folder of the
 * frontends (frontends/<app>/src/i18n and its subfolders with an en.json), every language has exactly English's ids, every message
 * parses as ICU MessageFormat, and each translation uses the same placeholders as its English source. Each
 * language also has its glossary of product terms (shared/i18n/glossaries/<locale>.md).
 */
const ROOT = join(__dirname, '..', '..', '..');
const FRONTENDS = join(ROOT, 'frontends');

type Messages = Record<string, string>;

/** Catalogue folders, relative to frontends/: `shell/src/i18n`, `shell/src/i18n/pages`, `chat/src/i18n`, ... */
const apps = readdirSync(FRONTENDS).flatMap((app) => {
  const root = join(app, 'src', 'i18n');
  if (!existsSync(join(FRONTENDS, root, 'en.json'))) return [];
  const sub = readdirSync(join(FRONTENDS, root), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(FRONTENDS, root, entry.name, 'en.json')))
    .map((entry) => join(root, entry.name));
  return [root, ...sub];
});

function load(folder: string, locale: string): Messages {
  return JSON.parse(readFileSync(join(FRONTENDS, folder, `${locale}.json`), 'utf8')) as Messages;
}

/** The placeholders a message uses, with their kind (`name:number`, `count:plural`, `<b>` ...), sorted. */
function argumentsOf(elements: MessageFormatElement[], found = new Set<string>()): Set<string> {
  for (const element of elements) {
    switch (element.type) {
      case TYPE.argument:
        found.add(`${element.value}:text`);
        break;
      case TYPE.number:
      case TYPE.date:
      case TYPE.time:
        found.add(`${element.value}:${TYPE[element.type]}`);
        break;
      case TYPE.plural:
      case TYPE.select:
        found.add(`${element.value}:${TYPE[element.type]}`);
        for (const option of Object.values(element.options)) argumentsOf(option.value, found);
        break;
      case TYPE.tag:
        found.add(`<${element.value}>`);
        argumentsOf(element.children, found);
        break;
      default:
        break;
    }
  }
  return found;
}

const argumentList = (message: string) => [...argumentsOf(parse(message))].sort();

describe('message catalogues', () => {
  it('exist for the shell at least', () => {
    expect(apps).toContain(join('shell', 'src', 'i18n'));
  });

  describe.each(apps)('%s', (app) => {
    const english = load(app, 'en');

    it('has English messages that all parse as ICU MessageFormat', () => {
      const broken = Object.entries(english).flatMap(([id, message]) => {
        try {
          parse(message);
          return [];
        } catch (error) {
          return [`${id}: ${(error as Error).message}`];
        }
      });
      expect(broken).toEqual([]);
    });

    it.each(LOCALE_CODES.filter((locale) => locale !== 'en'))('has every message in %s, and no other', (locale) => {
      const translated = load(app, locale);
      const missing = Object.keys(english).filter((id) => !(id in translated));
      const unknown = Object.keys(translated).filter((id) => !(id in english));
      const empty = Object.keys(translated).filter((id) => !translated[id]?.trim());
      expect({ missing, unknown, empty }).toEqual({ missing: [], unknown: [], empty: [] });
    });

    it.each(LOCALE_CODES.filter((locale) => locale !== 'en'))(
      'has %s messages that parse and use the same placeholders as English',
      (locale) => {
        const translated = load(app, locale);
        const problems = Object.entries(translated).flatMap(([id, message]) => {
          const source = english[id];
          if (source === undefined) return [];
          try {
            const expected = argumentList(source);
            const actual = argumentList(message);
            return JSON.stringify(actual) === JSON.stringify(expected)
              ? []
              : [`${id}: uses ${actual.join(', ') || 'nothing'}, English uses ${expected.join(', ') || 'nothing'}`];
          } catch (error) {
            return [`${id}: ${(error as Error).message}`];
          }
        });
        expect(problems).toEqual([]);
      },
    );
  });

  it.each(LOCALE_CODES.filter((locale) => locale !== 'en'))('has a glossary for %s', (locale) => {
    const glossary = join(ROOT, 'shared', 'i18n', 'glossaries', `${locale}.md`);
    expect(existsSync(glossary)).toBe(true);
    expect(readFileSync(glossary, 'utf8')).toMatch(/\| *English *\|/);
  });
});
