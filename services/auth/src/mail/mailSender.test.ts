import { ConfigError } from '@kasa/service-kit';
import { mailFromOf, readConfig } from '../config';
import { createMailSender, mailDeliveryOf } from './mailSender';

function refusal(env: NodeJS.ProcessEnv): string {
  try {
    readConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err.message;
    throw err;
  }
  throw new Error('the configuration was accepted');
}

describe('how notices leave', () => {
  it('goes over SMTP when SMTP_URL is set, in any environment', () => {
    const url = 'smtps://mailer:s3cret@smtp.kasa.example:465';
    for (const NODE_ENV of ['development', 'test', 'production']) {
      const config = readConfig({ NODE_ENV, SMTP_URL: url, MAIL_FROM: 'Kasa <no-reply@kasa.example>' });
      expect(mailDeliveryOf(config)).toEqual({ mode: 'smtp', url });
    }
  });

  it('writes .eml files into KASA_MAIL_DIR without SMTP_URL outside production, and is off in production', () => {
    expect(mailDeliveryOf(readConfig({ NODE_ENV: 'development', KASA_MAIL_DIR: '/tmp/kasa-mail' }))).toEqual({
      mode: 'folder',
      dir: '/tmp/kasa-mail',
    });
    expect(mailDeliveryOf(readConfig({ NODE_ENV: 'test', SMTP_URL: '  ' }))).toMatchObject({ mode: 'folder' });
    expect(readConfig({ NODE_ENV: 'development' }).KASA_MAIL_DIR).toMatch(/\.data[/\\]mail$/);
    expect(mailDeliveryOf(readConfig({ NODE_ENV: 'production' }))).toEqual({ mode: 'off' });
    expect(createMailSender({ mode: 'off' })).toBeNull();
  });

  it('describes the SMTP server by host and port only, never with its credentials', () => {
    const sender = createMailSender({ mode: 'smtp', url: 'smtp://mailer:s3cret@smtp.kasa.example' })!;
    expect(sender.describe()).toEqual({ mode: 'smtp', host: 'smtp.kasa.example', port: 587 });
    sender.close();
  });
});

describe('the mail settings', () => {
  it('refuses an SMTP_URL that is not smtp:// or smtps://, without repeating it', () => {
    const message = refusal({ SMTP_URL: 'https://mailer:s3cret@smtp.kasa.example' });
    expect(message).toMatch(/SMTP_URL/);
    expect(message).not.toContain('s3cret');
    expect(refusal({ SMTP_URL: 'not a url' })).toMatch(/SMTP_URL/);
  });

  it('needs MAIL_FROM in production with SMTP_URL, as an address alone or with a name', () => {
    expect(refusal({ NODE_ENV: 'production', SMTP_URL: 'smtp://smtp.kasa.example' })).toMatch(/MAIL_FROM/);
    expect(refusal({ MAIL_FROM: 'Kasa notices' })).toMatch(/MAIL_FROM/);
    expect(readConfig({ MAIL_FROM: 'no-reply@kasa.example' }).MAIL_FROM).toBe('no-reply@kasa.example');
    expect(readConfig({ MAIL_FROM: 'Kasa <no-reply@kasa.example>' }).MAIL_FROM).toBe('Kasa <no-reply@kasa.example>');
  });

  it('sends from no-reply at the public address when MAIL_FROM is not set', () => {
    expect(mailFromOf(readConfig({ KASA_PUBLIC_URL: 'https://kasa.example' }))).toBe('Kasa <no-reply@kasa.example>');
    expect(mailFromOf(readConfig({}))).toBe('Kasa <no-reply@localhost.localdomain>');
  });
});
