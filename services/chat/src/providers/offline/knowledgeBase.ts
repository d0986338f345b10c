import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { MIN_RELEVANCE, PassageIndex } from './passageIndex';

/** One section (`## heading`) of a knowledge file. */
export interface KnowledgeSection {
  id: string;
  /** The file's title, e.g. "Kasa plans and pricing". */
  source: string;
  heading: string;
  text: string;
  /**
   * The fields this section belongs to, as the ids of the personas whose fields they are (front matter `personas:`,
   * e.g. `dokta`, or `kasa, nana`), or ['all'] for Kasa's own documentation, which belongs to every field.
   */
  personas: string[];
  /** The language the section is written in (front matter `language:`, English by default). */
  language: string;
  /**
   * The id of the section that goes with every answer drawn from this one: its file's front matter `notice:` names
   * it by heading (the health notes' safety notice, the finance notes' disclaimer).
   */
  notice?: string;
}

export interface KnowledgeHit {
  section: KnowledgeSection;
  /** BM25+ score, to order the hits of one question. */
  score: number;
  /** How much of the question the section answers, 0..1 (see PassageHit). */
  relevance: number;
}

/** What a persona's notes say to a question (see KnowledgeBase.lookup). */
export interface KnowledgeLookup {
  hits: KnowledgeHit[];
  /** When `hits` is empty: the fields (persona ids) whose notes answer the question, best first. */
  others: string[];
}

/** Where the knowledge files live: services/chat/knowledge, both from src/ (tests) and dist/ (built). */
export const DEFAULT_KNOWLEDGE_DIR = path.resolve(__dirname, '../../../knowledge');

/** A second section is quoted only when it scores nearly as well as the first. */
const NEAR_BEST = 0.6;
/** A persona's own notes answer unless another field's score more than twice as well. */
const OTHER_FIELD_MARGIN = 0.5;

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
  const sections = body
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
  const notice = sections.find((s) => s.heading === meta.notice?.trim());
  if (meta.notice && !notice) throw new Error(`${file}: no section "${meta.notice}" for its notice`);
  return notice ? sections.map((s) => ({ ...s, notice: notice.id })) : sections;
}

/** Whether a section belongs to a persona's field: Kasa's own documentation (`all`) belongs to every field. */
const serves = (section: KnowledgeSection, field: string): boolean =>
  section.personas.includes('all') || section.personas.includes(field);

/**
 * Kasa's own documentation plus short basics of each persona's field, kept in the repository
 * (services/chat/knowledge/*.md) and loaded once: one BM25+ index (MiniSearch) per language the notes are written in,
 * each with that language's analyzer (see textAnalyzer.ts).
 */
export class KnowledgeBase {
  private readonly indexes = new Map<string, PassageIndex<KnowledgeSection>>();
  private readonly sections = new Map<string, KnowledgeSection>();

  constructor(sections: KnowledgeSection[]) {
    const byLanguage = new Map<string, KnowledgeSection[]>();
    for (const section of sections) {
      this.sections.set(section.id, section);
      byLanguage.set(section.language, [...(byLanguage.get(section.language) ?? []), section]);
    }
    for (const [language, written] of byLanguage) this.indexes.set(language, new PassageIndex(written, language));
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
    return this.indexes.has(language);
  }

  /**
   * The sections that answer a question (of every field), best first, in the first language that has any: the
   * person's, then English, then the others.
   */
  private relevant(question: string, language: string | undefined): KnowledgeHit[] {
    for (const written of new Set([language, 'en', ...this.indexes.keys()])) {
      const index = written === undefined ? undefined : this.indexes.get(written);
      if (!index) continue;
      const hits = index
        .search(question, language)
        .filter((h) => h.relevance >= MIN_RELEVANCE)
        .map((h) => ({ section: h.passage, score: h.score, relevance: h.relevance }));
      if (hits.length > 0) return hits;
    }
    return [];
  }

  /**
   * What a persona's notes say to a question. `field`: the persona id whose field it answers from (with Kasa's own
   * documentation). `hits`: the best sections of that field, best first, at most `limit`; empty when none answers it,
   * or when another field's notes answer it far better (Kasa's list of personas mentions savings, but it is Merla's
   * notes that answer "How can I save money?"). Then `others`: those fields, best first, at most two.
   */
  lookup(question: string, field: string, options: { limit?: number; language?: string } = {}): KnowledgeLookup {
    const all = this.relevant(question, options.language);
    const own = all.filter((h) => serves(h.section, field));
    const best = own[0];
    if (best && best.score >= all[0]!.score * OTHER_FIELD_MARGIN) {
      const hits = own.filter((h) => h.score >= best.score * NEAR_BEST).slice(0, options.limit ?? 2);
      return { hits, others: [] };
    }
    const others = all.filter((h) => h.score > (best?.score ?? 0)).flatMap((h) => h.section.personas);
    return { hits: [], others: [...new Set(others)].filter((id) => id !== field && id !== 'all').slice(0, 2) };
  }

  /** The notices that go with these sections (their files' `notice:` sections), each once, none already among them. */
  noticesFor(sections: KnowledgeSection[]): KnowledgeSection[] {
    const shown = new Set(sections.map((s) => s.id));
    const ids = sections.flatMap((s) => (s.notice && !shown.has(s.notice) ? [s.notice] : []));
    return [...new Set(ids)].map((id) => this.sections.get(id)!);
  }
}
