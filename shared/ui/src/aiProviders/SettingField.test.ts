import styled from '@emotion/styled';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { settingFields } from './SettingField';

const { SettingTextField } = settingFields({ Box: styled.div``, Hint: styled.p``, Problem: styled.strong`` });

/** The attributes of the first element whose opening tag contains `marker`, named as React writes them (`maxLength`). */
function attributesOf(html: string, marker: string): Record<string, string> {
  const tag = [...html.matchAll(/<[a-z]+\b[^>]*>/g)].map((m) => m[0]).find((text) => text.includes(marker)) ?? '';
  return Object.fromEntries([...tag.matchAll(/\s([\w-]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
}

const field = (props: { hint?: string; problem?: string }) =>
  renderToStaticMarkup(
    createElement(SettingTextField, {
      id: 'key',
      label: 'Clé',
      ...props,
      setting: 'apiKey',
      value: '',
      onValueChange() {},
    }),
  );

describe('a settings form’s labelled field', () => {
  it('labels its control and has it described by its hint and its problem, which mark it invalid', () => {
    const html = field({ hint: 'Gardée chiffrée.', problem: 'Collez la clé.' });
    expect(html).toContain('<label for="key">Clé</label>');
    expect(attributesOf(html, 'id="key"')).toMatchObject({
      'aria-describedby': 'key-hint key-problem',
      'aria-invalid': 'true',
    });
    expect(html).toMatch(/<p[^>]*id="key-hint"[^>]*>Gardée chiffrée\.<\/p>/);
    expect(html).toMatch(/<strong[^>]*id="key-problem"[^>]*>Collez la clé\.<\/strong>/);
  });

  it('describes nothing and is valid without a hint or a problem', () => {
    const input = attributesOf(field({}), 'id="key"');
    expect(input['aria-describedby']).toBeUndefined();
    expect(input['aria-invalid']).toBeUndefined();
  });

  it('takes a key in a password field that is never spell-checked, left to right, as long as the contract allows', () => {
    expect(attributesOf(field({}), 'id="key"')).toMatchObject({
      type: 'password',
      autoComplete: 'new-password',
      spellCheck: 'false',
      dir: 'ltr',
      maxLength: '1000',
    });
  });
});
