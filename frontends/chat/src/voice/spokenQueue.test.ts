import { SpokenQueue } from './spokenQueue';

describe('SpokenQueue', () => {
  it('hands out nothing until the first sentence is complete, then that sentence alone', () => {
    const queue = new SpokenQueue();
    queue.update('Akwaaba! I am');
    expect(queue.take({ limit: 500, firstOnly: true })).toBe('Akwaaba! ');
    queue.update('Akwaaba! I am Kasa');
    expect(queue.take({ limit: 500 })).toBe('');
    queue.update('Akwaaba! I am Kasa. How can I help? Ask me');
    expect(queue.take({ limit: 500 })).toBe('I am Kasa. How can I help? ');
    expect(queue.done).toBe(false);
  });

  it('takes only the first of several complete sentences when asked for the first', () => {
    const queue = new SpokenQueue();
    queue.update('One. Two. Three. ');
    expect(queue.take({ limit: 500, firstOnly: true })).toBe('One. ');
    expect(queue.take({ limit: 500 })).toBe('Two. Three. ');
  });

  it('keeps a piece within the limit, but never splits a sentence', () => {
    const queue = new SpokenQueue();
    const long = `${'word '.repeat(40).trim()}. `;
    queue.update(`Short one. ${long}Another. `);
    expect(queue.take({ limit: 20 })).toBe('Short one. ');
    expect(queue.take({ limit: 20 })).toBe(long);
    expect(queue.take({ limit: 20 })).toBe('Another. ');
  });

  it('does not end a sentence at a decimal point or inside a web address', () => {
    const queue = new SpokenQueue();
    queue.update('Version 3.5 is at kasa.ai today');
    expect(queue.take({ limit: 500 })).toBe('');
    queue.finish();
    expect(queue.take({ limit: 500 })).toBe('Version 3.5 is at kasa.ai today');
    expect(queue.done).toBe(true);
  });

  it('ends list items and headings at their line breaks', () => {
    const queue = new SpokenQueue();
    queue.update('## Steps\n- Open the app\n- Speak');
    expect(queue.take({ limit: 500, firstOnly: true })).toBe('## Steps\n');
    expect(queue.take({ limit: 500 })).toBe('- Open the app\n');
  });

  it('holds back an unclosed code block, whose full stops end nothing', () => {
    const queue = new SpokenQueue();
    queue.update('Run this:\n```\nconst a = b. c\nnext. line');
    expect(queue.take({ limit: 500 })).toBe('Run this:\n');
    expect(queue.take({ limit: 500 })).toBe('');
    queue.update('Run this:\n```\nconst a = b. c\nnext. line\n```\nDone. ');
    expect(queue.take({ limit: 500 })).toBe('```\nconst a = b. c\nnext. line\n```\nDone. ');
  });

  it('reads sentences that end in Amharic, Hindi, Arabic and Chinese punctuation', () => {
    const queue = new SpokenQueue();
    queue.update('ሰላም። नमस्ते। مرحبا؟ 你好。 ');
    expect(queue.take({ limit: 500, firstOnly: true })).toBe('ሰላም። ');
    expect(queue.take({ limit: 500 })).toBe('नमस्ते। مرحبا؟ 你好。 ');
  });

  it('hands out the rest once the reply is finished, and is done after it', () => {
    const queue = new SpokenQueue();
    queue.update('First. And the last words');
    expect(queue.take({ limit: 500 })).toBe('First. ');
    queue.finish('First. And the last words');
    expect(queue.done).toBe(false);
    expect(queue.take({ limit: 500 })).toBe('And the last words');
    expect(queue.done).toBe(true);
    expect(queue.take({ limit: 500 })).toBe('');
  });

  it('ignores text that would rewrite what was already handed out', () => {
    const queue = new SpokenQueue();
    queue.update('Hello there. More');
    expect(queue.take({ limit: 500 })).toBe('Hello there. ');
    queue.update('Goodbye. Other');
    queue.finish();
    expect(queue.take({ limit: 500 })).toBe('More');
  });
});
