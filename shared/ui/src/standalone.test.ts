import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StandaloneApp, StandaloneStyles } from './standalone';
import { themeTokens } from './tokens';

// A remote's catalogue (in French, to see it is read).
const english = {
  'common.loading': 'Chargement…',
  'standalone.title': 'Connectez-vous pour discuter',
  'standalone.email': 'E-mail',
  'standalone.password': 'Mot de passe',
  'standalone.signIn': 'Se connecter',
};

const client = new QueryClient();
// The auth query's garbage-collection timer would keep the test process alive.
afterAll(() => client.clear());

const renderAt = (url: string) =>
  renderToStaticMarkup(
    createElement(
      QueryClientProvider,
      { client },
      createElement(
        MemoryRouter,
        { initialEntries: [url] },
        createElement(StandaloneApp, {
          english,
          loaders: {},
          path: 'chat/*',
          home: '/chat',
          describeFailure: () => 'failed',
          children: createElement('p', null, 'the chat'),
        }),
      ),
    ),
  );

describe('StandaloneApp', () => {
  it('asks a signed-out visitor of its route to sign in, in the remote’s words', () => {
    const html = renderAt('/chat/abc');
    expect(html).toMatch(/^<main id="main"><form[^>]*><h1>Connectez-vous pour discuter<\/h1>/);
    expect(html).toContain('<label for="standalone-email">E-mail</label>');
    expect(html).toMatch(/<input[^>]*id="standalone-email"[^>]*type="email"/);
    expect(html).toContain('<label for="standalone-password">Mot de passe</label>');
    expect(html).toMatch(/<input[^>]*id="standalone-password"[^>]*type="password"/);
    expect(html).toMatch(/<button[^>]*type="submit"[^>]*>Se connecter<\/button>/);
    expect(html).not.toContain('the chat');
  });
});

describe('StandaloneStyles', () => {
  it('sets the light theme’s variables from the design tokens', () => {
    const html = renderToStaticMarkup(createElement(StandaloneStyles));
    const declared = Object.fromEntries(
      [...html.matchAll(/(--kasa-[\w-]+):\s*([^;]+);/g)].map((match) => [match[1], match[2]!.trim()]),
    );
    expect(declared).toEqual({ ...themeTokens('light', 'electric', false), '--kasa-radius': '8px' });
  });
});
