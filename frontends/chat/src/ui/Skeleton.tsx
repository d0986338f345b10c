import styled from '@emotion/styled';
import { keyframes } from '@emotion/react';

const pulse = keyframes`
  50% { opacity: 0.45; }
`;

/**
 * A grey placeholder bar in the shape of content that is loading. Decorative: the region around it carries
 * `aria-busy` and says in words what is loading.
 */
export const SkeletonBar = styled.span<{ width?: string; height?: string }>`
  display: block;
  width: ${({ width = '100%' }) => width};
  max-width: 100%;
  height: ${({ height = '0.875rem' }) => height};
  border-radius: var(--kasa-radius);
  background: var(--kasa-border);
  animation: ${pulse} 1.4s ease-in-out infinite;
  @media (prefers-reduced-motion: reduce) {
    animation: none;
  }
`;
