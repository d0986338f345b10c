import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';

const FRONTENDS = path.join(__dirname, '..', '..', '..', 'frontends');

type Messages = Record<string, string>;

/**
 * A frontend's messages in `locale`: its catalogue and those of its sections in subfolders (the shell's pages/, the
 * chat's share/ and voice/, the developer portal's panels/).
 */
function catalogue(app: string, locale: string): Messages {
  const root = path.join(FRONTENDS, app, 'src', 'i18n');
  const folders = [
    root,
    ...fs
      .readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => path.join(root, entry.name)),
  ];
  return Object.assign(
    {},
    ...folders
      .filter((folder) => fs.existsSync(path.join(folder, `${locale}.json`)))
      .map((folder) => JSON.parse(fs.readFileSync(path.join(folder, `${locale}.json`), 'utf8')) as Messages),
  ) as Messages;
}

/** A frontend's messages in one language, read from its catalogue: what the page should show instead of English. */
export function messagesOf(app: string, locale: string): Messages {
  return catalogue(app, locale);
}

/**
 * The English messages of the given frontends' catalogues that `locale` translates differently: if any of them is
 * visible, the page shows untranslated text. Messages with placeholders are left out (their English text is never
 * shown whole); a one-word message counts only as a whole line, so that it is not found inside other text.
 */
export function untranslatedCandidates(apps: string[], locale: string): string[] {
  return apps.flatMap((app) => {
    const english = catalogue(app, 'en');
    const translated = catalogue(app, locale);
    return Object.entries(english)
      .filter(([id, text]) => translated[id] !== undefined && translated[id] !== text && !/[{}]/.test(text))
      .map(([, text]) => text);
  });
}

/**
 * The English strings of `candidates` visible in the page's text (document.body.innerText, or the text of the
 * elements matching `within`), leaving out the text of the elements matching `except` (what people wrote, and the
 * replies to it). Empty when everything visible is translated.
 */
export async function visibleEnglish(
  page: Page,
  candidates: string[],
  options: { within?: string; except?: string } = {},
): Promise<string[]> {
  return page.evaluate(
    ({ candidates, within, except }) => {
      let text = [...document.querySelectorAll<HTMLElement>(within)].map((element) => element.innerText).join('\n');
      if (except) {
        for (const element of document.querySelectorAll<HTMLElement>(except)) {
          text = text.replace(element.innerText, '');
        }
      }
      const lines = new Set(text.split('\n').map((line) => line.trim()));
      return [
        ...new Set(candidates.filter((english) => (/\s/.test(english) ? text.includes(english) : lines.has(english)))),
      ];
    },
    { candidates, within: options.within ?? 'body', except: options.except ?? '' },
  );
}
