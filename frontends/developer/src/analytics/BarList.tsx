import styled from '@emotion/styled';
import { useFormats } from '../i18n/format';
import { usePanelsT } from '../i18n/panels/usePanelsT';

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
  /** The bar's share of the whole in percent, shown after the count. */
  share?: number;
}

/**
 * A horizontal bar chart that is a table underneath: screen readers read the label and the count of each row; the
 * bar only repeats the count for the eye.
 */
export function BarList({ caption, bars, testId }: { caption: string; bars: readonly Bar[]; testId?: string }) {
  const t = usePanelsT();
  const formats = useFormats();
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
              {bar.share === undefined
                ? formats.count(bar.value)
                : t('bars.countWithShare', { count: formats.count(bar.value), share: formats.percent(bar.share) })}
            </td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
