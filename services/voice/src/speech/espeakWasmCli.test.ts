import { catalogueCode } from '../languages/catalogue';
import { parseVoiceListing } from './espeakProvider';
import { voiceListing } from './espeakWasmCli';

/** A voice as the WebAssembly build's espeak_VOICE struct exposes it: the languages field byte by byte. */
function voiceStruct(identifier: string, name: string, languages: [string, number][], gender = 1, age = 0) {
  const bytes = [...languages.flatMap(([tag, priority]) => [priority, ...Buffer.from(tag, 'latin1'), 0]), 0];
  return {
    ptr: 1,
    get_identifier: () => identifier,
    get_name: () => name,
    get_languages: (i: number) => bytes[i] ?? 0,
    get_gender: () => gender,
    get_age: () => age,
  };
}

const VOICES = [
  voiceStruct('bnt/sw', 'Swahili', [['sw', 5]]),
  voiceStruct('gmw/en-US', 'English (America)', [
    ['en-us', 2],
    ['en', 3],
  ]),
  voiceStruct('sit/yue', 'Chinese (Cantonese)', [
    ['yue', 5],
    ['zh-yue', 5],
    ['zh', 8],
  ]),
  voiceStruct('art/qya', 'Quenya', [['qya', 5]], 2, 30),
];
const worker = { get_voices: (i: number) => VOICES[i] ?? { ...voiceStruct('', '', []), ptr: 0 } };

describe('voiceListing (the WebAssembly build answering --voices)', () => {
  const listing = voiceListing(worker as never);

  it("writes espeak-ng's own columns", () => {
    expect(listing.split('\n')).toEqual([
      'Pty Language       Age/Gender VoiceName          File                 Other Languages',
      ' 5  sw              --/M      Swahili            bnt/sw               ',
      ' 2  en-us           --/M      English_(America)  gmw/en-US            (en 3)',
      ' 5  yue             --/M      Chinese_(Cantonese) sit/yue              (zh-yue 5)(zh 8)',
      ' 5  qya             30/F      Quenya             art/qya              ',
      '',
    ]);
  });

  it('is read by the parser of the system program, voice for voice', () => {
    const voices = parseVoiceListing(listing, catalogueCode, 'espeak-ng-wasm');
    expect(voices.find((v) => v.id === 'sw')).toEqual({
      id: 'sw',
      name: 'Swahili',
      languages: ['sw'],
      locale: 'sw',
      gender: 'male',
      engine: 'espeak-ng-wasm',
      engineVoice: 'bnt/sw',
    });
    expect(voices.find((v) => v.id === 'en-us+f')).toMatchObject({ engineVoice: 'gmw/en-US+f3', languages: ['en'] });
    expect(voices.find((v) => v.id === 'yue')?.languages).toEqual(['yue', 'zh']);
    expect(voices.some((v) => v.locale === 'qya')).toBe(false);
  });
});
