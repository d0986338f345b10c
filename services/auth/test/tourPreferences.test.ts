import type { TourPreferenceResponse, TourPreferences } from '@kasa/contracts';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { as, usePreferencesApp } from './preferencesApp';
import { tourPreferenceModel } from '../src/preferences/tourPreferenceModel';

const prefs = usePreferencesApp('tour-preferences', tourPreferenceModel);
const app = () => prefs.app();

const URL = '/api/auth/preferences/tours';
const skippedChat: TourPreferences = { hasSeenWelcome: true, completedTours: ['welcome'], skippedTours: ['chat'] };

describe('tour preferences', () => {
  it('has nothing until tours are saved, then returns exactly what was saved', async () => {
    const me = as(randomUUID());
    const empty = await request(app()).get(URL).set(me);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ tours: null, updatedAt: null });

    const saved = await request(app()).put(URL).set(me).send(skippedChat);
    expect(saved.status).toBe(200);
    expect((saved.body as TourPreferenceResponse).tours).toEqual(skippedChat);

    const loaded = await request(app()).get(URL).set(me);
    expect(loaded.body).toEqual({ tours: skippedChat, updatedAt: expect.any(String) });
    expect(loaded.headers['cache-control']).toBe('no-store');
  });

  it('keeps one record per person, replaced by each save (Reset All Tours saves an empty one)', async () => {
    const userId = randomUUID();
    await request(app()).put(URL).set(as(userId)).send(skippedChat).expect(200);
    const reset: TourPreferences = { hasSeenWelcome: false, completedTours: [], skippedTours: [] };
    await request(app()).put(URL).set(as(userId)).send(reset).expect(200);
    expect(await tourPreferenceModel(prefs.db()).countDocuments({ userId })).toBe(1);
    expect((await request(app()).get(URL).set(as(userId))).body.tours).toEqual(reset);
  });

  it('never shows one person’s tours to another', async () => {
    const ama = as(randomUUID());
    await request(app()).put(URL).set(ama).send(skippedChat).expect(200);
    expect((await request(app()).get(URL).set(as(randomUUID()))).body.tours).toBeNull();
  });

  it('refuses malformed tours, naming the field, and stores nothing', async () => {
    const me = as(randomUUID());
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...skippedChat, hasSeenWelcome: 'yes' }, 'hasSeenWelcome'],
      [{ ...skippedChat, skippedTours: ['chat', 'chat'] }, 'skippedTours'],
      [{ ...skippedChat, completedTours: ['<script>'] }, 'completedTours'],
      [{ ...skippedChat, skippedTours: Array.from({ length: 21 }, (_, i) => `tour-${i}`) }, 'skippedTours'],
      [{ hasSeenWelcome: true, completedTours: [] }, 'skippedTours'],
      [{ ...skippedChat, theme: 'dark' }, 'theme'],
    ];
    for (const [body, field] of cases) {
      const res = await request(app()).put(URL).set(me).send(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: expect.any(String), message: expect.any(String) });
      expect(JSON.stringify(res.body.details ?? res.body.message)).toContain(field);
    }
    expect((await request(app()).get(URL).set(me)).body.tours).toBeNull();
  });

  it('answers 401 without the gateway’s identity', async () => {
    expect((await request(app()).get(URL)).status).toBe(401);
    expect((await request(app()).put(URL).send(skippedChat)).status).toBe(401);
  });
});
