import { LEGAL_LOADERS } from '../../i18n/legal/catalogues';
import { withCatalogue } from '../../i18n/withCatalogue';
import { LegalDocument, type LegalSection } from './LegalDocument';

const sections: readonly LegalSection[] = [
  { heading: 'cookies.session.heading', paragraphs: ['cookies.session.text'] },
  {
    heading: 'cookies.storage.heading',
    paragraphs: ['cookies.storage.text'],
    items: ['cookies.storage.token', 'cookies.storage.theme', 'cookies.storage.guidance'],
  },
  { heading: 'cookies.tracking.heading', paragraphs: ['cookies.tracking.text'] },
  { heading: 'cookies.choices.heading', paragraphs: ['cookies.choices.text'] },
  { heading: 'cookies.contact.heading', paragraphs: ['cookies.contact.text'] },
];

/** Route `/cookies`. */
function CookiesPage() {
  return <LegalDocument titleId="cookies.title" summaryId="cookies.summary" sections={sections} />;
}

export default withCatalogue(CookiesPage, LEGAL_LOADERS);
