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

/** A short explanation of why the demo cannot speak, for the card to show. */
export function voiceProblem(error: unknown): string {
  if (isApiError(error) && error.status === 503) {
    return 'The speech engine is not running on this server right now, so the demo cannot speak. Text chat works as usual.';
  }
  return 'The voice service could not be reached, so the demo cannot speak right now. Please try again in a moment.';
}
