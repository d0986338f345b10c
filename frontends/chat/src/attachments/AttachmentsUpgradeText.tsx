import { gapOpen } from '@kasa/ui/serverOffers';
import { useServerState } from '../api/serverOffers';
import { useT } from '../i18n/useT';

/**
 * What Pro adds to messages, for the composer's note to a plan without attachments, as far as this server delivers
 * it now: documents always (answered by quoting them until an AI provider is connected), images only with a provider
 * that sees them.
 */
export function AttachmentsUpgradeText() {
  const t = useT();
  const server = useServerState();
  const quotes = gapOpen('documentQuotes', server);
  if (!gapOpen('images', server)) return <>{t('attachments.upgrade')}</>;
  return <>{t(quotes ? 'attachments.upgradeQuotes' : 'attachments.upgradeNoImages')}</>;
}
