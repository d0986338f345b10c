import { LEGAL_LOADERS } from '../../i18n/legal/catalogues';
import { withCatalogue } from '../../i18n/withCatalogue';
import { LegalDocument, type LegalSection } from './LegalDocument';

const sections: readonly LegalSection[] = [
  { heading: 'privacy.who.heading', paragraphs: ['privacy.who.text'] },
  {
    heading: 'privacy.collect.heading',
    items: [
      'privacy.collect.account',
      'privacy.collect.conversations',
      'privacy.collect.voice',
      'privacy.collect.location',
      'privacy.collect.developer',
      'privacy.collect.billing',
      'privacy.collect.messages',
      'privacy.collect.usage',
    ],
  },
  {
    heading: 'privacy.use.heading',
    items: [
      'privacy.use.service',
      'privacy.use.billing',
      'privacy.use.security',
      'privacy.use.messages',
      'privacy.use.improve',
    ],
    paragraphs: ['privacy.use.noSale'],
  },
  { heading: 'privacy.processors.heading', paragraphs: ['privacy.processors.text'] },
  { heading: 'privacy.retention.heading', paragraphs: ['privacy.retention.text'] },
  { heading: 'privacy.rights.heading', paragraphs: ['privacy.rights.text'] },
  { heading: 'privacy.security.heading', paragraphs: ['privacy.security.text'] },
  { heading: 'privacy.children.heading', paragraphs: ['privacy.children.text'] },
  { heading: 'privacy.changes.heading', paragraphs: ['privacy.changes.text'] },
];

/** Route `/privacy`. */
function PrivacyPage() {
  return <LegalDocument titleId="privacy.title" summaryId="privacy.summary" sections={sections} />;
}

export default withCatalogue(PrivacyPage, LEGAL_LOADERS);
