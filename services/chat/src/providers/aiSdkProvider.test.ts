import { toModelMessages } from './aiSdkProvider';

describe('toModelMessages', () => {
  it('keeps text messages as they are and gives a user message with images a text part and an image part each', () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47]);
    expect(
      toModelMessages([
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Akwaaba' },
        { role: 'user', content: 'And this?', images: [{ data: png, mediaType: 'image/png' }] },
      ]),
    ).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Akwaaba' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'And this?' },
          { type: 'image', image: png, mediaType: 'image/png' },
        ],
      },
    ]);
  });
});
