import type { LanguagePreferenceResponse } from '@kasa/contracts';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { as, usePreferencesApp } from './preferencesApp';
import { languagePreferenceModel } from '../src/preferences/languagePreferenceModel';

const prefs = usePreferencesApp('language', languagePreferenceModel);
const app = () => prefs.app();

const URL = '/api/auth/preferences/language';

describe('interface language preference', () => {
  it('has no language until one is picked, then returns the one picked last', async () => {
    const me = as(randomUUID());
    const empty = await request(app()).get(URL).set(me);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ language: null, updatedAt: null });
    expect(empty.headers['cache-control']).toBe('no-store');

    const twi = await request(app()).put(URL).set(me).send({ language: 'tw' });
    expect(twi.status).toBe(200);
    expect((twi.body as LanguagePreferenceResponse).language).toBe('tw');
    await request(app()).put(URL).set(me).send({ language: 'ar' }).expect(200);

    const loaded = await request(app()).get(URL).set(me);
    expect(loaded.body).toEqual({ language: 'ar', updatedAt: expect.any(String) });
  });

  it('keeps one record per person and never shows it to another', async () => {
    const userId = randomUUID();
    await request(app()).put(URL).set(as(userId)).send({ language: 'gaa' }).expect(200);
    await request(app()).put(URL).set(as(userId)).send({ language: 'ee' }).expect(200);
    expect(await languagePreferenceModel(prefs.db()).countDocuments({ userId })).toBe(1);
    const other = await request(app()).get(URL).set(as(randomUUID()));
    expect(other.body.language).toBeNull();
  });

  it('refuses a language the interface does not offer, naming the field, and stores nothing', async () => {
    const userId = randomUUID();
    for (const body of [{ language: 'de' }, { language: 'EN' }, {}, { language: 'tw', extra: true }]) {
      const res = await request(app()).put(URL).set(as(userId)).send(body);
      expect(res.status).toBe(400);
      expect(res.body.message).toEqual(expect.any(String));
    }
    const bad = await request(app()).put(URL).set(as(userId)).send({ language: 'de' });
    expect(JSON.stringify(bad.body.details)).toContain('language');
    expect(await languagePreferenceModel(prefs.db()).countDocuments({ userId })).toBe(0);
  });

  it('answers 401 without the gateway’s identity', async () => {
    expect((await request(app()).get(URL)).status).toBe(401);
    expect((await request(app()).put(URL).send({ language: 'fr' })).status).toBe(401);
  });
});
