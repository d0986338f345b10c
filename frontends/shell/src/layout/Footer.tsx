import styled from '@emotion/styled';
import { Link } from 'react-router-dom';

const Bottom = styled.footer`
  margin-top: auto;
  border-top: 1px solid var(--kasa-border);
  background: var(--kasa-surface);
  color: var(--kasa-muted);
`;

const Inner = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: 0.75rem 2rem;
  max-width: 72rem;
  margin: 0 auto;
  padding: 1.25rem;
  font-size: 0.9375rem;
  ul {
    display: flex;
    flex-wrap: wrap;
    gap: 0.25rem 1rem;
    margin: 0;
    padding: 0;
    list-style: none;
  }
  a {
    color: var(--kasa-fg);
  }
  p {
    margin: 0;
  }
`;

const links: ReadonlyArray<[to: string, label: string]> = [
  ['/features', 'Features'],
  ['/pricing', 'Pricing'],
  ['/developer', 'API Documentation'],
  ['/about', 'About'],
  ['/privacy', 'Privacy'],
  ['/terms', 'Terms'],
];

/** Minimal for now: the main public pages and the two contact mailboxes. */
export function Footer() {
  return (
    <Bottom>
      <Inner>
        <p>© {new Date().getFullYear()} Kasa</p>
        <nav aria-label="Footer">
          <ul>
            {links.map(([to, label]) => (
              <li key={to}>
                <Link to={to}>{label}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <p>
          <a href="mailto:hello@kasa.example">hello@kasa.example</a> ·{' '}
          <a href="mailto:support@kasa.example">support@kasa.example</a>
        </p>
      </Inner>
    </Bottom>
  );
}
