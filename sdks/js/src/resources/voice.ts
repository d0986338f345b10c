import type { CallOptions, HttpClient } from '../http.js';
import type { SynthesizeInput, SynthesizeResponse, Voice } from '../types.js';

/** Speech: text to speech (Pro and Enterprise plans) and the voices available. */
export class VoiceResource {
  constructor(private readonly http: HttpClient) {}

  /** POST /api/voice/synthesize → `{audioUrl, duration, ...}`; `audioUrl` needs no credential to fetch. */
  synthesize(input: SynthesizeInput, options?: CallOptions): Promise<SynthesizeResponse> {
    return this.http.json<SynthesizeResponse>({
      method: 'POST',
      path: '/api/voice/synthesize',
      body: input,
      creates: true,
      options,
    });
  }

  /** GET /api/voice/voices → the voices of the installed engines, optionally of one language. */
  async voices(query: { language?: string } = {}, options?: CallOptions): Promise<Voice[]> {
    const list = await this.http.json<{ voices: Voice[] }>({
      method: 'GET',
      path: '/api/voice/voices',
      query: { ...query },
      options,
    });
    return list.voices;
  }
}
