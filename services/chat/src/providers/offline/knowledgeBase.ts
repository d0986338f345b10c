import MiniSearch, { type SearchResult } from 'minisearch';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** One section (`## heading`) of a knowledge file. */
export interface KnowledgeSection {
  id: string;
  /** The file's title, e.g. "Kasa plans and pricing". */
  source: string;
  heading: string;
  text: string;
  /** Persona ids this section serves, or ['all']. */
  personas: string[];
  /** The language the section is written in (front matter `language:`, English by default). */
  language: string;
}

export interface KnowledgeHit {
  section: KnowledgeSection;
  score: number;
  /** Share of the question's meaningful words that this section matched, 0..1. */
  coverage: number;
}

/** Where the knowledge files live: services/chat/knowledge, both from src/ (tests) and dist/ (built). */
export const DEFAULT_KNOWLEDGE_DIR = path.resolve(__dirname, '../../../knowledge');

// Words that carry no meaning for retrieval; without them "how much does Pro cost" searches "pro cost".
const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by can could did do does doing for from get got had has have how i if in into is it ' +
    'its just me more much my of on or our please say should so some tell than that the their them then there these they ' +
    'this to too us was we what when where which who whom why will with would you your yours about any anything know ' +
    'explain give want need like use using many there here kind sort way ok okay hi hello hey thanks thank'
  ).split(/\s+/),
);

/** Lower-cased words of two letters or more, without stop words. */
export function meaningfulTerms(text: string): string[] {
  return [
    ...new Set(
      text
        .toLowerCase()
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .split(/[^\p{L}\p{N}$]+/u)
        .map((w) => w.replace(/^\$/, ''))
        .filter((w) => w.length >= 2 && !STOP_WORDS.has(w)),
    ),
  ];
}

function parseFile(file: string, raw: string): KnowledgeSection[] {
  const front = /^---\n([\s\S]*?)\n---\n/.exec(raw);
  const meta: Record<string, string> = {};
  for (const line of front?.[1]?.split('\n') ?? []) {
    const [key, ...rest] = line.split(':');
    if (key && rest.length) meta[key.trim()] = rest.join(':').trim();
  }
  const body = front ? raw.slice(front[0].length) : raw;
  const source = meta.title ?? path.basename(file, '.md');
  const personas = (meta.personas ?? 'all').split(',').map((p) => p.trim().toLowerCase());
  const language = (meta.language ?? 'en').trim().toLowerCase();
  return body
    .split(/^## /m)
    .map((chunk) => chunk.trim())
    .filter(Boolean)
    .map((chunk, i) => {
      const [heading = '', ...lines] = chunk.split('\n');
      return {
        id: `${path.basename(file, '.md')}#${i}`,
        source,
        heading: heading.trim(),
        text: lines.join('\n').trim(),
        personas,
        language,
      };
    })
    .filter((s) => s.text.length > 0);
}

/**
 * Kasa's own documentation plus short basics of each persona's field, indexed for full-text retrieval with MiniSearch
 * (BM25 with prefix and light fuzzy matching). Kept in the repository (services/chat/knowledge/*.md), loaded once.
 */
export class KnowledgeBase {
  private readonly index: MiniSearch<KnowledgeSection>;
  private readonly sections = new Map<string, KnowledgeSection>();

  constructor(sections: KnowledgeSection[]) {
    this.index = new MiniSearch<KnowledgeSection>({
      fields: ['heading', 'text', 'source'],
      storeFields: ['id'],
      processTerm: (term) => {
        const word = term.toLowerCase();
        return word.length < 2 || STOP_WORDS.has(word) ? null : word;
      },
      tokenize: (text) =>
        text
          .normalize('NFKD')
          .replace(/[\u0300-\u036f]/g, '')
          .split(/[^\p{L}\p{N}]+/u),
      searchOptions: {
        boost: { heading: 2.5, text: 1, source: 0.5 },
        prefix: (term) => term.length >= 4,
        fuzzy: (term) => (term.length >= 6 ? 0.2 : false),
      },
    });
    for (const section of sections) this.sections.set(section.id, section);
    this.index.addAll(sections);
  }

  static load(dir = DEFAULT_KNOWLEDGE_DIR): KnowledgeBase {
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.md'))
      .sort();
    return new KnowledgeBase(files.flatMap((f) => parseFile(f, readFileSync(path.join(dir, f), 'utf8'))));
  }

  get size(): number {
    return this.sections.size;
  }

  /** The first section with this heading (in English unless a language is given), if any. */
  find(heading: string, language = 'en'): KnowledgeSection | undefined {
    for (const section of this.sections.values())
      if (section.heading === heading && section.language === language) return section;
    return undefined;
  }

  /** Whether any section is written in this language (a primary subtag such as `fr`). */
  hasLanguage(language: string): boolean {
    for (const section of this.sections.values()) if (section.language === language) return true;
    return false;
  }

  /**
   * The best sections for a persona's question, best first; empty when nothing relevant matched. With a language,
   * sections written in it come first when any of them is relevant; otherwise the best in any language.
   */
  search(question: string, personaId: string, limit = 2, language?: string): KnowledgeHit[] {
    const terms = meaningfulTerms(question);
    if (terms.length === 0) return [];
    const results: SearchResult[] = this.index.search(terms.join(' '), {
      filter: (r) => {
        const s = this.sections.get(r.id as string);
        return !!s && (s.personas.includes('all') || s.personas.includes(personaId));
      },
    });
    const hits = results.map((r) => {
      // A query word counts as covered when a matched document term starts with it or it with the term (plurals).
      const covered = terms.filter((t) =>
        r.terms.some((m) => m.startsWith(t) || t.startsWith(m) || r.queryTerms.includes(t)),
      );
      return { section: this.sections.get(r.id as string)!, score: r.score, coverage: covered.length / terms.length };
    });
    // Honest rather than loosely related: at least half of the question's words must match the section.
    const matching = hits.filter((h) => h.coverage >= 0.5);
    const own = language ? matching.filter((h) => h.section.language === language) : [];
    const relevant = own.length > 0 ? own : matching;
    const best = relevant[0];
    if (!best) return [];
    return relevant.filter((h) => h.score >= best.score * 0.6).slice(0, limit);
  }
}
