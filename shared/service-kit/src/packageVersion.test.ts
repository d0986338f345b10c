import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packageVersion } from './packageVersion';

describe('packageVersion', () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-version-'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('reads the version of the package the folder belongs to, from src/ or dist/ alike', () => {
    fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: '@kasa/x-service', version: '2.3.4' }));
    for (const dir of ['src', 'dist/events']) {
      fs.mkdirSync(path.join(root, dir), { recursive: true });
      expect(packageVersion(path.join(root, dir))).toBe('2.3.4');
    }
  });

  it('reads the service kit’s own version from its package.json', () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(packageVersion(__dirname)).toBe(version);
  });

  it('refuses a package.json without a version rather than inventing one', () => {
    fs.writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: '@kasa/x-service' }));
    expect(() => packageVersion(root)).toThrow(/has no version/);
  });
});
