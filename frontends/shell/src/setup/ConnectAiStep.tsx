import styled from '@emotion/styled';
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { isApiError } from '@kasa/api-client';
import { SectionCatalogue } from '@kasa/i18n';
import { ButtonLink, Card, Muted, SkeletonBar } from '@kasa/ui';
import { AI_SETUP_LOADERS } from '../i18n/aiSetup/catalogues';
import { useDiscovery, useLocalModel, useProviderList } from './aiSetupApi';
import { useAiT, useDescribe, type AiSetupId } from './aiSetupText';
import { KeyChoice } from './KeyChoice';
import { LocalChoice } from './LocalChoice';
import { OllamaChoice } from './OllamaChoice';
import { LoadFailure, StepActions } from './setupParts';

const Step = styled(Card, { shouldForwardProp: (prop) => prop !== 'standalone' })<{ standalone: boolean }>`
  margin-top: ${({ standalone }) => (standalone ? '0' : '1.5rem')};
  display: flex;
  flex-direction: column;
  gap: 1rem;
  h1,
  h2 {
    margin: 0;
    font-size: 1.375rem;
  }
  p {
    margin: 0;
  }
`;

const Choices = styled.fieldset`
  border: 0;
  margin: 0;
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: 0.5rem;
  legend {
    padding: 0;
    margin-bottom: 0.5rem;
    font-weight: 700;
  }
`;

const ChoiceLabel = styled.label`
  display: flex;
  align-items: flex-start;
  gap: 0.625rem;
  padding: 0.625rem 0.75rem;
  border: 1px solid var(--kasa-border);
  border-radius: var(--kasa-radius);
  cursor: pointer;
  &:has(input:checked) {
    border-color: var(--kasa-primary);
    box-shadow: inset 0 0 0 1px var(--kasa-primary);
  }
  input {
    margin: 0.25rem 0 0;
    width: 1.125rem;
    height: 1.125rem;
    flex: none;
  }
  strong {
    display: block;
  }
  span span {
    color: var(--kasa-muted);
    font-size: 0.875rem;
  }
`;

const Done = styled.div`
  padding: 0.75rem;
  border: 1px solid var(--kasa-success);
  border-radius: var(--kasa-radius);
  p {
    font-weight: 600;
  }
`;

type Choice = 'key' | 'ollama' | 'local';

function ConnectAi({ standalone }: { standalone: boolean }) {
  const t = useAiT();
  const describe = useDescribe();
  const id = useId();
  const list = useProviderList();
  const discovery = useDiscovery();
  const localModel = useLocalModel(true);
  // A chat service without the local model answers its address 404: the choice is not offered.
  const localOffered = !(isApiError(localModel.error) && localModel.error.status === 404);
  const [choice, setChoice] = useState<Choice>('key');
  const [connected, setConnected] = useState<string | null>(null);
  const ollama = discovery.data?.ollama;

  let body;
  if (list.isPending)
    body = (
      <div role="status" aria-busy="true" data-testid="ai-loading" style={{ display: 'grid', gap: '0.625rem' }}>
        <Muted>{t('ai.loading')}</Muted>
        <SkeletonBar width="80%" />
        <SkeletonBar width="60%" />
      </div>
    );
  else if (list.isError && !list.data)
    body = (
      <LoadFailure message={t('ai.loadFailed', { reason: describe(list.error) })} onRetry={() => void list.refetch()} />
    );
  else if (connected)
    body = (
      <Done role="status" data-testid="ai-connected">
        <p>{t('ai.saved', { name: connected })}</p>
      </Done>
    );
  else {
    const taken = list.data.providers.map((provider) => provider.name);
    const choices: Array<{ key: Choice; label: AiSetupId; hint: string }> = [
      { key: 'key', label: 'ai.choice.key', hint: t('ai.choice.keyHint') },
      ...(ollama?.found
        ? [
            {
              key: 'ollama' as const,
              label: 'ai.choice.ollama' as const,
              hint: t('ai.choice.ollamaHint', { url: ollama.baseURL, count: ollama.models.length }),
            },
          ]
        : []),
      ...(localOffered
        ? [{ key: 'local' as const, label: 'ai.choice.local' as const, hint: t('ai.choice.localHint') }]
        : []),
    ];
    const picked = choices.some((entry) => entry.key === choice) ? choice : 'key';
    body = (
      <>
        {list.data.providers.length > 0 ? (
          <p data-testid="ai-chain">
            {t('ai.connected', { names: list.data.providers.map((provider) => provider.name).join(', ') })}
          </p>
        ) : null}
        <Choices>
          <legend>{t('ai.choices')}</legend>
          {choices.map((entry) => (
            <ChoiceLabel key={entry.key}>
              <input
                type="radio"
                name={`${id}-choice`}
                value={entry.key}
                checked={picked === entry.key}
                aria-describedby={`${id}-${entry.key}-hint`}
                onChange={() => setChoice(entry.key)}
              />
              <span>
                <strong>{t(entry.label)}</strong>
                <span id={`${id}-${entry.key}-hint`}>{entry.hint}</span>
              </span>
            </ChoiceLabel>
          ))}
        </Choices>
        {picked === 'key' ? <KeyChoice list={list.data} onConnected={setConnected} /> : null}
        {picked === 'ollama' && ollama ? (
          <OllamaChoice baseURL={ollama.baseURL} models={ollama.models} taken={taken} onConnected={setConnected} />
        ) : null}
        {picked === 'local' ? <LocalChoice taken={taken} onConnected={setConnected} /> : null}
      </>
    );
  }

  return (
    <Step standalone={standalone} aria-labelledby={`${id}-title`} data-testid="connect-ai">
      {standalone ? <h1 id={`${id}-title`}>{t('ai.title')}</h1> : <h2 id={`${id}-title`}>{t('ai.title')}</h2>}
      <Muted>{t('ai.intro')}</Muted>
      {body}
      <StepActions>
        {connected ? (
          <ButtonLink to="/chat">{t('ai.toChat')}</ButtonLink>
        ) : (
          <ButtonLink to="/chat" variant="ghost">
            {t('ai.skip')}
          </ButtonLink>
        )}
      </StepActions>
      <Muted>
        <Link to="/admin/providers">{t('ai.console')}</Link>
      </Muted>
    </Step>
  );
}

/**
 * The setup page's "Connect AI" step, for an operator (its own chunk, with its messages): paste a provider's key
 * (tested before it is saved), use a local Ollama when one is found, or download the local model; Skip for now goes
 * to the chat. It works again at any time from the operator's "Set up AI" link (/setup?step=ai), then `standalone`:
 * the page's only card, with the page's heading.
 */
export default function ConnectAiStep({ standalone = false }: { standalone?: boolean }) {
  return (
    <SectionCatalogue loaders={AI_SETUP_LOADERS}>
      <ConnectAi standalone={standalone} />
    </SectionCatalogue>
  );
}
