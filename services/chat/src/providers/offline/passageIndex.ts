import MiniSearch from 'minisearch';
import { analyzerFor, termsOf } from './textAnalyzer';

/** A piece of text that can be found and quoted: a section of the notes, or a passage of a person's document. */
export interface Passage {
  id: string;
  text: string;
  heading?: string;
  /** The file or document it comes from. */
  source?: string;
}

export interface PassageHit<T extends Passage> {
  passage: T;
  /** MiniSearch's BM25+ score: orders hits for one question, means nothing across questions. */
  score: number;
  /**
   * How much of the question the passage answers, 0..1: the share of the question's terms it matched, each term
   * weighted by its inverse document frequency. A word no passage has ("Mongolia") weighs the most, so a passage that
   * only shares the common words of a question ("capital") stays low. Comparable across questions, unlike `score`.
   */
  relevance: number;
}

/**
 * Below this relevance a passage is not an answer: "What is the capital of Mongolia?" shares only "capital" with the
 * note about Ghana (about 0.4), "What is the capital of Ghana?" all of it (1). Better an honest "I don't know" than
 * the nearest unrelated paragraph.
 */
export const MIN_RELEVANCE = 0.6;

// Prefix search finds "monthly" for "month" and "savings" for "saving"; one typo in six letters is forgiven.
const prefix = (term: string) => term.length >= 4;
const fuzzy = (term: string) => (term.length >= 6 ? 0.2 : false);
const asIs = (term: string) => term;

/**
 * BM25+ full-text retrieval over passages written in one language (MiniSearch), with that language's analyzer for the
 * passages and the questions alike. Headings weigh more than text, sources less.
 */
export class PassageIndex<T extends Passage> {
  private readonly index: MiniSearch<T>;
  private readonly byId = new Map<string, T>();

  /** `language`: a primary subtag; one without its own stop words and stemmer gets the plain analyzer. */
  constructor(
    passages: readonly T[],
    readonly language: string,
  ) {
    const analyzer = analyzerFor(language);
    this.index = new MiniSearch<T>({
      fields: ['heading', 'text', 'source'],
      storeFields: [],
      tokenize: (text) => analyzer.tokenize(text),
      processTerm: (word) => analyzer.processTerm(word),
      searchOptions: { boost: { heading: 2.5, text: 1, source: 0.5 }, prefix, fuzzy },
    });
    for (const passage of passages) this.byId.set(passage.id, passage);
    this.index.addAll(passages);
  }

  get size(): number {
    return this.byId.size;
  }

  /**
   * Every passage that shares a term with the question, best first. `alsoStop`: the language the question is written
   * in, whose stop words are dropped from it too.
   */
  search(question: string, alsoStop?: string): PassageHit<T>[] {
    const terms = termsOf(question, analyzerFor(this.language, alsoStop));
    if (terms.length === 0 || this.size === 0) return [];
    // Already analyzed: searched as they are, with the same prefix and fuzzy matching as the question itself.
    const searchTerms = { tokenize: (text: string) => text.split(' '), processTerm: asIs };
    const documents = this.size;
    const weight = new Map(
      terms.map((term) => {
        const frequency = this.index.search(term, searchTerms).length;
        return [term, Math.log(1 + (documents - frequency + 0.5) / (frequency + 0.5))];
      }),
    );
    const total = [...weight.values()].reduce((sum, w) => sum + w, 0);
    return this.index.search(terms.join(' '), searchTerms).map((result) => ({
      passage: this.byId.get(result.id as string)!,
      score: result.score,
      relevance: result.queryTerms.reduce((sum, term) => sum + (weight.get(term) ?? 0), 0) / total,
    }));
  }
}
