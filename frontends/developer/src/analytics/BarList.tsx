import styled from '@emotion/styled';
import { formatCount } from '../status/serviceState';

const Table = styled.table`
  width: 100%;
  border-collapse: collapse;
  font-size: 0.875rem;
  caption {
    text-align: left;
    font-weight: 600;
    padding-bottom: 0.5rem;
  }
  th,
  td {
    padding: 0.25rem 0;
    text-align: left;
    vertical-align: middle;
  }
  th {
    font-weight: 400;
    padding-right: 0.75rem;
    word-break: break-word;
    width: 40%;
  }
  td.count {
    width: 4.5rem;
    text-align: right;
    font-variant-numeric: tabular-nums;
    padding-left: 0.5rem;
  }
`;

const Track = styled.div`
  height: 0.75rem;
  border-radius: 999px;
  background: var(--kasa-surface-muted);
  overflow: hidden;
`;

const Fill = styled.div`
  height: 100%;
  border-radius: 999px;
  background: var(--kasa-primary);
`;

export interface Bar {
  label: string;
  value: number;
  /** Shown after the count, e.g. a percentage. */
  note?: string;
}

/**
 * A horizontal bar chart that is a table underneath: screen readers read the label and the count of each row; the
 * bar only repeats the count for the eye.
 */
export function BarList({ caption, bars, testId }: { caption: string; bars: readonly Bar[]; testId?: string }) {
  const max = Math.max(1, ...bars.map((bar) => bar.value));
  return (
    <Table data-testid={testId}>
      <caption>{caption}</caption>
      <tbody>
        {bars.map((bar) => (
          <tr key={bar.label}>
            <th scope="row">{bar.label}</th>
            <td aria-hidden="true">
              <Track>
                <Fill style={{ width: `${(bar.value / max) * 100}%` }} />
              </Track>
            </td>
            <td className="count">
              {formatCount(bar.value)}
              {bar.note ? ` (${bar.note})` : ''}
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
