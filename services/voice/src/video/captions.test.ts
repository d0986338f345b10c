import { splitIntoCaptions, toSrt, toVtt, wrapLines } from './captions';

describe('video captions', () => {
  it('splits a prompt into its sentences, cutting very long ones', () => {
    expect(splitIntoCaptions('Akwaaba!  Welcome to Accra. Enjoy   your stay.', 'en')).toEqual([
      'Akwaaba!',
      'Welcome to Accra.',
      'Enjoy your stay.',
    ]);
    const long = `${'word '.repeat(60)}end.`;
    const captions = splitIntoCaptions(long, 'en');
    expect(captions.length).toBeGreaterThan(1);
    expect(captions.every((c) => c.length <= 160)).toBe(true);
    expect(captions.join(' ')).toBe(long.trim());
  });

  it('falls back to English sentence rules for a tag Intl does not know', () => {
    expect(splitIntoCaptions('One. Two.', 'gaa')).toEqual(['One.', 'Two.']);
  });

  it('wraps a caption into short lines', () => {
    expect(wrapLines('the quick brown fox jumps over the lazy dog', 15)).toBe(
      'the quick brown\nfox jumps over\nthe lazy dog',
    );
  });

  it('writes SubRip timings', () => {
    expect(
      toSrt([
        { text: 'Hello.', start: 0, end: 1.5 },
        { text: 'Bye.', start: 61.25, end: 3723.001 },
      ]),
    ).toBe('1\n00:00:00,000 --> 00:00:01,500\nHello.\n\n2\n00:01:01,250 --> 01:02:03,001\nBye.\n');
  });

  it('writes WebVTT for a <track>, showing markup and arrows as text', () => {
    expect(
      toVtt([
        { text: 'Akwaaba!', start: 0, end: 1.25 },
        { text: 'Use <b> & --> here.', start: 1.25, end: 3661.5 },
      ]),
    ).toBe(
      'WEBVTT\n\n1\n00:00:00.000 --> 00:00:01.250\nAkwaaba!\n\n' +
        '2\n00:00:01.250 --> 01:01:01.500\nUse &lt;b&gt; &amp; --&gt; here.\n',
    );
  });
});
