import type { Language, LanguageCapabilities, LanguageCapability, LanguageSpeech } from '@kasa/contracts';
import langs from 'langs';

/** A language of the catalogue without its capabilities (those depend on what runs). */
export interface LanguageEntry {
  code: string;
  iso6391: string | null;
  iso6393: string;
  name: string;
  nativeName: string;
}

/**
 * Languages without an ISO 639-1 code that Kasa lists: Ga (one of the six African languages of the product), other
 * languages of Ghana and Nigeria, and those eSpeak NG has a voice for. Everything with a 639-1 code comes from the
 * `langs` package.
 */
const WITHOUT_639_1: LanguageEntry[] = [
  ['gaa', 'Ga', 'Gã'],
  ['fat', 'Fante', 'Mfantse'],
  ['pcm', 'Nigerian Pidgin', 'Naijá'],
  ['yue', 'Cantonese', '粵語'],
  ['hak', 'Hakka Chinese', '客家話'],
  ['haw', 'Hawaiian', 'ʻŌlelo Hawaiʻi'],
  ['pap', 'Papiamento', 'Papiamentu'],
  ['kok', 'Konkani', 'कोंकणी'],
  ['chr', 'Cherokee', 'ᏣᎳᎩ'],
  ['quc', "K'iche'", "K'iche'"],
  ['nog', 'Nogai', 'Ногай тили'],
  ['smj', 'Lule Sami', 'Julevsámegiella'],
  ['ltg', 'Latgalian', 'Latgalīšu'],
  ['hyw', 'Western Armenian', 'Արեւմտահայերէն'],
  ['grc', 'Ancient Greek', 'Ἑλληνική'],
  ['nci', 'Classical Nahuatl', 'Nāhuatlahtōlli'],
  ['jbo', 'Lojban', 'La .lojban.'],
  ['shn', 'Shan', 'တႆး'],
  ['bpy', 'Bishnupriya Manipuri', 'বিষ্ণুপ্রিয়া মণিপুরী'],
  // A voice of the WebAssembly build of eSpeak NG (engines.ts), not of Debian's 1.51.
  ['kaa', 'Karakalpak', 'Qaraqalpaq tili'],
].map(([code, name, nativeName]) => ({
  code: code!,
  iso6391: null,
  iso6393: code!,
  name: name!,
  nativeName: nativeName!,
}));

/** Where `langs` has a native name that is not the one most of the language's speakers write today. */
const NATIVE_NAME_OVERRIDES: Record<string, string> = { ha: 'Hausa', tw: 'Twi', ak: 'Akan', ee: 'Eʋegbe' };

/** Individual-language codes (what engines and detectors use) for the catalogue's macrolanguage entries. */
const INDIVIDUAL_TO_CATALOGUE: Record<string, string> = {
  cmn: 'zh',
  arb: 'ar',
  pes: 'fa',
  prs: 'fa',
  swh: 'sw',
  zsm: 'ms',
  zlm: 'ms',
  lvs: 'lv',
  ekk: 'et',
  npi: 'ne',
  khk: 'mn',
  uzn: 'uz',
  azj: 'az',
  als: 'sq',
  gax: 'om',
  quz: 'qu',
  nob: 'nb',
  nno: 'nn',
  iw: 'he',
  in: 'id',
  fil: 'tl',
};

/** Ancient, liturgical and extinct languages: listed, but no one chats in them. */
const NOT_SPOKEN = new Set(['ae', 'cu', 'pi', 'grc', 'nci']);

function buildEntries(): LanguageEntry[] {
  const fromLangs = langs.all().map((l) => ({
    code: l['1'],
    iso6391: l['1'],
    iso6393: l['3'],
    name: l.name,
    nativeName: NATIVE_NAME_OVERRIDES[l['1']] ?? l.local,
  }));
  const known = new Set(fromLangs.map((l) => l.iso6393));
  return [...fromLangs, ...WITHOUT_639_1.filter((l) => !known.has(l.iso6393))].sort((a, b) =>
    a.name.localeCompare(b.name, 'en'),
  );
}

/** Every language Kasa lists, with ISO codes and names. */
export const LANGUAGE_ENTRIES: readonly LanguageEntry[] = buildEntries();

const byCode = new Map<string, LanguageEntry>();
for (const entry of LANGUAGE_ENTRIES) {
  byCode.set(entry.code, entry);
  byCode.set(entry.iso6393, entry);
}
for (const l of langs.all()) for (const key of ['2', '2T', '2B'] as const) byCode.set(l[key], byCode.get(l['1'])!);

/**
 * The catalogue code for a language tag or ISO code: `en-GB` → `en`, `eng` → `en`, `cmn` → `zh`, `gaa` → `gaa`;
 * undefined for a language Kasa does not list.
 */
export function catalogueCode(tag: string): string | undefined {
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return byCode.get(INDIVIDUAL_TO_CATALOGUE[primary] ?? primary)?.code;
}

export function languageEntry(code: string): LanguageEntry | undefined {
  const catalogue = catalogueCode(code);
  return catalogue ? byCode.get(catalogue) : undefined;
}

/**
 * The catalogue code of a language's English name, as some providers name the language they heard ("swahili" → sw);
 * undefined when none matches.
 */
export function codeForLanguageName(name: string): string | undefined {
  const wanted = name.trim().toLowerCase();
  if (!wanted) return undefined;
  return LANGUAGE_ENTRIES.find((e) => {
    const own = e.name.toLowerCase();
    return own === wanted || own.startsWith(`${wanted} (`) || own.split(/[;,]\s*/).includes(wanted);
  })?.code;
}

/** What the running platform can do, asked per language code. */
export interface CapabilitySources {
  canDetect: (code: string) => boolean;
  canSpeak: (code: string) => boolean;
  /** A configured speech-to-text provider recognizes it (never true without one: there is no offline recognizer). */
  canListen?: (code: string) => boolean;
  /** A configured AI provider can translate into and out of it. */
  canTranslate?: (code: string) => boolean;
  /** `*` for every spoken language, or the list of codes chat is claimed for. */
  chatLanguages: '*' | string[];
  /** Which engine speaks the language here, and which ones Kasa would route it to. */
  speechOf: (code: string) => LanguageSpeech;
}

/** The language catalogue with each language's capabilities as the running platform has them. */
export class LanguageCatalogue {
  private languages: Language[];
  private index = new Map<string, Language>();

  constructor(private readonly sources: CapabilitySources) {
    this.languages = LANGUAGE_ENTRIES.map((entry) => ({
      ...entry,
      capabilities: capabilitiesOf(entry, sources),
      speech: sources.speechOf(entry.code),
    }));
    for (const language of this.languages) this.index.set(language.code, language);
  }

  /**
   * Asks the sources again (the AI providers operators add in the browser change what is heard and translated): the
   * languages are replaced whole, so a request reading the catalogue meanwhile sees one state or the other.
   */
  refreshCapabilities(): void {
    const languages = this.languages.map((language) => ({
      ...language,
      capabilities: capabilitiesOf(language, this.sources),
    }));
    this.index = new Map(languages.map((language) => [language.code, language]));
    this.languages = languages;
  }

  list(capability?: LanguageCapability): Language[] {
    return capability ? this.languages.filter((l) => l.capabilities[capability]) : this.languages;
  }

  /** A language by any of its codes or a tag (`en-GB`), or undefined. */
  get(tag: string): Language | undefined {
    const code = catalogueCode(tag);
    return code ? this.index.get(code) : undefined;
  }

  /** The English name of a language code, or the code itself if it is not listed. */
  nameOf(code: string): string {
    return this.get(code)?.name ?? code;
  }
}

function capabilitiesOf(entry: LanguageEntry, sources: CapabilitySources): LanguageCapabilities {
  const chat =
    !NOT_SPOKEN.has(entry.code) && (sources.chatLanguages === '*' || sources.chatLanguages.includes(entry.code));
  return {
    detect: sources.canDetect(entry.code),
    chat,
    speak: sources.canSpeak(entry.code),
    listen: sources.canListen?.(entry.code) ?? false,
    translate: !NOT_SPOKEN.has(entry.code) && (sources.canTranslate?.(entry.code) ?? false),
  };
}
