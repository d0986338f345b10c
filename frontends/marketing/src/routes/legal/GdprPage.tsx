import { COMPANY } from './company';
import { LegalDocument, type LegalSection } from './LegalDocument';

const sections: readonly LegalSection[] = [
  {
    heading: 'Controller',
    paragraphs: [
      `${COMPANY.legalName}, ${COMPANY.address} (${COMPANY.registration}) is the controller of the personal data ` +
        `processed by Kasa. Data protection officer: ${COMPANY.dpo}. EU representative: [EU representative].`,
    ],
  },
  {
    heading: 'Legal bases',
    items: [
      'Contract: your account, conversations, voice features, API keys and paid plans.',
      'Legal obligation: billing and tax records.',
      'Legitimate interests: security, rate limits, abuse prevention and aggregated usage figures.',
      'Consent: the newsletter (you can withdraw it at any time).',
    ],
  },
  {
    heading: 'Your rights',
    items: [
      'Access: a copy of the personal data we hold about you.',
      'Rectification: correction of inaccurate data.',
      'Erasure: deletion of your data, unless we must keep it by law.',
      'Restriction: limiting how we use your data while a request is being handled.',
      'Portability: your data in a structured, machine-readable format.',
      'Objection: to processing based on legitimate interests.',
      'Withdrawal of consent, without affecting what was done before.',
    ],
  },
  {
    heading: 'How to make a request',
    paragraphs: [
      `Write to ${COMPANY.supportEmail} with the subject “Data request” from the email address of your account. ` +
        'We may ask you to confirm your identity, and we answer within one month (extendable by two months for ' +
        'complex requests, in which case we tell you why).',
    ],
  },
  {
    heading: 'Processors and transfers',
    paragraphs: [
      'AI model providers, our hosting provider ([Hosting provider]) and our payment provider ([Payment ' +
        'provider]) process data on our behalf under data processing agreements. Where data leaves the European ' +
        'Economic Area, the transfer is covered by an adequacy decision or the European Commission’s standard ' +
        'contractual clauses.',
    ],
  },
  {
    heading: 'Breaches',
    paragraphs: [
      'If a personal data breach occurs, we notify the supervisory authority within 72 hours where required, and ' +
        'you without undue delay when it is likely to put your rights at high risk.',
    ],
  },
  {
    heading: 'Complaints',
    paragraphs: [
      'You may complain to the data protection authority where you live or work. We would welcome the chance to ' +
        `resolve your concern first at ${COMPANY.supportEmail}.`,
    ],
  },
];

/** Route `/gdpr`. */
export default function GdprPage() {
  return (
    <LegalDocument
      title="GDPR"
      summary="How Kasa meets the EU General Data Protection Regulation, and how to use your rights under it."
      sections={sections}
    />
  );
}
