import styled from '@emotion/styled';
import type { UsageResponse } from '@kasa/contracts';
import { useFormats } from '../i18n/format';
import { usePanelsT } from '../i18n/panels/usePanelsT';

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

/**
 * Calls per day as columns (errors in a darker cap). The SVG is one image with a summary for screen readers; the
 * numbers themselves are in the table under 'Show the numbers'.
 */
export function DailyChart({ days }: { days: readonly Day[] }) {
  const t = usePanelsT();
  const formats = useFormats();
  const max = Math.max(1, ...days.map((d) => d.calls));
  const total = days.reduce((sum, d) => sum + d.calls, 0);
  const busiest = days.reduce<Day | null>((best, d) => (!best || d.calls > best.calls ? d : best), null);
  const width = 100 / Math.max(1, days.length);
  const summary =
    total === 0 || !busiest
      ? t('chart.none', { days: days.length })
      : t('chart.summary', {
          total,
          days: days.length,
          day: formats.shortDate(busiest.date),
          busiest: busiest.calls,
        });
  return (
    <Figure data-testid="daily-chart">
      <figcaption>{t('chart.title')}</figcaption>
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
        <summary>{t('chart.numbers')}</summary>
        <table>
          <thead>
            <tr>
              <th scope="col">{t('chart.day')}</th>
              <th scope="col">{t('chart.calls')}</th>
              <th scope="col">{t('figures.errors')}</th>
            </tr>
          </thead>
          <tbody>
            {days.map((day) => (
              <tr key={day.date}>
                <td>{formats.shortDate(day.date)}</td>
                <td>{formats.count(day.calls)}</td>
                <td>{formats.count(day.errors)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </Figure>
  );
}
