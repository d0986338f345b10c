import styled from '@emotion/styled';
import { usePaymentsTestMode } from '../api/paymentsMode';
import { useT } from '../i18n/useT';

const Banner = styled.section`
  padding: 0.375rem max(1.25rem, env(safe-area-inset-right)) 0.375rem max(1.25rem, env(safe-area-inset-left));
  border-bottom: 3px solid var(--kasa-warning);
  background: var(--kasa-surface-muted);
  color: var(--kasa-fg);
  font-size: 0.875rem;
  font-weight: 600;
  text-align: center;
  p {
    margin: 0;
  }
`;

/**
 * ARCHITECTURE.md ("Services and what each owns"): while the built-in provider takes the payments, every page says
 * that no real money is taken. A named section (a region landmark), so screen-reader users find it among the page's
 * regions; not an aside, which the chat keeps for its sidebar.
 */
export function TestModeBanner() {
  const t = useT();
  if (!usePaymentsTestMode()) return null;
  return (
    <Banner aria-label={t('testMode.label')} data-testid="test-mode-banner">
      <p>{t('testMode.banner')}</p>
    </Banner>
  );
}
