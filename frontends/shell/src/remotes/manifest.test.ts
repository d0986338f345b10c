import { parseManifest } from './manifest';

const url = 'https://kasa.example/remotes.json';

describe('parseManifest', () => {
  it('resolves each entry against the manifest URL', () => {
    expect(
      parseManifest(
        { marketing: '/remotes/marketing/remoteEntry.js', chat: 'https://cdn.example/chat/remoteEntry.js' },
        url,
      ),
    ).toEqual({
      marketing: 'https://kasa.example/remotes/marketing/remoteEntry.js',
      chat: 'https://cdn.example/chat/remoteEntry.js',
    });
  });

  it('rejects anything but an object of non-empty URLs', () => {
    expect(() => parseManifest(['/remotes/marketing/remoteEntry.js'], url)).toThrow('must be a JSON object');
    expect(() => parseManifest(null, url)).toThrow('must be a JSON object');
    expect(() => parseManifest({ marketing: '' }, url)).toThrow('the entry of remote "marketing" must be a URL');
    expect(() => parseManifest({ marketing: 42 }, url)).toThrow('must be a URL');
  });
});
