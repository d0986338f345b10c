import styled from '@emotion/styled';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { API_KEY_PLACEHOLDER } from '../examples/examples';
import { useFormats } from '../i18n/format';
import { richText } from '@kasa/i18n/richText';
import { usePanelsT, type PanelsMessageId } from '../i18n/panels/usePanelsT';
import { fillPlaceholders, SDKS, type SdkEntry } from '../sdks/catalogue';
import { QuickStartNote } from '../sdks/QuickStartNote';
import { Button, Muted } from '@kasa/ui';
import { CopyButton, Tabs } from '@kasa/ui/widgets';
import { Badge, Card, Code, Grid, Row } from '../ui/controls';

const SdkCard = styled(Card)<{ selected: boolean }>`
  display: flex;
  flex-direction: column;
  gap: 0.5rem;
  border-width: 2px;
  border-color: ${({ selected }) => (selected ? 'var(--kasa-primary)' : 'var(--kasa-border)')};
  h3 {
    margin: 0;
  }
  dl {
    display: grid;
    grid-template-columns: auto 1fr;
    gap: 0.125rem 0.75rem;
    margin: 0;
    font-size: 0.875rem;
  }
  dt {
    color: var(--kasa-muted);
  }
  dd {
    margin: 0;
  }
`;

const Icon = styled.span`
  display: inline-grid;
  place-items: center;
  width: 2.25rem;
  height: 2.25rem;
  border-radius: var(--kasa-radius);
  background: var(--kasa-primary);
  color: var(--kasa-primary-fg);
  font-weight: 700;
`;

type DetailTab = 'installation' | 'quick-start' | 'features' | 'documentation';
const DETAIL_TABS: ReadonlyArray<{ key: DetailTab; label: PanelsMessageId }> = [
  { key: 'installation', label: 'sdks.tab.installation' },
  { key: 'quick-start', label: 'sdks.tab.quickStart' },
  { key: 'features', label: 'sdks.tab.features' },
  { key: 'documentation', label: 'sdks.tab.documentation' },
];

/** Where Kasa speaks OpenAI's chat format (a path, the same in every language). */
const COMPLETIONS_PATH = '/v1/chat/completions';

function SdkDetails({ sdk }: { sdk: SdkEntry }) {
  const t = usePanelsT();
  const [tab, setTab] = useState<DetailTab>('installation');
  const sample = fillPlaceholders(sdk.quickStart, { baseUrl: window.location.origin, apiKey: API_KEY_PLACEHOLDER });
  const items = DETAIL_TABS.map((item) => ({ key: item.key, label: t(item.label) }));
  return (
    <Card aria-labelledby="sdk-details-title" data-testid="sdk-details">
      <h3 id="sdk-details-title">{sdk.name}</h3>
      <Tabs label={t('sdks.detailsLabel', { name: sdk.name })} items={items} selected={tab} onSelect={setTab}>
        {tab === 'installation' ? (
          <div style={{ display: 'flex', flexDirection: 'column', gap: '0.75rem' }}>
            {sdk.kind === 'openai-compatible' ? (
              <Muted>
                {richText((parts) => t('sdks.openaiNote', { ...parts, language: sdk.language }), {
                  path: <code>{COMPLETIONS_PATH}</code>,
                })}
              </Muted>
            ) : null}
            <Code tabIndex={0}>{sdk.installCommand}</Code>
            <Row>
              <CopyButton
                text={sdk.installCommand}
                label={t('sdks.copyCommand')}
                context={t('sdks.commandContext', { name: sdk.name })}
              />
            </Row>
          </div>
        ) : null}
        {tab === 'quick-start' ? (
          <div style={{ display: 'flex', flexDirection: 'column', gap: '0.75rem' }}>
            <QuickStartNote sample={sample} />
            <Code tabIndex={0} aria-label={t('sdks.quickStartLabel', { name: sdk.name })}>
              {sample}
            </Code>
            <Row>
              <CopyButton text={sample} context={t('sdks.quickStartContext', { name: sdk.name })} />
            </Row>
          </div>
        ) : null}
        {tab === 'features' ? (
          <ul style={{ margin: 0, paddingLeft: '1.25rem' }}>
            {sdk.features.map((feature) => (
              <li key={feature}>{t(feature)}</li>
            ))}
          </ul>
        ) : null}
        {tab === 'documentation' ? (
          <ul style={{ margin: 0, paddingLeft: '1.25rem' }} data-testid="sdk-doc-links">
            {sdk.links.map((link) => (
              <li key={link.href}>
                {link.href.startsWith('?') ? (
                  <Link to={{ search: link.href }}>{t(link.label)}</Link>
                ) : (
                  <a href={link.href} {...(link.external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
                    {t(link.label)}
                  </a>
                )}
              </li>
            ))}
            {sdk.kind === 'kasa' ? (
              <li>{richText((parts) => t('sdks.readme', parts), { path: <code>{sdk.readme}</code> })}</li>
            ) : null}
          </ul>
        ) : null}
      </Tabs>
    </Card>
  );
}

/** SDKs: the catalogue's six cards; the selected one shows installation, a quick start, features and docs. */
export default function SdksTab() {
  const t = usePanelsT();
  const formats = useFormats();
  const [selectedId, setSelectedId] = useState<string>(SDKS[0]?.id ?? '');
  const selected = SDKS.find((sdk) => sdk.id === selectedId);
  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: '1rem' }}>
      <Grid min="17rem">
        {SDKS.map((sdk) => (
          <SdkCard
            key={sdk.id}
            selected={sdk.id === selectedId}
            aria-labelledby={`sdk-${sdk.id}`}
            data-testid={`sdk-${sdk.id}`}
          >
            <Row>
              <Icon aria-hidden="true">{sdk.icon}</Icon>
              <h3 id={`sdk-${sdk.id}`}>{sdk.name}</h3>
              {sdk.kind === 'openai-compatible' ? <Badge>{t('sdks.openaiBadge')}</Badge> : null}
            </Row>
            <Muted>{t(sdk.description)}</Muted>
            <dl>
              <dt>{t('sdks.package')}</dt>
              <dd>
                <code>{sdk.packageName}</code>
              </dd>
              <dt>{sdk.kind === 'kasa' ? t('sdks.version') : t('sdks.guide')}</dt>
              <dd>{sdk.version}</dd>
              <dt>{t('sdks.size')}</dt>
              <dd>{t(sdk.size)}</dd>
              <dt>{t('sdks.updated')}</dt>
              <dd>{formats.month(sdk.lastUpdated)}</dd>
            </dl>
            <Row style={{ marginTop: 'auto' }}>
              <CopyButton
                text={sdk.installCommand}
                label={t('sdks.install')}
                variant="primary"
                context={t('sdks.installContext', { command: sdk.installCommand })}
                testId={`install-${sdk.id}`}
              />
              <Button
                type="button"
                variant="secondary"
                compact
                aria-pressed={sdk.id === selectedId}
                onClick={() => setSelectedId(sdk.id)}
              >
                {t('sdks.details', { language: sdk.language })}
              </Button>
            </Row>
          </SdkCard>
        ))}
      </Grid>
      {selected ? <SdkDetails key={selected.id} sdk={selected} /> : null}
    </div>
  );
}
