import { catalogueCode } from '../languages/catalogue';
import { parseVoiceListing } from './espeakProvider';

const LISTING = `Pty Language       Age/Gender VoiceName          File                 Other Languages
 5  af              --/M      Afrikaans          gmw/af
 5  cmn             --/M      Chinese_(Mandarin,_latin_as_English) sit/cmn              (zh-cmn 5)(zh 5)
 5  en-gb           --/M      English_(Great_Britain) gmw/en               (en 2)
 5  en-us           --/M      English_(America)  gmw/en-US            (en 3)
 5  yue             --/M      Chinese_(Cantonese) sit/yue              (zh-yue 5)(zh 8)
 5  yue             --/M      Chinese_(Cantonese,_latin_as_Jyutping) sit/yue-Latn-jyutping (zh-yue 5)(zh 8)
 5  qya             --/M      Quenya             art/qya
`;

describe('parseVoiceListing', () => {
  const voices = parseVoiceListing(LISTING, catalogueCode);

  it('offers each voice with its catalogue languages, as it is and with the female variant', () => {
    expect(voices.find((v) => v.id === 'cmn')).toEqual({
      id: 'cmn',
      name: 'Chinese (Mandarin, latin as English)',
      languages: ['zh'],
      locale: 'cmn',
      gender: 'male',
      engine: 'espeak-ng',
      engineVoice: 'sit/cmn',
    });
    expect(voices.find((v) => v.id === 'en-us+f')).toMatchObject({ gender: 'female', engineVoice: 'gmw/en-US+f3' });
  });

  it('puts the preferred default of a language first and skips languages Kasa does not list', () => {
    expect(voices.find((v) => v.languages.includes('en'))!.id).toBe('en-us');
    expect(voices.find((v) => v.languages.includes('zh'))!.id).toBe('cmn');
    expect(voices.some((v) => v.locale === 'qya')).toBe(false);
  });

  it('gives two voices of the same language tag distinct ids', () => {
    expect(voices.filter((v) => v.locale === 'yue' && !v.id.endsWith('+f')).map((v) => v.id)).toEqual([
      'yue',
      'yue-latn-jyutping',
    ]);
  });
});
