import type { EventData } from '@kasa/contracts';
import { dayKey, dayOf, fieldKey, monthOfDay } from '../rollups/buckets';
import { claimOnce, releaseClaim, type StatusCollections } from '../rollups/collections';
import type { RollupUpdate, RollupWriter } from '../rollups/rollupWriter';
import { userMonthId } from '../requests/requestStore';

/**
 * Voice activity from voice's events, on the person's day in their month document (`usage_months`), beside their
 * chat activity: speech synthesized (count, characters and seconds, and count per language) and finished video jobs
 * (succeeded, failed). Anonymous speech (no user id) is not counted. Each event counts once (`status_markers`).
 */
export class VoiceActivityStore {
  constructor(
    private readonly collections: StatusCollections,
    private readonly writer: RollupWriter,
  ) {}

  async recordSpeech(eventId: string, data: EventData<'voice.speech.synthesized'>, eventTime: string): Promise<void> {
    if (!data.userId) return;
    const day = dayKey(dayOf(new Date(eventTime)));
    await this.once(`speech:${eventId}`, data.userId, eventTime, {
      [`days.${day}.speech`]: 1,
      [`days.${day}.speechCharacters`]: data.characters,
      [`days.${day}.speechSeconds`]: data.durationSeconds,
      [`days.${day}.speechLanguage.${fieldKey(data.language)}`]: 1,
    });
  }

  async recordVideo(data: EventData<'voice.video.completed'>, eventTime: string): Promise<void> {
    const day = dayKey(dayOf(new Date(eventTime)));
    // By job: its event id is fixed per job too, but the job is what is counted.
    await this.once(`video:${data.jobId}`, data.userId, eventTime, {
      [`days.${day}.videos.${data.status}`]: 1,
    });
  }

  private async once(marker: string, userId: string, eventTime: string, inc: Record<string, number>): Promise<void> {
    if (!(await claimOnce(this.collections.markers, marker, new Date()))) return;
    const month = monthOfDay(dayOf(new Date(eventTime)));
    const update: RollupUpdate = {
      collection: this.collections.usage(userId),
      id: userMonthId(userId, month),
      inc,
      setOnInsert: { userId, month },
    };
    try {
      await this.writer.apply([update]);
    } catch (err) {
      await releaseClaim(this.collections.markers, marker);
      throw err;
    }
  }
}
