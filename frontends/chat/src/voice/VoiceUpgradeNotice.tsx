import styled from '@emotion/styled';
import { Link } from 'react-router-dom';
import { ICON, Mic, TOUCH_MEDIA, TOUCH_TARGET } from '@kasa/ui';
import { featureOffered, gapOpen } from '@kasa/ui/serverOffers';
import { useServerState } from '../api/serverOffers';
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

/**
 * Shown instead of voice controls to a plan without voice (spec section 6: voice is Pro and up). It promises only
 * what this server delivers now: without speech to text, what Pro adds is replies read aloud; without a speech
 * engine, voice messages; without either, there is nothing to upgrade for, and it says so without the link.
 */
export function VoiceUpgradeNotice({ compact = false }: { compact?: boolean }) {
  const t = useT();
  const server = useServerState();
  const offered = featureOffered('voice', server);
  const text =
    offered === 'none'
      ? t('voice.notOnServer')
      : offered === 'all'
        ? t('voice.upgrade')
        : gapOpen('speechInput', server)
          ? t('voice.upgradeReadAloud')
          : t('voice.upgradeVoiceMessages');
  return (
    <Notice compact={compact} data-testid="voice-upgrade" data-offered={server.settled ? offered : 'pending'}>
      <Mic {...ICON} style={{ verticalAlign: '-0.2em', marginInlineEnd: '0.25rem' }} />
      {text}
      {offered === 'none' ? null : (
        <>
          {' '}
          <Link to="/pricing">{t('voice.seePlans')}</Link>
        </>
      )}
    </Notice>
  );
}
