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
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

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
    // What `npm run release:sdks` makes, at the card's version: npm packages by name from the registry they were
    // published to, the Python wheel and the Rust crate by their file names, kasa-go by its version from a Go proxy.
    const name = escapeRegExp(sdk.packageName);
    const release = escapeRegExp(`${sdk.packageName}-${sdk.version}`);
    const installs: Record<string, RegExp> = {
      'sdks/js': /^npm install @kasa\/sdk$/,
      'sdks/react': /^npm install @kasa\/react @kasa\/sdk @tanstack\/react-query$/,
      'sdks/python': new RegExp(`^pip install ${release}-py3-none-any\\.whl$`),
      'sdks/go': new RegExp(`^go get ${name}@v${escapeRegExp(sdk.version)}$`),
      'sdks/rust': new RegExp(`^tar -xzf ${release}\\.crate && cargo add --path ${release} `),
    };
    expect(sdk.installCommand).toMatch(installs[folder]!);
    // Nothing a reader outside this repository lacks.
    expect(sdk.installCommand).not.toMatch(/\.\/sdks\/|replace/);
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
