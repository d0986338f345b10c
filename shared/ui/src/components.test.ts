import { createElement, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MessagesProvider } from '@kasa/i18n';
import { ConfirmDialog } from './ConfirmDialog';
import { CopyButton } from './CopyButton';
import { ProgressBar } from './ProgressBar';
import { Tabs } from './Tabs';

// The frontend's catalogue around the components, as CatalogueProvider gives it (in French, to see it is read).
const catalogue = {
  'common.cancel': 'Annuler',
  'copy.label': 'Copier',
  'copy.done': 'Copié',
  'copy.failed': 'Échec de la copie',
  'copy.named': '{action} {context}',
};

const render = (element: ReactElement) =>
  renderToStaticMarkup(createElement(MessagesProvider, { locale: 'fr', catalogue, children: element }));

/** The attributes of the first element whose opening tag contains `marker`. */
function attributesOf(html: string, marker: string): Record<string, string> {
  const tag = [...html.matchAll(/<[a-z]+\b[^>]*>/g)].map((m) => m[0]).find((text) => text.includes(marker)) ?? '';
  return Object.fromEntries([...tag.matchAll(/\s([\w-]+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
}

describe('Tabs', () => {
  const items = [
    { key: 'keys', label: 'Keys', panel: 'the keys panel' },
    { key: 'docs', label: 'Docs', panel: 'the docs panel' },
  ] as const;

  it('renders the selected tab’s panel, named by its tab and found by its test id', () => {
    const html = render(
      createElement(Tabs<'keys' | 'docs'>, { label: 'Sections', items, selected: 'docs', onSelect() {} }),
    );
    const panel = attributesOf(html, 'role="tabpanel"');
    expect(panel['data-testid']).toBe('panel-docs');
    expect(html).toContain('the docs panel');
    expect(html).not.toContain('the keys panel');
    const selectedTab = attributesOf(html, 'aria-selected="true"');
    expect(selectedTab.id).toBe(panel['aria-labelledby']);
    expect(selectedTab.tabindex).toBe('0');
  });

  it('renders `children` as the panel when the caller gives it, and the first tab for an unknown key', () => {
    const html = render(
      createElement(Tabs<string>, {
        label: 'Sections',
        items: [{ key: 'a', label: 'A' }],
        selected: 'gone',
        onSelect() {},
        children: 'the caller’s panel',
      }),
    );
    expect(html).toContain('the caller’s panel');
    expect(attributesOf(html, 'data-testid')['data-testid']).toBe('panel-a');
    expect(attributesOf(html, 'aria-selected="true"')['aria-controls']).toMatch(/-panel-a$/);
  });
});

describe('CopyButton', () => {
  it('says the catalogue’s Copy, and gives screen readers its context after the visible words', () => {
    const html = render(createElement(CopyButton, { text: 'npm i', context: 'la commande', testId: 'install' }));
    const button = attributesOf(html, 'data-testid="install"');
    expect(button['aria-label']).toBe('Copier la commande');
    expect(button['data-state']).toBe('idle');
    expect(html).toContain('<span aria-live="polite">Copier</span>');
  });

  it('shows its own label, with no accessible name of its own when there is no context', () => {
    const html = render(createElement(CopyButton, { text: 'x', label: 'Copier le code', describedBy: 'reply-1' }));
    const button = attributesOf(html, 'data-state');
    expect(button['aria-label']).toBeUndefined();
    expect(button['aria-describedby']).toBe('reply-1');
    expect(html).toContain('Copier le code');
  });
});

describe('ConfirmDialog', () => {
  it('offers the catalogue’s Cancel and the action, which is disabled while busy', () => {
    const html = render(
      createElement(ConfirmDialog, {
        title: 'Supprimer ?',
        confirmLabel: 'Supprimer',
        busy: true,
        onConfirm() {},
        onCancel() {},
        children: 'Cette conversation disparaîtra.',
      }),
    );
    expect(html).toMatch(/<dialog[^>]*aria-labelledby="([^"]+)"[^>]*><h2 id="\1">Supprimer \?<\/h2>/);
    expect(html).toContain('>Annuler</button>');
    expect(html).toMatch(/<button[^>]*disabled=""[^>]*>Supprimer<\/button>/);
  });
});

describe('ProgressBar', () => {
  it('tells assistive technology how far it is, in figures and in the caller’s words', () => {
    const html = render(
      createElement(ProgressBar, { percent: 25, label: 'Téléchargement', text: '25 %', testId: 'bar' }),
    );
    const bar = attributesOf(html, 'role="progressbar"');
    expect(bar).toMatchObject({
      'aria-label': 'Téléchargement',
      'aria-valuemin': '0',
      'aria-valuemax': '100',
      'aria-valuenow': '25',
      'aria-valuetext': '25 %',
      'data-testid': 'bar',
    });
    expect(html).toContain('style="width:25%"');
  });

  it('has no value while the total is unknown', () => {
    const html = render(createElement(ProgressBar, { percent: null, label: 'Téléchargement', text: '3 Mo' }));
    expect(attributesOf(html, 'role="progressbar"')['aria-valuenow']).toBeUndefined();
    expect(html).not.toContain('style="width:');
  });
});
