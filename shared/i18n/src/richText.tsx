import { Fragment, type ReactNode } from 'react';

/**
 * A message with elements inside it (code, a link): `format` formats the message with the values it is given, and
 * each `{name}` of `elements` becomes that element wherever the translation puts it, so that translators order the
 * sentence as their language needs. shared/i18n's catalogue test checks that every translation keeps English's
 * placeholders, so no element can go missing.
 */
export function richText(
  format: (values: Record<string, string>) => string,
  elements: Readonly<Record<string, ReactNode>>,
): ReactNode[] {
  const names = Object.keys(elements);
  // Characters from Unicode's private use area, which no message contains, mark where each element goes.
  const markers = Object.fromEntries(names.map((name, index) => [name, `\uE000${index}\uE001`]));
  return format(markers)
    .split(/\uE000(\d+)\uE001/)
    .map((part, index) =>
      index % 2 === 1 ? <Fragment key={index}>{elements[names[Number(part)] ?? '']}</Fragment> : part,
    );
}
