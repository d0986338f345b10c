import styled from '@emotion/styled';
import type { Persona } from '@kasa/contracts';

const Circle = styled.span<{ size: string; ring: string }>`
  flex: none;
  display: inline-grid;
  place-items: center;
  width: ${({ size }) => size};
  height: ${({ size }) => size};
  border-radius: 50%;
  border: 2px solid ${({ ring }) => ring};
  background: var(--kasa-surface-muted);
  font-size: calc(${({ size }) => size} * 0.5);
  line-height: 1;
`;

/** Only a #rrggbb colour from the persona is used in CSS; anything else falls back to the theme's accent. */
const HEX = /^#[0-9a-f]{6}$/i;

/** The persona's avatar (an emoji) in a ring of its colour; decorative, the name is always written beside it. */
export function PersonaAvatar({ persona, size = '2rem' }: { persona: Persona; size?: string }) {
  const ring = persona.color && HEX.test(persona.color) ? persona.color : 'var(--kasa-accent)';
  return (
    <Circle size={size} ring={ring} aria-hidden="true">
      {persona.avatar || persona.name.slice(0, 1).toUpperCase()}
    </Circle>
  );
}
