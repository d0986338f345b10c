import type { Page } from 'playwright-core';

/** /theme-settings: presets, Customize, Advanced and Preview tabs; Copy Config, Export and Reset. */
export class ThemeSettingsPage {
  constructor(private readonly page: Page) {}

  async open(baseUrl: string) {
    await this.page.goto(`${baseUrl}/theme-settings`);
    await this.page.getByRole('heading', { name: 'Theme Settings', level: 1 }).waitFor();
  }

  tab(name: 'Presets' | 'Customize' | 'Advanced' | 'Preview') {
    return this.page.getByRole('tab', { name });
  }

  categoryFilter(name: RegExp) {
    return this.page.getByRole('group', { name: 'Preset category' }).getByRole('button', { name });
  }

  presetCards() {
    return this.page.getByRole('list', { name: 'Theme presets' }).getByRole('button');
  }

  preset(id: string) {
    return this.page.getByTestId(`preset-${id}`);
  }

  action(name: 'Copy Config' | 'Export' | 'Reset') {
    return this.page.getByRole('button', { name, exact: true });
  }

  /** The classes the theme puts on <html>, and the slider variables. */
  rootTheme() {
    return this.page.evaluate(() => {
      const root = document.documentElement;
      const style = getComputedStyle(root);
      return {
        classes: Array.from(root.classList).sort(),
        fontSize: root.style.getPropertyValue('--kasa-font-size'),
        radius: root.style.getPropertyValue('--kasa-radius'),
        background: style.getPropertyValue('--kasa-bg').trim(),
      };
    });
  }
}
