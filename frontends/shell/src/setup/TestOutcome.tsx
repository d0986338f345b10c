import styled from '@emotion/styled';
import type { AiProviderTestResult } from '@kasa/contracts';
import { useAiT, useFormats } from './aiSetupText';

const Outcome = styled.div<{ tone: 'ok' | 'failed' }>`
  padding: 0.5rem 0.75rem;
  border: 1px solid ${({ tone }) => (tone === 'ok' ? 'var(--kasa-success)' : 'var(--kasa-danger)')};
  border-radius: var(--kasa-radius);
  overflow-wrap: anywhere;
  p + p {
    margin-top: 0.25rem;
  }
`;

/** What a connection test found (announced politely), or why it could not run. */
export function TestOutcome({ result, failure }: { result?: AiProviderTestResult; failure?: string }) {
  const t = useAiT();
  const formats = useFormats();
  if (!result && !failure) return null;
  if (result?.ok)
    return (
      <Outcome tone="ok" role="status" data-testid="ai-test-result" data-state="ok">
        <p>
          <strong>{t('ai.testOk', { model: result.model, ms: formats.count(result.latencyMs) })}</strong>
        </p>
        {result.sample ? <p>{t('ai.testSample', { sample: result.sample })}</p> : null}
      </Outcome>
    );
  return (
    <Outcome tone="failed" role="alert" data-testid="ai-test-result" data-state="failed">
      <p>
        <strong>
          {result
            ? t('ai.testFailed', { model: result.model, reason: result.error ?? t('failure.unknown') })
            : t('ai.testNotRun', { reason: failure ?? '' })}
        </strong>
      </p>
      {result ? <p>{t('ai.testFailedHint')}</p> : null}
    </Outcome>
  );
}
