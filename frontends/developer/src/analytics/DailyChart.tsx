import styled from '@emotion/styled';
import type { UsageResponse } from '@kasa/contracts';
import { formatCount } from '../status/serviceState';

type Day = UsageResponse['data']['days'][number];

const Figure = styled.figure`
  margin: 0;
  figcaption {
    font-weight: 600;
    margin-bottom: 0.5rem;
  }
  svg {
    display: block;
    width: 100%;
    height: 8rem;
  }
  details {
    margin-top: 0.5rem;
    font-size: 0.875rem;
  }
  table {
    border-collapse: collapse;
  }
  th,
  td {
    padding: 0.125rem 0.75rem 0.125rem 0;
    text-align: left;
  }
`;

/** `2026-11-23` → `23 Nov`. */
const shortDate = (date: string) =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

/**
 * Calls per day as columns (errors in a darker cap). The SVG is one image with a summary for screen readers; the
 * numbers themselves are in the table under 'Show the numbers'.
 */
export function DailyChart({ days }: { days: readonly Day[] }) {
  const max = Math.max(1, ...days.map((d) => d.calls));
  const total = days.reduce((sum, d) => sum + d.calls, 0);
  const busiest = days.reduce<Day | null>((best, d) => (!best || d.calls > best.calls ? d : best), null);
  const width = 100 / Math.max(1, days.length);
  const summary =
    total === 0
      ? `No calls in the last ${days.length} days`
      : `${formatCount(total)} calls in the last ${days.length} days; busiest ${busiest ? shortDate(busiest.date) : ''} with ${formatCount(busiest?.calls ?? 0)}`;
  return (
    <Figure data-testid="daily-chart">
      <figcaption>Calls per day</figcaption>
      <svg viewBox="0 0 100 40" preserveAspectRatio="none" role="img" aria-label={summary}>
        {days.map((day, index) => {
          const height = (day.calls / max) * 38;
          const errors = (day.errors / max) * 38;
          const x = index * width + width * 0.15;
          return (
            <g key={day.date}>
              <rect x={x} y={40 - height} width={width * 0.7} height={height} fill="var(--kasa-primary)" />
              {errors > 0 ? (
                <rect x={x} y={40 - height} width={width * 0.7} height={errors} fill="var(--kasa-danger)" />
              ) : null}
            </g>
          );
        })}
        <line x1="0" y1="40" x2="100" y2="40" stroke="var(--kasa-border)" strokeWidth="0.5" />
      </svg>
      <p style={{ margin: '0.25rem 0 0', fontSize: '0.875rem' }}>{summary}</p>
      <details>
        <summary>Show the numbers</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">Day</th>
              <th scope="col">Calls</th>
              <th scope="col">Errors</th>
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.date}>
                <td>{shortDate(day.date)}</td>
                <td>{formatCount(day.calls)}</td>
                <td>{formatCount(day.errors)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </Figure>
  );
}
