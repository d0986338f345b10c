import styled from '@emotion/styled';
import { Link } from 'react-router-dom';
import { ICON, Mic } from '@kasa/ui';
import { useT } from '../i18n/useT';

const Notice = styled.p<{ compact: boolean }>`
  margin: 0;
  color: var(--kasa-fg);
  font-size: ${({ compact }) => (compact ? '0.8125rem' : '0.875rem')};
  a {
    color: inherit;
    font-weight: 600;
    text-decoration: underline;
  }
`;

/** Shown instead of voice controls to a plan without voice (spec section 6: voice is Pro and up). */
export function VoiceUpgradeNotice({ compact = false }: { compact?: boolean }) {
  const t = useT();
  return (
    <Notice compact={compact} data-testid="voice-upgrade">
      <Mic {...ICON} style={{ verticalAlign: '-0.2em', marginInlineEnd: '0.25rem' }} />
      {t('voice.upgrade')} <Link to="/pricing">{t('voice.seePlans')}</Link>
    </Notice>
  );
}
