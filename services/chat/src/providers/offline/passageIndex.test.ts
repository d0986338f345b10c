import { MIN_RELEVANCE, PassageIndex } from './passageIndex';

const index = new PassageIndex(
  [
    { id: 'ghana', heading: 'Ghana', text: "Ghana's capital is Accra." },
    { id: 'time', heading: 'Time zones', text: 'Ghana and Senegal use GMT.' },
    { id: 'money', heading: 'Mobile money', text: 'Mobile money lets you save and send money.' },
    { id: 'budget', heading: 'Budgeting', text: 'Write down every expense for a month.' },
  ],
  'en',
);

describe('PassageIndex', () => {
  it('ranks the passage that answers the whole question first, fully relevant', () => {
    const [best, ...rest] = index.search('What is the capital of Ghana?');
    expect(best).toMatchObject({ passage: { id: 'ghana' }, relevance: 1 });
    // "Time zones" shares only "Ghana": found, but not an answer.
    expect(rest.map((h) => h.passage.id)).toEqual(['time']);
    expect(rest[0]!.relevance).toBeLessThan(MIN_RELEVANCE);
  });

  it('weighs a word no passage has the most, so a question about something else stays below the bar', () => {
    const hits = index.search('What is the capital of Mongolia?');
    expect(hits.map((h) => h.passage.id)).toEqual(['ghana']);
    expect(hits[0]!.relevance).toBeLessThan(MIN_RELEVANCE);
  });

  it('finds nothing for a question of stop words only', () => {
    expect(index.search('What is it?')).toEqual([]);
  });
});
