import { LOCALE_CODES } from '@kasa/i18n';
import ar from '../i18n/video/ar.json';
import ee from '../i18n/video/ee.json';
import en from '../i18n/video/en.json';
import labels from '../i18n/video/entry.json';
import fr from '../i18n/video/fr.json';
import gaa from '../i18n/video/gaa.json';
import ha from '../i18n/video/ha.json';
import sw from '../i18n/video/sw.json';
import tw from '../i18n/video/tw.json';
import yo from '../i18n/video/yo.json';

const catalogues: Record<string, Record<string, string>> = { ar, ee, en, fr, gaa, ha, sw, tw, yo };

describe('the Videos button’s label', () => {
  it('is, in every language, the Videos panel’s own title', () => {
    expect(Object.keys(labels).sort()).toEqual([...LOCALE_CODES].sort());
    for (const locale of LOCALE_CODES) {
      expect([locale, labels[locale as keyof typeof labels]]).toEqual([locale, catalogues[locale]?.['videos.title']]);
    }
  });
});
