import { excerpt, highlight, matchRanges, queryWords } from './highlight';

const marked = (text: string, query: string) =>
  highlight(text, query)
    .map((s) => (s.match ? `[${s.text}]` : s.text))
    .join('');

describe('search hit highlighting', () => {
  it('marks every occurrence of each word of the query, ignoring case', () => {
    expect(marked('Kasa speaks Twi; kasa means to speak.', 'KASA speak')).toBe(
      '[Kasa] [speak]s Twi; [kasa] means to [speak].',
    );
  });

  it('ignores accents both ways and keeps the original letters', () => {
    expect(marked('Ẹ kú àárọ̀ from Yorùbá land', 'yoruba')).toBe('Ẹ kú àárọ̀ from [Yorùbá] land');
    expect(marked('a cafe and a café', 'CAFÉ')).toBe('a [cafe] and a [café]');
    // Accents written as separate combining characters stay inside the mark.
    expect(marked('cafe\u0301!', 'cafe')).toBe('[cafe\u0301]!');
  });

  it('merges overlapping and touching matches into one mark', () => {
    expect(marked('akwaaba', 'akwa waa')).toBe('[akwaa]ba');
    expect(matchRanges('mobile money', 'mobile money')).toEqual([
      [0, 6],
      [7, 12],
    ]);
  });

  it('returns the text as it is when nothing matches or the query is blank', () => {
    expect(highlight('Hello there', 'zzz')).toEqual([{ text: 'Hello there', match: false }]);
    expect(highlight('Hello there', '   ')).toEqual([{ text: 'Hello there', match: false }]);
    expect(highlight('', 'x')).toEqual([{ text: '', match: false }]);
  });

  it('keeps markup in a message as text (each part is rendered as a text node)', () => {
    const segments = highlight('<img src=x onerror=alert(1)> the money', 'money');
    expect(segments).toEqual([
      { text: '<img src=x onerror=alert(1)> the ', match: false },
      { text: 'money', match: true },
    ]);
  });

  it('treats regular-expression characters in the query literally', () => {
    expect(marked('cost (a+b)* more', '(a+b)*')).toBe('cost [(a+b)*] more');
  });

  it('splits the query into distinct folded words', () => {
    expect(queryWords('  Àkwaába   akwaaba  Kasa ')).toEqual(['akwaaba', 'kasa']);
  });
});

describe('excerpt', () => {
  it('shows the part of a long message around the first match, whatever its accents', () => {
    const text = `${'intro '.repeat(20)}the word Àkwaába is here ${'outro '.repeat(20)}`;
    const shown = excerpt(text, 'akwaaba');
    expect(shown).toContain('Àkwaába');
    expect(shown.startsWith('…')).toBe(true);
    expect(shown.endsWith('…')).toBe(true);
  });
});
