/// <reference types="node" />
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The web app's icons are @kasa/ui's (src/icons.ts): the lucide icons in use, in the design system's shared module,
 * so that one copy serves every frontend and the rest of the set stays out of the bundles. The frontends that use
 * @kasa/ui take their icons from it; an icon missing there fails their typecheck. And no source of the web app draws
 * an emoji pictograph: they render as empty boxes where no emoji font is installed.
 */
const ROOT = path.resolve(__dirname, '../../..');
const FRONTENDS = path.join(ROOT, 'frontends');
const APPS = ['shell', 'chat', 'marketing', 'developer', 'admin'];
/** The frontends on @kasa/ui (marketing still imports lucide-react, bundling the icons it uses). */
const UI_APPS = ['shell', 'chat', 'developer', 'admin'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

const read = (file: string) => ({ file: path.relative(ROOT, file), text: readFileSync(file, 'utf8') });
const appSources = (apps: string[]) => apps.flatMap((app) => sourceFiles(path.join(FRONTENDS, app, 'src'))).map(read);
const sources = [...appSources(APPS), ...sourceFiles(__dirname).map(read)];

/** The value names a file imports from `module` (type-only names aside). */
function importedNames(text: string, module: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/g)) {
    if (match[1] || match[3] !== module) continue;
    for (const part of match[2]!.split(',')) {
      const name = part.trim();
      if (name && !name.startsWith('type ')) names.push(name.split(/\s+as\s+/)[0]!);
    }
  }
  return names;
}

const iconList = readFileSync(path.join(__dirname, 'icons.ts'), 'utf8');
const icons = new Set(
  [...iconList.matchAll(/export\s*\{([^}]*)\}\s*from\s*'lucide-react\/icons'/g)].flatMap((m) =>
    m[1]!
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean),
  ),
);

describe('the shared icon set', () => {
  it('is what the frontends on @kasa/ui use, and they take every icon from it', () => {
    const uiSources = appSources(UI_APPS);
    const used = new Set(uiSources.flatMap(({ text }) => importedNames(text, '@kasa/ui')).filter((n) => icons.has(n)));
    expect(used.size).toBeGreaterThan(10);
    const direct = uiSources.filter(({ text }) => /from\s+'lucide-react[/']/.test(text));
    expect(direct.map((s) => s.file)).toEqual([]);
  });

  it('never imports lucide-react whole, nor in another way than by name', () => {
    const wrong = sources.filter(({ text }) => /import\s+\*\s+as\s+\w+\s+from\s+'lucide-react/.test(text));
    expect(wrong.map((s) => s.file)).toEqual([]);
  });

  it('leaves no emoji pictograph in the web app’s sources', () => {
    const pictographs = sources.flatMap(({ file, text }) =>
      // ©, ® and ™ are pictographic by Unicode's list but are ordinary text in every font.
      [...text.matchAll(/(?![©®™])\p{Extended_Pictographic}/gu)].map((m) => `${file}: ${m[0]}`),
    );
    expect(pictographs).toEqual([]);
  });
});
