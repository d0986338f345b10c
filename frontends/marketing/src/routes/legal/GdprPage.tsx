import { LEGAL_LOADERS } from '../../i18n/legal/catalogues';
import { withCatalogue } from '../../i18n/withCatalogue';
import { LegalDocument, type LegalSection } from './LegalDocument';

const sections: readonly LegalSection[] = [
  { heading: 'gdpr.controller.heading', paragraphs: ['gdpr.controller.text'] },
  {
    heading: 'gdpr.bases.heading',
    items: ['gdpr.bases.contract', 'gdpr.bases.obligation', 'gdpr.bases.interests', 'gdpr.bases.consent'],
  },
  {
    heading: 'gdpr.rights.heading',
    items: [
      'gdpr.rights.access',
      'gdpr.rights.rectification',
      'gdpr.rights.erasure',
      'gdpr.rights.restriction',
      'gdpr.rights.portability',
      'gdpr.rights.objection',
      'gdpr.rights.withdrawal',
    ],
  },
  { heading: 'gdpr.request.heading', paragraphs: ['gdpr.request.text'] },
  { heading: 'gdpr.processors.heading', paragraphs: ['gdpr.processors.text'] },
  { heading: 'gdpr.breaches.heading', paragraphs: ['gdpr.breaches.text'] },
  { heading: 'gdpr.complaints.heading', paragraphs: ['gdpr.complaints.text'] },
];

/** Route `/gdpr`. */
function GdprPage() {
  return <LegalDocument titleId="gdpr.title" summaryId="gdpr.summary" sections={sections} />;
}

export default withCatalogue(GdprPage, LEGAL_LOADERS);
