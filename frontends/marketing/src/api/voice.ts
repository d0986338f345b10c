import { useQuery } from '@tanstack/react-query';
import { apiJson, isApiError } from '@kasa/api-client';
import type { SynthesizeResponse, VoiceSample, VoiceSampleList } from '@kasa/contracts';

/** GET /api/voice/samples: the sentences anyone may hear, in the languages the running engines speak. */
export function useVoiceSamples() {
  return useQuery({
    queryKey: ['marketing', 'voice-samples'],
    queryFn: () => apiJson<VoiceSampleList>('GET', '/api/voice/samples'),
    retry: false,
  });
}

/** POST /api/voice/synthesize for one of the public samples; resolves with the audio's address. */
export function synthesizeSample(sample: VoiceSample): Promise<SynthesizeResponse> {
  return apiJson<SynthesizeResponse>('POST', '/api/voice/synthesize', {
    text: sample.text,
    voice: sample.voice,
    language: sample.language,
  });
}

/** Why the demo cannot speak, as the message the card shows: the engine is down (503), or the service is unreachable. */
export function voiceProblem(error: unknown): 'voiceDemo.engineDown' | 'voiceDemo.unreachable' {
  return isApiError(error) && error.status === 503 ? 'voiceDemo.engineDown' : 'voiceDemo.unreachable';
}
