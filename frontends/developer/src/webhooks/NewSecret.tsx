import styled from '@emotion/styled';
import { richText } from '@kasa/i18n/richText';
import { Button } from '@kasa/ui';
import { CopyButton } from '@kasa/ui/widgets';
import { usePanelsT } from '../i18n/panels/usePanelsT';
import { Card, Code, Row } from '../ui/controls';
import { SECRET_VARIABLE, VERIFY_INSTALL, VERIFY_SNIPPET } from './verifySnippet';

const Panel = styled(Card)`
  border: 2px solid var(--kasa-primary);
  h3 {
    margin: 1.25rem 0 0.5rem;
    font-size: 1rem;
  }
  p {
    margin: 0 0 0.75rem;
  }
`;

/** A signing secret that was just made (a new endpoint's, or a rotation's) and the endpoint it signs for. */
export interface ShownSecret {
  url: string;
  secret: string;
  rotated: boolean;
}

/**
 * The signing secret, shown this once (Kasa never shows it again), with Copy, and how a receiver checks a request
 * with it: a Node.js snippet with the Standard Webhooks library (code, not translated; its explanation is).
 */
export function NewSecret({ shown, onDone }: { shown: ShownSecret; onDone: () => void }) {
  const t = usePanelsT();
  const code = (text: string) => <code dir="ltr">{text}</code>;
  return (
    <Panel aria-labelledby="webhook-secret-title" data-testid="webhook-secret">
      <h2 id="webhook-secret-title" style={{ overflowWrap: 'anywhere' }}>
        {t(shown.rotated ? 'webhooks.secret.rotatedTitle' : 'webhooks.secret.createdTitle', { url: shown.url })}
      </h2>
      <p>
        {richText((parts) => t('webhooks.secret.text', parts), {
          warning: <strong>{t('webhooks.secret.warning')}</strong>,
          variable: code(SECRET_VARIABLE),
        })}
      </p>
      <Code
        tabIndex={0}
        dir="ltr"
        data-testid="webhook-secret-value"
        aria-label={t('webhooks.secret.label')}
        style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
      >
        {shown.secret}
      </Code>
      <Row style={{ marginTop: '0.75rem' }}>
        <CopyButton text={shown.secret} label={t('webhooks.secret.copy')} variant="primary" />
        <Button type="button" variant="secondary" compact onClick={onDone}>
          {t('webhooks.secret.done')}
        </Button>
      </Row>
      <h3>{t('webhooks.verify.title')}</h3>
      <p>
        {richText((parts) => t('webhooks.verify.text', parts), {
          library: code('standardwebhooks'),
          call: code('new Webhook(secret).verify(body, headers)'),
          header: code('webhook-id'),
        })}
      </p>
      <Code tabIndex={0} dir="ltr" aria-label={t('webhooks.verify.installLabel')} style={{ marginBottom: '0.5rem' }}>
        {VERIFY_INSTALL}
      </Code>
      <Code tabIndex={0} dir="ltr" aria-label={t('webhooks.verify.codeLabel')} data-testid="verify-snippet">
        {VERIFY_SNIPPET}
      </Code>
      <Row style={{ marginTop: '0.5rem' }}>
        <CopyButton text={VERIFY_SNIPPET} label={t('webhooks.verify.copy')} context={t('webhooks.verify.context')} />
      </Row>
    </Panel>
  );
}
