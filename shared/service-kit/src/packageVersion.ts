import fs from 'node:fs';
import path from 'node:path';

/**
 * The `version` of the package a module belongs to: the nearest package.json at or above `dir` (pass `__dirname`,
 * which is `src/` when run from source and `dist/` when built; both sit in the package's folder, as in the images).
 * Logs, spans and heartbeats carry it, so what runs says which release it is. Throws when there is no such file or
 * it has no version: a service should not start unable to say what it is.
 */
export function packageVersion(dir: string): string {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const file = path.join(current, 'package.json');
    if (fs.existsSync(file)) {
      const { version } = JSON.parse(fs.readFileSync(file, 'utf8')) as { version?: unknown };
      if (typeof version !== 'string' || version.trim() === '') throw new Error(`${file} has no version`);
      return version;
    }
    if (path.dirname(current) === current) throw new Error(`no package.json at or above ${dir}`);
  }
}
