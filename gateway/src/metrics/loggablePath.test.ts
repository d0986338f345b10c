import { loggablePath } from './loggablePath';

describe('loggablePath', () => {
  it('hides the secret of a shared conversation link and of audio and video file addresses', () => {
    expect(loggablePath('/api/chat/shared/AbCdEfGhIjKlMnOpQrStUv')).toBe('/api/chat/shared/[redacted]');
    expect(loggablePath('/api/voice/audio/3f2a9c.mp3')).toBe('/api/voice/audio/[redacted]');
    expect(loggablePath('/api/video/files/7d1e/video.mp4')).toBe('/api/video/files/[redacted]');
  });

  it('leaves every other path as it is', () => {
    expect(loggablePath('/api/chat/sessions/0123456789abcdef01234567')).toBe(
      '/api/chat/sessions/0123456789abcdef01234567',
    );
    expect(loggablePath('/api/chat/shared/')).toBe('/api/chat/shared/');
    expect(loggablePath('/chat')).toBe('/chat');
  });
});
