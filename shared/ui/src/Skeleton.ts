import styled from '@emotion/styled';
import { keyframes } from '@emotion/react';
import { createElement } from 'react';
import { VisuallyHidden } from './controls';

const pulse = keyframes`
  50% { opacity: 0.45; }
`;

/**
 * A grey placeholder bar in the shape of content that is loading. Decorative: the region around it carries
 * `aria-busy` and says in words what is loading (as PageSkeleton does, and LoadingSkeleton in '@kasa/ui/widgets').
 */
export const SkeletonBar = styled.span<{ width?: string; height?: string }>`
  display: block;
  width: ${({ width = '100%' }) => width};
  max-width: 100%;
  height: ${({ height = '1rem' }) => height};
  border-radius: var(--kasa-radius);
  background: var(--kasa-border);
  animation: ${pulse} 1.4s ease-in-out infinite;
  @media (prefers-reduced-motion: reduce) {
    animation: none;
  }
`;

const Page = styled.div`
  display: flex;
  flex-direction: column;
  gap: 0.875rem;
  width: 100%;
  max-width: 72rem;
  margin: 0 auto;
  padding: 2.5rem 1.25rem;
`;

/**
 * A page-shaped placeholder; `label` says what is loading, for screen readers. Written with createElement rather than
 * JSX so that the '@kasa/ui' entry, on every first load, carries no JSX runtime of its own.
 */
export function PageSkeleton({ label }: { label: string }) {
  return createElement(
    Page,
    { role: 'status', 'aria-busy': true },
    createElement(VisuallyHidden, null, label),
    createElement(SkeletonBar, { width: '55%', height: '2.5rem' }),
    createElement(SkeletonBar, { width: '80%' }),
    createElement(SkeletonBar, { width: '70%' }),
    createElement(SkeletonBar, { width: '12rem', height: '2.75rem' }),
  );
}
