import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { useBasePath } from './routing';

function ShowBase() {
  return createElement('p', null, useBasePath());
}

/** useBasePath() of a remote the shell mounts on `route`, at address `url`. */
const baseAt = (route: string, url: string) =>
  renderToStaticMarkup(
    createElement(
      MemoryRouter,
      { initialEntries: [url] },
      createElement(Routes, null, createElement(Route, { path: route, element: createElement(ShowBase) })),
    ),
  ).replace(/^<p>|<\/p>$/g, '');

describe('useBasePath', () => {
  it('is where the splat route is mounted, whatever the splat matched', () => {
    expect(baseAt('chat/*', '/chat')).toBe('/chat');
    expect(baseAt('chat/*', '/chat/')).toBe('/chat');
    expect(baseAt('chat/*', '/chat/6f1c2d')).toBe('/chat');
    expect(baseAt('admin/*', '/admin/people/42')).toBe('/admin');
  });

  it('follows the shell wherever it mounts the remote', () => {
    expect(baseAt('workspace/chat/*', '/workspace/chat/6f1c2d')).toBe('/workspace/chat');
  });

  it('reads an encoded address as well as a plain one', () => {
    expect(baseAt('admin/*', '/admin/people/a%20b')).toBe('/admin');
  });

  it('is the route itself off a splat route', () => {
    expect(baseAt('developer', '/developer')).toBe('/developer');
  });
});
