import { AFRICAN_LANGUAGE_NAMES } from '@kasa/contracts/src/africanLanguages';
import { Actions, ButtonLink, Page, Prose } from '../ui';
import { COMPANY } from './legal/company';

/** Route `/about`: why Kasa exists, what it believes, and who is behind it. */
export default function AboutPage() {
  return (
    <Page>
      <Prose aria-labelledby="about-title">
        <h1 id="about-title">About Kasa</h1>
        <p>
          “Kasa” means “to speak” in Akan. We build an AI assistant that people can simply talk to, in the language they
          think in, and that understands the place they live in.
        </p>
        <h2>Why we build it</h2>
        <p>
          Most assistants work best in a handful of languages and assume a keyboard. Kasa starts from the voice and from
          {`more than 120 languages, including ${AFRICAN_LANGUAGE_NAMES}, so that more people can ask a question and be understood.`}
        </p>
        <h2>What we believe</h2>
        <ul>
          <li>Your language is not an add-on: it is where the product starts.</li>
          <li>Answers should know where you are and what is around you.</li>
          <li>Your data is yours: no advertising, no selling it, and clear rules about what we keep.</li>
          <li>Developers should get the same assistant through an open, documented API.</li>
        </ul>
        <h2>The company</h2>
        <p>
          Kasa is operated by {COMPANY.legalName}, {COMPANY.address}, {COMPANY.registration}.
        </p>
        <p>
          Write to us at <a href={`mailto:${COMPANY.helloEmail}`}>{COMPANY.helloEmail}</a>, or for help with your
          account at <a href={`mailto:${COMPANY.supportEmail}`}>{COMPANY.supportEmail}</a>.
        </p>
        <Actions>
          <ButtonLink to="/" variant="primary">
            Back to Home
          </ButtonLink>
          <ButtonLink to="/contact">Contact Us</ButtonLink>
        </Actions>
      </Prose>
    </Page>
  );
}
