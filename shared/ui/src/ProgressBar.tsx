import styled from '@emotion/styled';
import { css, keyframes } from '@emotion/react';

/** The bar of an unknown total, moving from the start of the line to its end (the end is left in right to left). */
const slide = keyframes`
  from { margin-inline-start: -30%; }
  to { margin-inline-start: 100%; }
`;

const Track = styled.div`
  height: 0.75rem;
  overflow: hidden;
  border: 1px solid var(--kasa-muted);
  border-radius: 999px;
  background: var(--kasa-surface);
`;

const Fill = styled('div', { shouldForwardProp: (prop) => prop !== 'known' })<{ known: boolean }>`
  height: 100%;
  border-radius: 999px;
  background: var(--kasa-primary);
  transition: width 0.4s ease;
  ${({ known }) =>
    known
      ? null
      : css`
          width: 30%;
          animation: ${slide} 1.6s linear infinite;
        `}
  @media (prefers-reduced-motion: reduce) {
    transition: none;
    animation: none;
  }
`;

/**
 * A progress bar (role=progressbar): `percent` done (aria-valuenow, 0 to 100), or a bar moving along the track
 * without a value while the total is unknown. `label` names it; `text` says the progress in words (aria-valuetext),
 * which the caller also shows. Motion stops for people who ask for less.
 */
export function ProgressBar({
  percent,
  label,
  text,
  testId,
}: {
  percent: number | null;
  label: string;
  text: string;
  testId?: string;
}) {
  return (
    <Track
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent ?? undefined}
      aria-valuetext={text}
      data-testid={testId}
    >
      <Fill known={percent !== null} style={percent === null ? undefined : { width: `${percent}%` }} />
    </Track>
  );
}
