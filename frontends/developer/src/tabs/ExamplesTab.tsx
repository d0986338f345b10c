import { API_KEY_PLACEHOLDER, EXAMPLES, type CodeExample } from '../examples/examples';
import { richText } from '@kasa/i18n/richText';
import { usePanelsT, type PanelsMessageId } from '../i18n/panels/usePanelsT';
import { fillPlaceholders, SDKS } from '../sdks/catalogue';
import { QuickStartNote } from '../sdks/QuickStartNote';
import { Muted } from '@kasa/ui';
import { CopyButton } from '@kasa/ui/widgets';
import { Card, Code, Row } from '../ui/controls';

const TITLES: Record<CodeExample['id'], PanelsMessageId> = {
  javascript: 'examples.title.javascript',
  python: 'examples.title.python',
  curl: 'examples.title.curl',
};

/** The scope the examples' key needs (an identifier, the same in every language). */
const CHAT_SCOPE = 'chat';

/**
 * Examples: the same two calls in JavaScript, Python and curl, ready to copy and run; then each SDK's quick start from
 * the SDK catalogue, the very text its card shows (tests/integration/sdkQuickStarts.test.ts runs each one).
 */
export default function ExamplesTab() {
  const t = usePanelsT();
  const values = { baseUrl: window.location.origin, apiKey: API_KEY_PLACEHOLDER };
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: '1rem' }}>
      <Muted>
        {richText((parts) => t('examples.intro', parts), {
          placeholder: <code>{API_KEY_PLACEHOLDER}</code>,
          scope: <code>{CHAT_SCOPE}</code>,
        })}
      </Muted>
      {EXAMPLES.map((example) => {
        const source = fillPlaceholders(example.source, values);
        const title = t(TITLES[example.id]);
        return (
          <Card key={example.id} aria-labelledby={`example-${example.id}`} data-testid={`example-${example.id}`}>
            <Row style={{ justifyContent: 'space-between', marginBottom: '0.5rem' }}>
              <h2 id={`example-${example.id}`} style={{ margin: 0 }}>
                {title}
              </h2>
              <CopyButton text={source} context={t('examples.copyContext', { title })} />
            </Row>
            <Muted style={{ marginBottom: '0.5rem' }}>
              {richText((parts) => t('examples.runWith', parts), { command: <code>{example.runWith}</code> })}
            </Muted>
            <Code tabIndex={0} aria-label={t('examples.codeLabel', { title })}>
              {source}
            </Code>
          </Card>
        );
      })}
      <h2 style={{ margin: '1rem 0 0' }}>{t('examples.sdks.heading')}</h2>
      <Muted>{t('examples.sdks.intro')}</Muted>
      {SDKS.map((sdk) => {
        const sample = fillPlaceholders(sdk.quickStart, values);
        return (
          <Card key={sdk.id} aria-labelledby={`example-sdk-${sdk.id}`} data-testid={`example-sdk-${sdk.id}`}>
            <Row style={{ justifyContent: 'space-between', marginBottom: '0.5rem' }}>
              <h3 id={`example-sdk-${sdk.id}`} style={{ margin: 0 }}>
                {sdk.name}
              </h3>
              <CopyButton text={sample} context={t('sdks.quickStartContext', { name: sdk.name })} />
            </Row>
            <div style={{ display: 'flex', flexDirection: 'column', gap: '0.5rem' }}>
              <Code tabIndex={0}>{sdk.installCommand}</Code>
              <QuickStartNote sample={sample} />
              <Code tabIndex={0} aria-label={t('sdks.quickStartLabel', { name: sdk.name })}>
                {sample}
              </Code>
            </div>
          </Card>
        );
      })}
    </div>
  );
}
