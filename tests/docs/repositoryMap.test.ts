import fs from 'node:fs';
import path from 'node:path';

/** The root README's repository map names every part of the repository a newcomer will meet. */
const ROOT = path.resolve(__dirname, '../..');
const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const map = readme.slice(
  readme.indexOf('## Repository map'),
  readme.indexOf('\n## ', readme.indexOf('## Repository map') + 1),
);
/** The paths the map names in backticks (`services/auth`, `tests/`, `sdks/js`...), without a trailing slash. */
const named = new Set([...map.matchAll(/`([\w./-]+)`/g)].map((m) => m[1]!.replace(/\/$/, '')));

describe('the README’s repository map', () => {
  it('names every npm workspace', () => {
    const { workspaces } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      workspaces: string[];
    };
    expect(workspaces.length).toBeGreaterThan(10);
    expect(workspaces.filter((workspace) => !named.has(workspace))).toEqual([]);
  });

  it('names every folder of services/, shared/ and frontends/, packages or not', () => {
    const folders = ['services', 'shared', 'frontends'].flatMap((parent) =>
      fs
        .readdirSync(path.join(ROOT, parent), { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules')
        .map((entry) => `${parent}/${entry.name}`),
    );
    expect(folders).toContain('frontends/federation');
    expect(folders.filter((folder) => !named.has(folder))).toEqual([]);
  });

  it('points to the guide for adding a service, which exists', () => {
    expect(named).toContain('docs/adding-a-service.md');
    expect(fs.existsSync(path.join(ROOT, 'docs/adding-a-service.md'))).toBe(true);
  });
});
