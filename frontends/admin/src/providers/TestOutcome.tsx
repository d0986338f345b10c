import styled from '@emotion/styled';
import type { AiProviderTestResult } from '@kasa/contracts';
import { useFormats } from '../i18n/format';
import { useT } from '../i18n/useT';

const Box = styled.div<{ tone: 'ok' | 'failed' | 'none' }>`
  &:empty {
    display: none;
  }
  padding: 0.5rem 0.75rem;
  border: 1px solid
    ${({ tone }) =>
      tone === 'ok' ? 'var(--kasa-success)' : tone === 'failed' ? 'var(--kasa-danger)' : 'var(--kasa-border)'};
  border-radius: var(--kasa-radius);
  overflow-wrap: anywhere;
  p {
    margin: 0;
    color: var(--kasa-fg);
  }
  p + p {
    margin-top: 0.25rem;
  }
`;

/**
 * What a connection test found, announced politely: the model that answered, how fast and its first words; or what
 * went wrong and what to check. `failure` is a request that did not reach a result (the console's words).
 */
export function TestOutcome({
  pending,
  result,
  failure,
  savedOnly,
  testId = 'test-result',
}: {
  pending: boolean;
  result?: AiProviderTestResult;
  failure?: string;
  /** The test used the saved settings, not the ones in the form. */
  savedOnly?: boolean;
  testId?: string;
}) {
  const t = useT();
  const formats = useFormats();
  const tone = pending || (!result && !failure) ? 'none' : result?.ok ? 'ok' : 'failed';
  let body = null;
  if (pending) body = <p>{t('providers.testing')}</p>;
  else if (result?.ok)
    body = (
      <>
        <p>
          <strong>{t('providers.testOk', { model: result.model, ms: formats.count(result.latencyMs) })}</strong>
        </p>
        {result.sample ? <p>{t('providers.testSample', { sample: result.sample })}</p> : null}
        {savedOnly ? <p>{t('providers.testSavedOnly')}</p> : null}
      </>
    );
  else if (result)
    body = (
      <>
        <p>
          <strong>{t('providers.testFailed', { model: result.model })}</strong>
        </p>
        {result.error ? <p>{result.error}</p> : null}
        <p>{t('providers.testFailedHint')}</p>
      </>
    );
  else if (failure)
    body = (
      <p>
        <strong>{t('providers.testNotRun', { reason: failure })}</strong>
      </p>
    );
  return (
    <Box role="status" tone={tone} data-testid={testId} data-state={pending ? 'testing' : tone}>
      {body}
    </Box>
  );
}
