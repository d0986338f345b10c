import styled from '@emotion/styled';
import { keyframes } from '@emotion/react';
import { VisuallyHidden } from './controls';

const pulse = keyframes`
  0%, 100% { opacity: 1; }
  50% { opacity: 0.5; }
`;

export const SkeletonBlock = styled.div<{ width?: string; height?: string }>`
  width: ${({ width = '100%' }) => width};
  height: ${({ height = '1rem' }) => height};
  border-radius: var(--kasa-radius);
  background: var(--kasa-surface-muted);
  animation: ${pulse} 1.5s ease-in-out infinite;
`;

const Stack = styled.div`
  display: flex;
  flex-direction: column;
  gap: 0.875rem;
  width: 100%;
  max-width: 72rem;
  margin: 0 auto;
  padding: 2.5rem 1.25rem;
`;

/** A page-shaped placeholder with a status message for screen readers. */
export function PageSkeleton({ label }: { label: string }) {
  return (
    <Stack role="status" aria-busy="true">
      <VisuallyHidden>{label}</VisuallyHidden>
      <SkeletonBlock width="55%" height="2.5rem" />
      <SkeletonBlock width="80%" />
      <SkeletonBlock width="70%" />
      <SkeletonBlock width="12rem" height="2.75rem" />
    </Stack>
  );
}
