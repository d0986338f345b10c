import styled from '@emotion/styled';
import { Link } from 'react-router-dom';
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

const groups: ReadonlyArray<{ title: string; links: ReadonlyArray<[to: string, label: string]> }> = [
  {
    title: 'Product',
    links: [
      ['/features', 'Features'],
      ['/pricing', 'Pricing'],
      ['/developer', 'API Documentation'],
      ['/integrations', 'Integrations'],
    ],
  },
  {
    title: 'Company',
    links: [
      ['/about', 'About'],
      ['/blog', 'Blog'],
      ['/careers', 'Careers'],
      ['/press', 'Press'],
    ],
  },
  {
    title: 'Support',
    links: [
      ['/help', 'Help Center'],
      ['/community', 'Community'],
      ['/contact', 'Contact'],
      ['/status', 'Status'],
    ],
  },
  {
    title: 'Legal',
    links: [
      ['/privacy', 'Privacy'],
      ['/terms', 'Terms'],
      ['/cookies', 'Cookies'],
      ['/gdpr', 'GDPR'],
    ],
  },
];

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
  return (
    <Bottom>
      <Inner>
        <Columns>
          <NewsletterForm />
          {groups.map((group) => (
            <Group key={group.title} aria-label={group.title}>
              <h2>{group.title}</h2>
              <ul>
                {group.links.map(([to, label]) => (
                  <li key={to}>
                    <Link to={to}>{label}</Link>
                  </li>
                ))}
              </ul>
            </Group>
          ))}
        </Columns>
        <Row>
          <p>© {new Date().getFullYear()} Kasa</p>
          <p>
            <a href="mailto:hello@kasa.example">hello@kasa.example</a> ·{' '}
            <a href="mailto:support@kasa.example">support@kasa.example</a>
          </p>
          <ul aria-label="Kasa elsewhere">
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
