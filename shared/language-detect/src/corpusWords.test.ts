import { corpusWordLists } from './corpusWords';

describe('corpusWordLists', () => {
  const sentences = {
    ee: ['Yakob yi du la me.', 'Ke Yakob gblɔ be yeayi.', 'Ame la yi afi sia ke.', 'Eye wògblɔ na Yakob be ɖe.'],
  };

  it('keeps the words several sentences use, most used first', () => {
    const [list] = Object.values(corpusWordLists(sentences, { perLanguage: 10, minSentences: 2 }));
    expect(list!.slice(0, 2)).toEqual(['be', 'ke']);
    expect(list).toEqual(expect.arrayContaining(['yi', 'la']));
    expect(list).not.toContain('afi'); // one sentence only
  });

  it('never keeps a name: a word the corpus only writes capitalised', () => {
    const lists = corpusWordLists(sentences, { perLanguage: 10, minSentences: 2 });
    expect(lists.ee).not.toContain('yakob');
    // "Ke" starts a sentence but is also written in lower case, so it is a word of the language.
    expect(lists.ee).toContain('ke');
  });

  it('keeps at most perLanguage words', () => {
    expect(corpusWordLists(sentences, { perLanguage: 1, minSentences: 2 }).ee).toHaveLength(1);
  });
});
