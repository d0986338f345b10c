import type { ThemePreferenceResponse, ThemeSettings } from '@kasa/contracts';
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { as, usePreferencesApp } from './preferencesApp';
import { themePreferenceModel } from '../src/preferences/themePreferenceModel';

const prefs = usePreferencesApp('preferences', themePreferenceModel);
const app = () => prefs.app();

const URL = '/api/auth/preferences/theme';
const darkNeon: ThemeSettings = {
  mode: 'dark',
  colorScheme: 'neon',
  animations: false,
  highContrast: true,
  customSettings: { borderRadius: 12, spacing: 24, fontSize: 16 },
};

describe('theme preferences', () => {
  it('has no theme until one is saved, then returns exactly what was saved', async () => {
    const me = as(randomUUID());
    const empty = await request(app()).get(URL).set(me);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ theme: null, updatedAt: null });

    const saved = await request(app()).put(URL).set(me).send(darkNeon);
    expect(saved.status).toBe(200);
    expect((saved.body as ThemePreferenceResponse).theme).toEqual(darkNeon);

    const loaded = await request(app()).get(URL).set(me);
    expect(loaded.body).toEqual({ theme: darkNeon, updatedAt: expect.any(String) });
    expect(loaded.headers['cache-control']).toBe('no-store');
  });

  it('keeps one record per person, updated in place', async () => {
    const userId = randomUUID();
    await request(app()).put(URL).set(as(userId)).send(darkNeon).expect(200);
    const light = { ...darkNeon, mode: 'light', colorScheme: 'mono' };
    await request(app()).put(URL).set(as(userId)).send(light).expect(200);
    expect(await themePreferenceModel(prefs.db()).countDocuments({ userId })).toBe(1);
    const loaded = await request(app()).get(URL).set(as(userId));
    expect(loaded.body.theme).toEqual(light);
  });

  it('never shows one person’s theme to another', async () => {
    const ama = as(randomUUID());
    const kofi = as(randomUUID());
    await request(app()).put(URL).set(ama).send(darkNeon).expect(200);
    const other = await request(app()).get(URL).set(kofi);
    expect(other.body.theme).toBeNull();
  });

  it('refuses values outside the spec’s bounds, naming the field, and stores nothing', async () => {
    const me = as(randomUUID());
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...darkNeon, mode: 'sepia' }, 'mode'],
      [{ ...darkNeon, colorScheme: 'rainbow' }, 'colorScheme'],
      [{ ...darkNeon, customSettings: { ...darkNeon.customSettings, fontSize: 30 } }, 'customSettings.fontSize'],
      [{ ...darkNeon, customSettings: { ...darkNeon.customSettings, spacing: 9 } }, 'customSettings.spacing'],
      [
        { ...darkNeon, customSettings: { ...darkNeon.customSettings, borderRadius: -1 } },
        'customSettings.borderRadius',
      ],
      [{ ...darkNeon, animations: 'yes' }, 'animations'],
    ];
    for (const [body, field] of cases) {
      const res = await request(app()).put(URL).set(me).send(body);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: expect.any(String), message: expect.any(String) });
      expect(JSON.stringify(res.body.details)).toContain(field.split('.').pop());
    }
    expect((await request(app()).get(URL).set(me)).body.theme).toBeNull();
  });

  it('answers 401 without the gateway’s identity, and 413 for an oversized body', async () => {
    expect((await request(app()).get(URL)).status).toBe(401);
    expect((await request(app()).put(URL).send(darkNeon)).status).toBe(401);
    const huge = { ...darkNeon, padding: 'x'.repeat(20_000) };
    expect((await request(app()).put(URL).set(as(randomUUID())).send(huge)).status).toBe(413);
  });
});
