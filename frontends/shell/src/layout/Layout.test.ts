import { frameOf, pageOf } from './Layout';

describe('pageOf', () => {
  it('treats every /chat/<session> path as the chat page, and other paths as themselves', () => {
    expect(pageOf('/chat')).toBe('/chat');
    expect(pageOf('/chat/64b7f0c2a1b2c3d4e5f60718')).toBe('/chat');
    expect(pageOf('/')).toBe('/');
    expect(pageOf('/billing/success')).toBe('/billing/success');
    expect(pageOf('/chatter')).toBe('/chatter');
  });

  it('treats every /admin/<section> path as the operator console', () => {
    expect(pageOf('/admin')).toBe('/admin');
    expect(pageOf('/admin/audit')).toBe('/admin');
    expect(pageOf('/admin/people/64b7f0c2a1b2c3d4e5f60718')).toBe('/admin');
    expect(pageOf('/administrator')).toBe('/administrator');
  });
});

describe('frameOf', () => {
  it('gives the chat the screen, the portal no footer, and every other page the page with its footer', () => {
    expect(frameOf('/chat')).toBe('screen');
    expect(frameOf(pageOf('/chat/64b7f0c2a1b2c3d4e5f60718'))).toBe('screen');
    expect(frameOf('/developer')).toBe('portal');
    expect(frameOf('/')).toBe('page');
    expect(frameOf('/pricing')).toBe('page');
    expect(frameOf('/settings')).toBe('page');
    expect(frameOf(pageOf('/admin/audit'))).toBe('page');
  });
});
