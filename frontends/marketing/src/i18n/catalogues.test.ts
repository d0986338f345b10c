import { AFRICAN_LANGUAGE_NAMES } from '@kasa/contracts/src/africanLanguages';
import english from './en.json';
import legalEnglish from './legal/en.json';
import pagesEnglish from './pages/en.json';

const sections = { pages: pagesEnglish, legal: legalEnglish };

describe('the public pages’ English catalogues', () => {
  it('name the six African languages as @kasa/contracts lists them, wherever they name them', () => {
    const naming = Object.entries({ ...english, ...pagesEnglish }).filter(([, text]) => text.includes('Hausa'));
    expect(naming.map(([id]) => id).sort()).toEqual(
      [
        'about.why.text',
        'features.languages.text',
        'plans.faq.languages.answer',
        'plans.feature.languages',
        'story.languages.text',
      ].sort(),
    );
    for (const [, text] of naming) expect(text).toContain(AFRICAN_LANGUAGE_NAMES);
  });

  it.each(Object.entries(sections))('keep the %s section out of the first load, with no id in common', (_, section) => {
    const firstLoad = new Set(Object.keys(english));
    expect(Object.keys(section).filter((id) => firstLoad.has(id))).toEqual([]);
  });

  it('put in the first load only what the home and welcome pages show, and the plans’ texts', () => {
    const elsewhere = Object.keys(english).filter(
      (id) => !/^(common|landing|welcome|story|voiceDemo|teaser|plans|standalone)\./.test(id),
    );
    expect(elsewhere).toEqual([]);
  });
});
