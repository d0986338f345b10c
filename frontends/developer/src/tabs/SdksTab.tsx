import styled from '@emotion/styled';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { API_KEY_PLACEHOLDER } from '../examples/examples';
import { fillPlaceholders, SDKS, type SdkEntry } from '../sdks/catalogue';
import { Badge, Button, Card, Code, Grid, Muted, Row } from '../ui/controls';
import { CopyButton } from '../ui/CopyButton';
import { Tabs } from '../ui/Tabs';

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
const DETAIL_TABS = [
  { key: 'installation', label: 'Installation' },
  { key: 'quick-start', label: 'Quick Start' },
  { key: 'features', label: 'Features' },
  { key: 'documentation', label: 'Documentation' },
] as const;

function versionLabel(sdk: SdkEntry) {
  return sdk.kind === 'kasa' ? 'Version' : 'Guide';
}

function SdkDetails({ sdk }: { sdk: SdkEntry }) {
  const [tab, setTab] = useState<DetailTab>('installation');
  const sample = fillPlaceholders(sdk.quickStart, { baseUrl: window.location.origin, apiKey: API_KEY_PLACEHOLDER });
  return (
    <Card aria-labelledby="sdk-details-title" data-testid="sdk-details">
      <h3 id="sdk-details-title">{sdk.name}</h3>
      <Tabs label={`${sdk.name} details`} items={DETAIL_TABS} selected={tab} onSelect={setTab}>
        {tab === 'installation' ? (
          <div style={{ display: 'flex', flexDirection: 'column', gap: '0.75rem' }}>
            {sdk.kind === 'openai-compatible' ? (
              <Muted>
                There is no Kasa package for {sdk.language} yet. Kasa speaks OpenAI’s chat format at{' '}
                <code>/v1/chat/completions</code>, so the official OpenAI library for {sdk.language} works: set its base
                URL to Kasa and use your Kasa API key.
              </Muted>
            ) : null}
            <Code tabIndex={0}>{sdk.installCommand}</Code>
            <Row>
              <CopyButton text={sdk.installCommand} label="Copy command" context={`of the ${sdk.name}`} />
            </Row>
          </div>
        ) : null}
        {tab === 'quick-start' ? (
          <div style={{ display: 'flex', flexDirection: 'column', gap: '0.75rem' }}>
            <Muted>
              Replace <code>{API_KEY_PLACEHOLDER}</code> with a key from the Keys tab; keep keys on servers, not in
              pages anyone can read.
            </Muted>
            <Code tabIndex={0} aria-label={`${sdk.name} quick start`}>
              {sample}
            </Code>
            <Row>
              <CopyButton text={sample} context={`the ${sdk.name} quick start`} />
            </Row>
          </div>
        ) : null}
        {tab === 'features' ? (
          <ul style={{ margin: 0, paddingLeft: '1.25rem' }}>
            {sdk.features.map((feature) => (
              <li key={feature}>{feature}</li>
            ))}
          </ul>
        ) : null}
        {tab === 'documentation' ? (
          <ul style={{ margin: 0, paddingLeft: '1.25rem' }} data-testid="sdk-doc-links">
            {sdk.links.map((link) => (
              <li key={link.href}>
                {link.href.startsWith('?') ? (
                  <Link to={{ search: link.href }}>{link.label}</Link>
                ) : (
                  <a href={link.href} {...(link.external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}>
                    {link.label}
                  </a>
                )}
              </li>
            ))}
            {sdk.kind === 'kasa' ? (
              <li>
                Package README: <code>{sdk.readme}</code> in the Kasa repository
              </li>
            ) : null}
          </ul>
        ) : null}
      </Tabs>
    </Card>
  );
}

/** SDKs: the catalogue's six cards; the selected one shows installation, a quick start, features and docs. */
export default function SdksTab() {
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
              {sdk.kind === 'openai-compatible' ? <Badge>OpenAI-compatible</Badge> : null}
            </Row>
            <Muted>{sdk.description}</Muted>
            <dl>
              <dt>Package</dt>
              <dd>
                <code>{sdk.packageName}</code>
              </dd>
              <dt>{versionLabel(sdk)}</dt>
              <dd>{sdk.version}</dd>
              <dt>Size</dt>
              <dd>{sdk.size}</dd>
              <dt>Last updated</dt>
              <dd>{sdk.lastUpdated}</dd>
            </dl>
            <Row style={{ marginTop: 'auto' }}>
              <CopyButton
                text={sdk.installCommand}
                label="Install"
                variant="primary"
                context={`(copies “${sdk.installCommand}”)`}
                testId={`install-${sdk.id}`}
              />
              <Button
                type="button"
                variant="secondary"
                compact
                aria-pressed={sdk.id === selectedId}
                onClick={() => setSelectedId(sdk.id)}
              >
                {`Details of the ${sdk.language} SDK`}
              </Button>
            </Row>
          </SdkCard>
        ))}
      </Grid>
      {selected ? <SdkDetails key={selected.id} sdk={selected} /> : null}
    </div>
  );
}
