import styled from '@emotion/styled';
import { Link } from 'react-router-dom';
import { UPGRADE_MESSAGE } from './voiceFailures';

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
  return (
    <Notice compact={compact} data-testid="voice-upgrade">
      <span aria-hidden="true">🎙 </span>
      {UPGRADE_MESSAGE} <Link to="/pricing">See plans and upgrade</Link>
    </Notice>
  );
}
