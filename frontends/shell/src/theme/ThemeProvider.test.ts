import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { ThemeProvider, useTheme } from './ThemeProvider';
import { DEFAULT_THEME } from './themeSettings';

function ShowMode() {
  const { mode, settings } = useTheme();
  return createElement('span', null, `${mode} ${settings.colorScheme}`);
}

describe('useTheme', () => {
  // React logs the error it rethrows; the throw itself is what this test is about.
  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('throws outside a ThemeProvider, as spec section 8 says', () => {
    expect(() => renderToString(createElement(ShowMode))).toThrow('useTheme must be used within a ThemeProvider');
  });

  it('gives the default theme inside one when nothing is stored', () => {
    const html = renderToString(createElement(ThemeProvider, null, createElement(ShowMode)));
    expect(html).toContain(`${DEFAULT_THEME.mode} ${DEFAULT_THEME.colorScheme}`);
  });
});
