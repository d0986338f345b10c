import styled from '@emotion/styled';
import { ButtonLink, Page, Prose } from '../../ui';
import { COMPANY } from './company';

export interface LegalSection {
  heading: string;
  paragraphs?: readonly string[];
  items?: readonly string[];
}

export interface LegalDocumentProps {
  title: string;
  /** One or two sentences: what the document covers. */
  summary: string;
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

/** The shape of Kasa's legal pages: title, effective date, numbered sections, a way home. */
export function LegalDocument({ title, summary, sections }: LegalDocumentProps) {
  return (
    <Page>
      <Prose aria-labelledby="legal-title">
        <h1 id="legal-title">{title}</h1>
        <Meta>Effective date: {COMPANY.effectiveDate}</Meta>
        <p>{summary}</p>
        {sections.map((section, index) => (
          <section key={section.heading} aria-labelledby={`legal-section-${index}`}>
            <h2 id={`legal-section-${index}`}>{`${index + 1}. ${section.heading}`}</h2>
            {section.paragraphs?.map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
            {section.items ? (
              <ul>
                {section.items.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            ) : null}
          </section>
        ))}
        <Back>
          <ButtonLink to="/" variant="primary">
            Back to Home
          </ButtonLink>
        </Back>
      </Prose>
    </Page>
  );
}
