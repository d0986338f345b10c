import styled from '@emotion/styled';
import { SkeletonBar, VisuallyHidden } from '@kasa/ui';

const Lines = styled.div`
  display: flex;
  flex-direction: column;
  gap: 0.625rem;
`;

/**
 * A placeholder of `lines` bars in the shape of a list or text that is loading, with `children` (what is loading)
 * for screen readers; `data-testid="loading"`. Whatever it waits for should have a time limit, so that it gives way
 * to the data or to an error, never to an endless wait.
 */
export function LoadingSkeleton({ children, lines = 3 }: { children: string; lines?: number }) {
  return (
    <Lines role="status" aria-busy="true" data-testid="loading">
      <VisuallyHidden>{children}</VisuallyHidden>
      {Array.from({ length: lines }, (_, i) => (
        <SkeletonBar key={i} aria-hidden="true" width={`${90 - ((i * 17) % 45)}%`} />
      ))}
    </Lines>
  );
}
