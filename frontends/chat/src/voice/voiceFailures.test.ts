import { messageLanguage, microphoneFailure, synthesizeFailure, transcribeFailure } from './voiceFailures';

describe('what a failed voice call says', () => {
  it('names the Pro plan when the plan has no voice', () => {
    expect(transcribeFailure(403, { message: 'Voice requires the Pro plan' })).toMatchObject({
      kind: 'upgrade',
      message: 'Voice is part of the Pro plan.',
    });
    expect(synthesizeFailure(403, {}).kind).toBe('upgrade');
  });

  it('says that transcription is unavailable on this server, and what to do instead', () => {
    const error = transcribeFailure(503, { message: 'Transcription needs a configured speech-to-text provider.' });
    expect(error.kind).toBe('unavailable');
    expect(error.message).toBe(
      'Transcription is unavailable on this server. Type your message instead, or try again later.',
    );
  });

  it("passes the service's reason for unreadable audio on", () => {
    expect(transcribeFailure(415, { message: 'Unsupported audio type text/plain' }).message).toBe(
      'Unsupported audio type text/plain. Try another recording or file.',
    );
  });

  it('tells a person who denied the microphone how to allow it', () => {
    for (const name of ['NotAllowedError', 'not-allowed']) {
      const error = microphoneFailure(name);
      expect(error.kind).toBe('permission');
      expect(error.message).toMatch(/^Microphone access was denied\. Allow the microphone/);
    }
    expect(microphoneFailure('NotFoundError').message).toMatch(/^No microphone was found/);
  });

  it('sends the chosen language, else the one the transcription heard', () => {
    expect(messageLanguage('fr', 'en')).toBe('fr');
    expect(messageLanguage('auto', 'sw')).toBe('sw');
    expect(messageLanguage('auto', 'english')).toBe('auto');
    expect(messageLanguage('auto', null)).toBe('auto');
  });
});
