import styled from '@emotion/styled';
import { Link } from 'react-router-dom';
import { ICON, Mic, TOUCH_MEDIA, TOUCH_TARGET } from '@kasa/ui';
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
  /* Under a finger the link is a 44 px target of its own beside the sentence, both on one row where they fit. */
  ${TOUCH_MEDIA} {
    display: flex;
    align-items: center;
    gap: 0 0.5rem;
    font-size: 0.8125rem;
    line-height: 1.3;
    svg {
      flex: none;
    }
    a {
      display: inline-flex;
      align-items: center;
      min-height: ${TOUCH_TARGET};
      padding-inline: 0.25rem;
    }
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
