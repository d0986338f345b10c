import { voiceComponents } from './voiceComponents';

describe('voiceComponents', () => {
  it('reads the speech engines, transcription and translation of voice’s status', () => {
    expect(
      voiceComponents({
        status: 'ok',
        engines: [
          { name: 'espeak-ng', available: true, voices: 120 },
          { name: 'azure', available: false, voices: 0 },
        ],
        transcription: { status: 'unavailable', providers: [] },
        translation: { status: 'operational', providers: [{ name: 'openai', circuit: 'closed' }] },
      }),
    ).toEqual([
      { name: 'speech:espeak-ng', provider: 'espeak-ng', state: 'operational' },
      { name: 'speech:azure', provider: 'azure', state: 'down' },
      { name: 'transcription', provider: 'offline', state: 'down' },
      { name: 'translation', provider: 'openai', state: 'operational' },
    ]);
  });

  it('treats what is missing or unreadable as unknown, never as an error', () => {
    const unknown = (name: string) => ({ name, provider: 'unknown', state: 'unknown' });
    expect(voiceComponents({ status: 'ok', engines: [] })).toEqual([unknown('transcription'), unknown('translation')]);
    expect(voiceComponents('not json')).toEqual([unknown('transcription'), unknown('translation')]);
    expect(
      voiceComponents({ engines: [{ nom: 'x' }, 42, { name: 'espeak-ng' }], translation: { status: 'sideways' } }),
    ).toEqual([
      { name: 'speech:espeak-ng', provider: 'espeak-ng', state: 'unknown' },
      unknown('transcription'),
      unknown('translation'),
    ]);
    expect(voiceComponents({ translation: { status: 'degraded-offline', providers: [] } }).at(-1)).toEqual({
      name: 'translation',
      provider: 'offline',
      state: 'degraded',
    });
  });
});
