import { UI_LANGUAGES, type EventData } from '@kasa/contracts';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { MAIL_CATALOGUES, fillText, mailCatalogueFor, placeholdersOf } from './mailCatalogues';
import { formatNoticeDate, renderNotice } from './noticeMessage';

const english = MAIL_CATALOGUES.en;
const keys = Object.keys(english).sort();

describe('the e-mail catalogues', () => {
  it('has one catalogue file per language Kasa ships, and no other', () => {
    const files = readdirSync(path.join(__dirname, 'catalogues')).sort();
    expect(files).toEqual([...UI_LANGUAGES].map((language) => `${language}.json`).sort());
  });

  it.each(UI_LANGUAGES.filter((language) => language !== 'en'))(
    'gives %s exactly English’s keys, each with English’s placeholders, none left empty or untranslated',
    (language) => {
      const catalogue = MAIL_CATALOGUES[language];
      expect(Object.keys(catalogue).sort()).toEqual(keys);
      for (const key of keys) {
        const text = catalogue[key as keyof typeof catalogue];
        const source = english[key as keyof typeof english];
        expect([key, placeholdersOf(text)]).toEqual([key, placeholdersOf(source)]);
        expect(text.trim()).not.toBe('');
        // Only the closing line "The Kasa team" may read alike; every sentence is the language's own.
        if (key.endsWith('.body') || key.endsWith('.subject')) expect([key, text]).not.toEqual([key, source]);
      }
    },
  );

  it('fills placeholders and leaves an unknown one as written', () => {
    expect(fillText('Hello {name}, {missing}', { name: 'Ama' })).toBe('Hello Ama, {missing}');
    expect(placeholdersOf('{plan} until {date}: {url}, {plan}')).toEqual(['date', 'plan', 'url']);
  });

  it('falls back to English for a language Kasa does not ship', () => {
    expect(mailCatalogueFor('de').language).toBe('en');
    expect(mailCatalogueFor(null).language).toBe('en');
    expect(mailCatalogueFor('gaa').language).toBe('gaa');
  });
});

describe('a notice as an e-mail', () => {
  const renewal: EventData<'auth.email.requested'> = {
    userId: 'u1',
    to: 'ama@example.com',
    notice: 'renewal_failed',
    occurredAt: '2026-12-07T10:05:00.000Z',
    planId: 'pro',
    graceUntil: '2026-12-14T10:05:00.000Z',
    actionUrl: 'https://kasa.example/settings',
  };
  const context = { language: 'fr', name: 'ama_k', publicUrl: 'https://kasa.example' };

  it.each(UI_LANGUAGES)('renders every notice in %s with nothing left to fill', (language) => {
    for (const notice of ['sign_in_throttled', 'registration_attempted', 'renewal_failed', 'plan_lapsed'] as const) {
      const mail = renderNotice({ ...renewal, notice }, { ...context, language });
      expect(mail.language).toBe(language);
      expect(`${mail.subject}\n${mail.text}`).not.toMatch(/\{[a-zA-Z]+\}/);
      expect(mail.text).toContain('ama_k');
      expect(mail.text).toContain('ama@example.com');
    }
  });

  it('names the plan, the end of the grace in the language’s own words, and the Settings link', () => {
    const mail = renderNotice(renewal, context);
    expect(mail.subject).toBe('Le paiement de renouvellement de votre formule Kasa Pro a échoué');
    expect(mail.text).toContain('jusqu’au 14 décembre 2026 à 10:05 UTC');
    expect(mail.text).toContain('Paramètres → Formule et facturation : https://kasa.example/settings');
    expect(mail.html).toContain('<a href="https://kasa.example/settings">https://kasa.example/settings</a>');
    expect(mail.html).toContain('<html lang="fr" dir="ltr">');
  });

  it('formats dates with Intl for each language, right to left for Arabic', () => {
    expect(formatNoticeDate('2026-12-14T10:05:00.000Z', 'en')).toBe('14 December 2026 at 10:05 UTC');
    expect(formatNoticeDate('2026-12-14T10:05:00.000Z', 'sw')).toMatch(/Desemba/);
    expect(renderNotice(renewal, { ...context, language: 'ar' }).html).toContain('dir="rtl"');
  });

  it('escapes what it puts into HTML', () => {
    const mail = renderNotice(renewal, { ...context, name: '<b>ama</b>' });
    expect(mail.html).toContain('&lt;b&gt;ama&lt;/b&gt;');
    expect(mail.html).not.toContain('<b>ama</b>');
  });

  it('links a notice stored before notices carried their link to the right page', () => {
    const { actionUrl: _ignored, ...older } = renewal;
    void _ignored;
    expect(renderNotice({ ...older, notice: 'plan_lapsed' }, context).text).toContain('https://kasa.example/pricing');
    expect(renderNotice({ ...older, notice: 'sign_in_throttled' }, context).text).toContain(
      'https://kasa.example/auth',
    );
  });
});
