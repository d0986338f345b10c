import { COMPANY } from './company';
import { LegalDocument, type LegalSection } from './LegalDocument';

const sections: readonly LegalSection[] = [
  {
    heading: 'Who we are',
    paragraphs: [
      `Kasa is operated by ${COMPANY.legalName}, ${COMPANY.address} (${COMPANY.registration}), the controller of ` +
        `the personal data described here. Questions about this policy: ${COMPANY.supportEmail}.`,
    ],
  },
  {
    heading: 'What we collect',
    items: [
      'Account: your username, email address and subscription tier. Your password is stored only as an argon2id hash.',
      'Conversations: the chat sessions you start, the messages you send and receive, the persona and the language.',
      'Voice: audio you send is processed to turn speech into text, and text you ask to hear into speech.',
      'Approximate location: derived from your IP address, so that answers can take your region into account.',
      'Developer data: your API keys (stored as a hash; only a prefix is shown again) and how many calls they make.',
      'Billing: the plan you bought, the amount, the date and a transaction reference. Card details are handled by ' +
        'our payment provider and never reach Kasa.',
      'Messages to us: the name, email address and message you send through the contact form, and newsletter ' +
        'sign-ups.',
      'Usage: which pages are viewed and request counts, recorded by Kasa itself without cookies or identifiers.',
    ],
  },
  {
    heading: 'How we use it',
    items: [
      'To provide the service: sign you in, answer your messages, speak and listen, enforce plan limits.',
      'To bill you for a paid plan and keep the records the law requires.',
      'To keep Kasa secure: rate limits, abuse prevention and investigating incidents.',
      'To answer your messages and, if you subscribed, to send the newsletter.',
      'To improve Kasa from aggregated usage figures that identify nobody.',
    ],
    paragraphs: ['We do not sell your personal data and we do not show advertising.'],
  },
  {
    heading: 'AI providers and other processors',
    paragraphs: [
      'To generate replies, the text of your conversation is sent to the AI model providers Kasa works with, in ' +
        'order of availability. They process it on our behalf under data processing agreements. Our hosting ' +
        'provider ([Hosting provider]) and payment provider ([Payment provider]) also process data on our behalf.',
    ],
  },
  {
    heading: 'How long we keep it',
    paragraphs: [
      'Account and conversation data are kept while your account exists and deleted within [retention period] ' +
        'after you close it. Billing records are kept for as long as tax law requires. Contact messages are kept ' +
        'for [retention period]. You can unsubscribe from the newsletter at any time.',
    ],
  },
  {
    heading: 'Your rights',
    paragraphs: [
      'You may ask for a copy of your data, its correction or deletion, a copy in a portable format, or object ' +
        `to or restrict how we use it. Write to ${COMPANY.supportEmail}; we answer within one month. The GDPR ` +
        'page explains these rights in more detail.',
    ],
  },
  {
    heading: 'Security',
    paragraphs: [
      'Connections are encrypted, passwords and API keys are stored as hashes, and each part of Kasa keeps its ' +
        'own data with access limited to what it needs.',
    ],
  },
  {
    heading: 'Children',
    paragraphs: ['Kasa is not directed at children under [minimum age], and we do not knowingly collect their data.'],
  },
  {
    heading: 'Changes',
    paragraphs: [
      'We will announce material changes on this page and by email before they take effect. The effective date ' +
        'above shows the current version.',
    ],
  },
];

/** Route `/privacy`. */
export default function PrivacyPage() {
  return (
    <LegalDocument
      title="Privacy Policy"
      summary="What personal data Kasa collects, why, who else handles it, and the choices you have."
      sections={sections}
    />
  );
}
