import { parse } from '@formatjs/icu-messageformat-parser';
import { fillPlaceholders, formatElements } from './formatMessage';

const format = (message: string, locale: string, values?: Record<string, string | number>) =>
  formatElements(parse(message), locale, values);

describe('formatting parsed ICU messages', () => {
  it('fills text and number placeholders in the language’s number format', () => {
    expect(format('Step {step, number} of {count, number}', 'en', { step: 1, count: 3 })).toBe('Step 1 of 3');
    expect(format('{n, number} presets', 'fr', { n: 12345 })).toBe(
      `${new Intl.NumberFormat('fr').format(12345)} presets`,
    );
    expect(format('Hello, I am {name}.', 'en', { name: 'Nana' })).toBe('Hello, I am Nana.');
  });

  it('chooses plural forms by the language’s rules, exact matches first, with # as the count', () => {
    const message = '{n, plural, =0 {no chats} one {# chat} few {# chaty} other {# chats}}';
    expect(format(message, 'en', { n: 0 })).toBe('no chats');
    expect(format(message, 'en', { n: 1 })).toBe('1 chat');
    expect(format(message, 'en', { n: 2 })).toBe('2 chats');
    expect(format(message, 'pl', { n: 3 })).toBe('3 chaty');
    expect(format('{n, plural, one {# مرة} other {# مرات}}', 'ar', { n: 11 })).toBe(
      `${new Intl.NumberFormat('ar').format(11)} مرات`,
    );
  });

  it('chooses select branches and falls back to other, and keeps quoted braces as text', () => {
    const message = '{tier, select, pro {Pro plan} other {Free plan}}';
    expect(format(message, 'en', { tier: 'pro' })).toBe('Pro plan');
    expect(format(message, 'en', { tier: 'team' })).toBe('Free plan');
    expect(format("Notifications ('{hotkey}')", 'en')).toBe('Notifications ({hotkey})');
  });

  it('fills the placeholders of a message kept as text, leaving unknown ones', () => {
    expect(fillPlaceholders('New chat with {name}', { name: 'Kasa' })).toBe('New chat with Kasa');
    expect(fillPlaceholders('Rename “{title}”', {})).toBe('Rename “{title}”');
    expect(fillPlaceholders('Plain')).toBe('Plain');
  });
});
