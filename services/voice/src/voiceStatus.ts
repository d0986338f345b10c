import type { VoiceStatus } from '@kasa/contracts';
import type { HeartbeatComponent } from '@kasa/service-kit';
import type { SpeechService } from './speech/speechService';
import type { TranscriptionService } from './transcription/transcriptionService';
import type { TranslationService } from './translation/translationService';

/** What voice knows of its own parts. */
export interface VoiceStatusSources {
  speech: Pick<SpeechService, 'status'>;
  /** Absent in an app built for other tests. */
  transcription?: Pick<TranscriptionService, 'status'>;
  translation?: Pick<TranslationService, 'status'>;
}

/** GET /api/voice/status: the speech engines and encoder, and the state of transcription and translation. */
export function voiceStatus(sources: VoiceStatusSources): VoiceStatus {
  return {
    ...sources.speech.status(),
    ...(sources.transcription ? { transcription: sources.transcription.status() } : {}),
    ...(sources.translation ? { translation: sources.translation.status() } : {}),
  };
}

/** The state words of transcription and translation, as the status page counts them. */
const PART_STATES: Record<
  NonNullable<VoiceStatus['transcription'] | VoiceStatus['translation']>['status'],
  HeartbeatComponent['state']
> = {
  operational: 'operational',
  'degraded-offline': 'degraded',
  unavailable: 'down',
};

/**
 * Voice's parts on the status page, sent in every heartbeat (as chat sends its AI providers), so that the status
 * service learns them from the events it already reads instead of asking voice over HTTP: `speech:<engine>` per
 * speech engine (`operational` when available, else `down`), then `transcription` and `translation` (`operational`;
 * `degraded-offline` → `degraded`; `unavailable` → `down`), whose provider is the first configured one, or `offline`.
 */
export function heartbeatParts(status: VoiceStatus): HeartbeatComponent[] {
  const engines = status.engines.map((engine): HeartbeatComponent => ({
    name: `speech:${engine.name}`,
    provider: engine.name,
    state: engine.available ? 'operational' : 'down',
  }));
  const parts = (['transcription', 'translation'] as const).flatMap((name): HeartbeatComponent[] => {
    const part = status[name];
    if (!part) return [];
    return [{ name, provider: part.providers[0]?.name ?? 'offline', state: PART_STATES[part.status] }];
  });
  return [...engines, ...parts];
}
