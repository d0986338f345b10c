import styled from '@emotion/styled';
import { Link } from 'react-router-dom';
import { useT, type MessageId } from '../i18n/useT';
import { NewsletterForm } from './NewsletterForm';

const Bottom = styled.footer`
  margin-top: auto;
  border-top: 1px solid var(--kasa-border);
  background: var(--kasa-surface);
  color: var(--kasa-muted);
  font-size: 0.9375rem;
  a {
    color: var(--kasa-fg);
  }
  p {
    margin: 0;
  }
`;

const Inner = styled.div`
  max-width: 72rem;
  margin: 0 auto;
  padding: 2rem 1.25rem 1.25rem;
`;

const Columns = styled.div`
  display: grid;
  gap: 1.5rem 2rem;
  grid-template-columns: minmax(14rem, 1.5fr) repeat(4, minmax(8rem, 1fr));
  @media (max-width: 60rem) {
    grid-template-columns: repeat(2, minmax(0, 1fr));
    > :first-child {
      grid-column: 1 / -1;
    }
  }
`;

const Group = styled.nav`
  h2 {
    margin: 0 0 0.5rem;
    color: var(--kasa-fg);
    font-size: 0.9375rem;
  }
  ul {
    margin: 0;
    padding: 0;
    list-style: none;
  }
  li + li {
    margin-top: 0.375rem;
  }
`;

const Row = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 0.75rem 2rem;
  margin-top: 1.75rem;
  padding-top: 1.25rem;
  border-top: 1px solid var(--kasa-border);
  ul {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem 1rem;
    margin: 0;
    padding: 0;
    list-style: none;
  }
`;

const groups: ReadonlyArray<{ title: MessageId; links: ReadonlyArray<[to: string, label: MessageId]> }> = [
  {
    title: 'footer.product',
    links: [
      ['/features', 'footer.features'],
      ['/pricing', 'nav.pricing'],
      ['/developer', 'footer.apiDocs'],
      ['/integrations', 'footer.integrations'],
    ],
  },
  {
    title: 'footer.company',
    links: [
      ['/about', 'footer.about'],
      ['/blog', 'footer.blog'],
      ['/careers', 'footer.careers'],
      ['/press', 'footer.press'],
    ],
  },
  {
    title: 'footer.support',
    links: [
      ['/help', 'footer.help'],
      ['/community', 'footer.community'],
      ['/contact', 'footer.contact'],
      ['/status', 'footer.status'],
    ],
  },
  {
    title: 'footer.legal',
    links: [
      ['/privacy', 'footer.privacy'],
      ['/terms', 'footer.terms'],
      ['/cookies', 'footer.cookies'],
      ['/gdpr', 'footer.gdpr'],
    ],
  },
];

/** The two mailboxes, and the dot between them: the same in every language. */
const HELLO_EMAIL = 'hello@kasa.example';
const SUPPORT_EMAIL = 'support@kasa.example';
const SEPARATOR = ' · ';

/** Kasa's accounts elsewhere. The handles are placeholders until the company's own accounts are set up. */
const socialLinks: ReadonlyArray<[href: string, label: string]> = [
  ['https://x.com/kasa', 'X (Twitter)'],
  ['https://www.linkedin.com/company/kasa', 'LinkedIn'],
  ['https://github.com/kasa', 'GitHub'],
  ['https://www.youtube.com/@kasa', 'YouTube'],
  ['https://www.instagram.com/kasa', 'Instagram'],
  ['https://discord.gg/kasa', 'Discord'],
];

/** Newsletter sign-up, the public pages by group, the two mailboxes and the social links. */
export function Footer() {
  const t = useT();
  return (
    <Bottom>
      <Inner>
        <Columns>
          <NewsletterForm />
          {groups.map((group) => (
            <Group key={group.title} aria-label={t(group.title)}>
              <h2>{t(group.title)}</h2>
              <ul>
                {group.links.map(([to, label]) => (
                  <li key={to}>
                    <Link to={to}>{t(label)}</Link>
                  </li>
                ))}
              </ul>
            </Group>
          ))}
        </Columns>
        <Row>
          <p>{t('footer.copyright', { year: String(new Date().getFullYear()) })}</p>
          <p>
            <a href={`mailto:${HELLO_EMAIL}`}>{HELLO_EMAIL}</a>
            {SEPARATOR}
            <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
          </p>
          <ul aria-label={t('footer.elsewhere')}>
            {socialLinks.map(([href, label]) => (
              <li key={href}>
                <a href={href} target="_blank" rel="noopener noreferrer">
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </Row>
      </Inner>
    </Bottom>
  );
}
