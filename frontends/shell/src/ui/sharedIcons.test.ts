/// <reference types="node" />
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The frontends share one copy of their icons (frontends/federation/lucide-react.ts, see shared.js): an icon imported
 * from `lucide-react` but missing there would be undefined at runtime in the built app. And no source of the web app
 * draws an emoji pictograph: they render as empty boxes where no emoji font is installed.
 */
const FRONTENDS = path.resolve(__dirname, '../../..');
const APPS = ['shell', 'chat', 'marketing', 'developer'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

const sources = APPS.flatMap((app) => sourceFiles(path.join(FRONTENDS, app, 'src'))).map((file) => ({
  file: path.relative(FRONTENDS, file),
  text: readFileSync(file, 'utf8'),
}));

/** The value names a file imports from `lucide-react` (type-only names aside). */
function importedIcons(text: string): string[] {
  const names: string[] = [];
  for (const match of text.matchAll(/import\s+(type\s+)?\{([^}]*)\}\s+from\s+'lucide-react'/g)) {
    if (match[1]) continue;
    for (const part of match[2]!.split(',')) {
      const name = part.trim();
      if (name && !name.startsWith('type ')) names.push(name.split(/\s+as\s+/)[0]!);
    }
  }
  return names;
}

const subset = readFileSync(path.join(FRONTENDS, 'federation', 'lucide-react.ts'), 'utf8');
const shared = new Set(
  [...subset.matchAll(/export\s*\{([^}]*)\}\s*from/g)].flatMap((m) =>
    m[1]!
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean),
  ),
);

describe('the shared icon set', () => {
  it('is what the frontends use: lucide-react imports exist and are all shared', () => {
    const used = new Set(sources.flatMap(({ text }) => importedIcons(text)));
    expect(used.size).toBeGreaterThan(10);
    const missing = [...used].filter((name) => !shared.has(name));
    expect(missing).toEqual([]);
  });

  it('never imports lucide-react whole, nor in another way than by name', () => {
    const wrong = sources.filter(({ text }) =>
      /import\s+\*\s+as\s+\w+\s+from\s+'lucide-react'|lucide-react\//.test(text),
    );
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
