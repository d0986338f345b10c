import styled from '@emotion/styled';
import { useMessages } from '@kasa/i18n';
import { useLegalT, type LegalMessageId } from '../../i18n/legal/useLegalT';
import { ButtonLink, Page, Prose } from '../../ui';
import { COMPANY } from './company';

/** A numbered section of a legal page: its heading, then its paragraphs, then its list, as message ids. */
export interface LegalSection {
  heading: LegalMessageId;
  paragraphs?: readonly LegalMessageId[];
  items?: readonly LegalMessageId[];
}

export interface LegalDocumentProps {
  titleId: LegalMessageId;
  /** One or two sentences: what the document covers. */
  summaryId: LegalMessageId;
  sections: readonly LegalSection[];
}

const Meta = styled.p`
  && {
    color: var(--kasa-muted);
  }
`;

const Back = styled.div`
  margin-top: 2.5rem;
`;

/** The company's details, which any legal text may name (`{legalName}`, `{supportEmail}` …). */
const companyValues = {
  legalName: COMPANY.legalName,
  address: COMPANY.address,
  registration: COMPANY.registration,
  jurisdiction: COMPANY.jurisdiction,
  dpo: COMPANY.dpo,
  supportEmail: COMPANY.supportEmail,
};

/**
 * The shape of Kasa's legal pages: title, effective date, numbered sections, a way home. Their texts are the legal
 * section of the catalogue (i18n/legal), which each legal page loads (withCatalogue with LEGAL_LOADERS).
 */
export function LegalDocument({ titleId, summaryId, sections }: LegalDocumentProps) {
  const t = useLegalT();
  const { locale } = useMessages();
  const text = (id: LegalMessageId) => t(id, companyValues);
  return (
    <Page>
      <Prose aria-labelledby="legal-title">
        <h1 id="legal-title">{text(titleId)}</h1>
        <Meta>{t('legal.effectiveDate', { date: COMPANY.effectiveDate })}</Meta>
        <p>{text(summaryId)}</p>
        {/* A translation is a convenience; the English text is the one that binds. */}
        {locale === 'en' ? null : <Meta data-testid="legal-english-prevails">{t('legal.englishPrevails')}</Meta>}
        {sections.map((section, index) => (
          <section key={section.heading} aria-labelledby={`legal-section-${index}`}>
            <h2 id={`legal-section-${index}`}>
              {t('legal.sectionHeading', { number: index + 1, heading: text(section.heading) })}
            </h2>
            {section.paragraphs?.map((paragraph) => (
              <p key={paragraph}>{text(paragraph)}</p>
            ))}
            {section.items ? (
              <ul>
                {section.items.map((item) => (
                  <li key={item}>{text(item)}</li>
                ))}
              </ul>
            ) : null}
          </section>
        ))}
        <Back>
          <ButtonLink to="/" variant="primary">
            {t('common.backHome')}
          </ButtonLink>
        </Back>
      </Prose>
    </Page>
  );
}
