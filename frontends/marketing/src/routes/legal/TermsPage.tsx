import { LEGAL_LOADERS } from '../../i18n/legal/catalogues';
import { withCatalogue } from '../../i18n/withCatalogue';
import { LegalDocument, type LegalSection } from './LegalDocument';

const sections: readonly LegalSection[] = [
  { heading: 'terms.agreement.heading', paragraphs: ['terms.agreement.text'] },
  {
    heading: 'terms.account.heading',
    items: ['terms.account.secrets', 'terms.account.age', 'terms.account.misuse'],
  },
  {
    heading: 'terms.plans.heading',
    items: ['terms.plans.prices', 'terms.plans.upgrades', 'terms.plans.renewal'],
  },
  {
    heading: 'terms.use.heading',
    items: ['terms.use.lawful', 'terms.use.limits', 'terms.use.competing'],
  },
  { heading: 'terms.ai.heading', paragraphs: ['terms.ai.text'] },
  { heading: 'terms.content.heading', paragraphs: ['terms.content.text'] },
  { heading: 'terms.availability.heading', paragraphs: ['terms.availability.text'] },
  { heading: 'terms.ending.heading', paragraphs: ['terms.ending.text'] },
  { heading: 'terms.liability.heading', paragraphs: ['terms.liability.text'] },
  { heading: 'terms.law.heading', paragraphs: ['terms.law.text'] },
];

/** Route `/terms`. */
function TermsPage() {
  return <LegalDocument titleId="terms.title" summaryId="terms.summary" sections={sections} />;
}

export default withCatalogue(TermsPage, LEGAL_LOADERS);
