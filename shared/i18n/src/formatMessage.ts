import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';

/** A placeholder's value. */
export type MessageValue = string | number | boolean | Date | null | undefined;
export type MessageValues = Record<string, MessageValue>;

// The parser's TYPE numbers (@formatjs/icu-messageformat-parser), spelt out so that no parser code ships at run time.
const LITERAL = 0;
const ARGUMENT = 1;
const NUMBER = 2;
const DATE = 3;
const TIME = 4;
const SELECT = 5;
const PLURAL = 6;
const POUND = 7;
const TAG = 8;

const cache = new Map<string, Intl.NumberFormat | Intl.PluralRules | Intl.DateTimeFormat>();
function cached<T extends Intl.NumberFormat | Intl.PluralRules | Intl.DateTimeFormat>(key: string, make: () => T): T {
  let value = cache.get(key) as T | undefined;
  if (!value) {
    value = make();
    cache.set(key, value);
  }
  return value;
}

const numberFormat = (locale: string) => cached(`n:${locale}`, () => new Intl.NumberFormat(locale));
const dateStyles = new Set(['short', 'medium', 'long', 'full']);

function dateTime(locale: string, kind: 'date' | 'time', style: unknown, value: MessageValue): string {
  const named = typeof style === 'string' && dateStyles.has(style) ? style : 'medium';
  const options = (kind === 'date' ? { dateStyle: named } : { timeStyle: named }) as Intl.DateTimeFormatOptions;
  const format = cached(`${kind}:${named}:${locale}`, () => new Intl.DateTimeFormat(locale, options));
  return format.format(value instanceof Date ? value : new Date(value as string | number));
}

/**
 * Formats a message already parsed by FormatJS's ICU MessageFormat parser (at build time): text, `{name}`,
 * `{n, number}`, `{d, date|time, short|medium|long|full}`, `{x, select, …}`, `{n, plural, =0 {…} one {…} other {…}}`
 * with `#` and offsets, and tags (their content). Numbers, plural categories and dates come from the browser's
 * `Intl` in `locale` (which falls back to its default where it lacks the language's data).
 */
export function formatElements(
  elements: readonly MessageFormatElement[],
  locale: string,
  values: MessageValues = {},
  pound?: number,
): string {
  let out = '';
  for (const element of elements) {
    switch (element.type as number) {
      case LITERAL:
        out += (element as { value: string }).value;
        break;
      case ARGUMENT: {
        const value = values[(element as { value: string }).value];
        out += value === undefined || value === null ? '' : String(value);
        break;
      }
      case NUMBER:
        out += numberFormat(locale).format(Number(values[(element as { value: string }).value]));
        break;
      case DATE:
      case TIME: {
        const { value, style } = element as { value: string; style?: unknown };
        out += dateTime(locale, (element.type as number) === DATE ? 'date' : 'time', style, values[value]);
        break;
      }
      case SELECT: {
        const { value, options } = element as {
          value: string;
          options: Record<string, { value: MessageFormatElement[] }>;
        };
        const chosen = options[String(values[value])] ?? options.other;
        if (chosen) out += formatElements(chosen.value, locale, values, pound);
        break;
      }
      case PLURAL: {
        const { value, options, offset, pluralType } = element as {
          value: string;
          options: Record<string, { value: MessageFormatElement[] }>;
          offset: number;
          pluralType: 'cardinal' | 'ordinal';
        };
        const count = Number(values[value]);
        const rules = cached(`p:${pluralType}:${locale}`, () => new Intl.PluralRules(locale, { type: pluralType }));
        const chosen = options[`=${count}`] ?? options[rules.select(count - offset)] ?? options.other;
        if (chosen) out += formatElements(chosen.value, locale, values, count - offset);
        break;
      }
      case POUND:
        out += pound === undefined ? '#' : numberFormat(locale).format(pound);
        break;
      case TAG:
        out += formatElements((element as { children: MessageFormatElement[] }).children, locale, values, pound);
        break;
      default:
        break;
    }
  }
  return out;
}

/** A message kept as text (it has at most `{name}` placeholders): its placeholders filled from `values`. */
export function fillPlaceholders(message: string, values?: MessageValues): string {
  if (!values) return message;
  return message.replace(/\{([^{}\s,]+)\}/g, (whole, name: string) => {
    const value = values[name];
    return value === undefined ? whole : value === null ? '' : String(value);
  });
}
