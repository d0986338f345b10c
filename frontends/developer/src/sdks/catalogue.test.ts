import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SDKS, type SdkEntry } from './catalogue';

/** The repository's root, where each card's `readme` path starts. */
const ROOT = path.resolve(__dirname, '../../../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** `key = "value"` in one `[section]` of a TOML file. */
function tomlValue(text: string, section: string, key: string): string | undefined {
  const body = text.split(/^\[/m).find((part) => part.startsWith(`${section}]`));
  return body && new RegExp(`^${key}\\s*=\\s*"([^"]*)"`, 'm').exec(body)?.[1];
}

interface Published {
  name: string | undefined;
  version: string | undefined;
}

/** What each SDK's own package declares, by its folder. */
const PUBLISHED: Record<string, () => Published> = {
  'sdks/js': () => JSON.parse(read('sdks/js/package.json')) as Published,
  'sdks/react': () => JSON.parse(read('sdks/react/package.json')) as Published,
  'sdks/python': () => {
    const toml = read('sdks/python/pyproject.toml');
    return { name: tomlValue(toml, 'project', 'name'), version: tomlValue(toml, 'project', 'version') };
  },
  'sdks/rust': () => {
    const toml = read('sdks/rust/Cargo.toml');
    return { name: tomlValue(toml, 'package', 'name'), version: tomlValue(toml, 'package', 'version') };
  },
  'sdks/go': () => ({
    name: /^module\s+(\S+)/m.exec(read('sdks/go/go.mod'))?.[1],
    version: /^const Version = "([^"]+)"/m.exec(read('sdks/go/client.go'))?.[1],
  }),
};

const sdkFolderOf = (sdk: SdkEntry) => path.dirname(sdk.readme);

describe('the SDK cards', () => {
  it('each describe a package of the repository', () => {
    for (const sdk of SDKS) expect(Object.keys(PUBLISHED)).toContain(sdkFolderOf(sdk));
  });

  it.each(SDKS.map((sdk) => [sdk.id, sdk] as const))(
    '%s shows the name and version its package declares',
    (_id, sdk) => {
      const published = PUBLISHED[sdkFolderOf(sdk)]!();
      expect(published.name).toBeTruthy();
      expect(published.version).toMatch(/^\d+\.\d+\.\d+/);
      expect({ packageName: sdk.packageName, version: sdk.version }).toEqual({
        packageName: published.name,
        version: published.version,
      });
    },
  );

  it.each(SDKS.map((sdk) => [sdk.id, sdk] as const))('%s installs and imports that package', (_id, sdk) => {
    const folder = sdkFolderOf(sdk);
    // Installed from the registry by name, or from its folder in the repository.
    expect(sdk.installCommand.includes(sdk.packageName) || sdk.installCommand.includes(`./${folder}`)).toBe(true);
    const imports: Record<string, RegExp> = {
      'sdks/js': /from '@kasa\/sdk'/,
      'sdks/react': /from '@kasa\/react'/,
      'sdks/python': /^from kasa import|^import kasa\b/m,
      'sdks/go': new RegExp(`"${sdk.packageName.replace(/[.]/g, '\\.')}"`),
      'sdks/rust': new RegExp(`^use ${sdk.packageName}::`, 'm'),
    };
    expect(sdk.quickStart).toMatch(imports[folder]!);
  });
});
