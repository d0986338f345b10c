import { COMPANY } from './company';
import { LegalDocument, type LegalSection } from './LegalDocument';

const sections: readonly LegalSection[] = [
  {
    heading: 'The one cookie Kasa sets',
    paragraphs: [
      'kasa_session: set when you sign in, sent only to Kasa’s sign-in endpoints, unreadable by scripts ' +
        '(httpOnly), and kept for up to 7 days. It lets signing out end your session on the server. It is ' +
        'strictly necessary, so it needs no consent.',
    ],
  },
  {
    heading: 'What the browser stores for Kasa',
    paragraphs: ['Kasa also keeps a few values in your browser’s local storage, which never leave your device:'],
    items: [
      'kasa_auth_token: keeps you signed in.',
      'kasa_theme_mode, kasa_color_scheme, kasa_custom_theme: your light or dark mode, colour scheme and ' +
        'theme settings.',
      'kasa_guidance: which guided tours you have seen.',
    ],
  },
  {
    heading: 'No tracking or advertising cookies',
    paragraphs: [
      'Kasa uses no advertising cookies and no third-party analytics. Page views are counted by Kasa itself, ' +
        'without cookies and without identifying you.',
    ],
  },
  {
    heading: 'Your choices',
    paragraphs: [
      'You can delete cookies and site data in your browser’s settings at any time. Deleting them signs you out ' +
        'and resets your theme and tours.',
    ],
  },
  {
    heading: 'Contact',
    paragraphs: [`Questions about this policy: ${COMPANY.supportEmail}.`],
  },
];

/** Route `/cookies`. */
export default function CookiesPage() {
  return (
    <LegalDocument
      title="Cookie Policy"
      summary="The one cookie Kasa sets, what it keeps in your browser, and what it never does."
      sections={sections}
    />
  );
}
