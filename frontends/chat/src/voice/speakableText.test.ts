import { MAX_SPOKEN_LENGTH, speakableText } from './speakableText';

describe('speakableText', () => {
  it('reads the words of markdown without its marks', () => {
    const reply = [
      '## Plans',
      '',
      '**Pro** costs $29 per month, see [the pricing page](https://kasa.example/pricing).',
      '- Voice in _every_ persona',
      '1. Ask `Kasa` anything',
      '> Offline mode',
    ].join('\n');
    expect(speakableText(reply)).toBe(
      'Plans\nPro costs $29 per month, see the pricing page.\nVoice in every persona\nAsk Kasa anything\nOffline mode',
    );
  });

  it('leaves code blocks out', () => {
    expect(speakableText('Run this:\n```sh\nnpm start\n```\nThen open the page.')).toBe(
      'Run this:\nThen open the page.',
    );
  });

  it('keeps snake_case words and lone asterisks as they are', () => {
    expect(speakableText('Set OPENAI_API_KEY and rate 5 * 3')).toBe('Set OPENAI_API_KEY and rate 5 * 3');
  });

  it('cuts a long reply at the last sentence within the limit', () => {
    const sentence = 'This is one sentence of a long reply. ';
    const spoken = speakableText(sentence.repeat(400));
    expect(spoken.length).toBeLessThanOrEqual(MAX_SPOKEN_LENGTH);
    expect(spoken.endsWith('reply.')).toBe(true);
  });
});
