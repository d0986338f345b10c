import { ServiceHeartbeatEvent, type VoiceStatus } from '@kasa/contracts';
import { heartbeatParts, voiceStatus } from './voiceStatus';

const speech: VoiceStatus = {
  status: 'ok',
  engines: [
    { name: 'espeak-ng', available: true, voices: 120 },
    { name: 'azure', available: false, voices: 0 },
  ],
  encoder: { name: 'ffmpeg', available: true, format: 'mp3' },
};

describe('voice’s parts in its heartbeat', () => {
  it('reports each speech engine, transcription and translation as GET /api/voice/status tells them', () => {
    const status = voiceStatus({
      speech: { status: () => speech },
      transcription: { status: () => ({ status: 'unavailable', providers: [] }) },
      translation: { status: () => ({ status: 'operational', providers: [{ name: 'openai', circuit: 'closed' }] }) },
    });
    expect(status).toMatchObject({ engines: speech.engines, transcription: { status: 'unavailable' } });
    const parts = heartbeatParts(status);
    expect(parts).toEqual([
      { name: 'speech:espeak-ng', provider: 'espeak-ng', state: 'operational' },
      { name: 'speech:azure', provider: 'azure', state: 'down' },
      { name: 'transcription', provider: 'offline', state: 'down' },
      { name: 'translation', provider: 'openai', state: 'operational' },
    ]);
    // What the heartbeat's contract accepts: a part it refused would cost voice its heartbeat.
    const heartbeat = {
      service: 'voice',
      instanceId: 'v1',
      version: '1.0.0',
      ready: true,
      checks: {},
      at: new Date().toISOString(),
    };
    expect(ServiceHeartbeatEvent.safeParse({ ...heartbeat, components: parts }).success).toBe(true);
  });

  it('says translation without an AI provider is degraded, and leaves out what voice was built without', () => {
    expect(
      heartbeatParts(
        voiceStatus({
          speech: { status: () => ({ ...speech, engines: [] }) },
          translation: { status: () => ({ status: 'degraded-offline', providers: [] }) },
        }),
      ),
    ).toEqual([{ name: 'translation', provider: 'offline', state: 'degraded' }]);
  });
});
