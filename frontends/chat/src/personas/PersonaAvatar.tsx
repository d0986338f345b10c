import styled from '@emotion/styled';
import type { Persona } from '@kasa/contracts';
import { BookOpen, Compass, type LucideIcon, MessageCircle, Stethoscope, TrendingUp, Wrench } from '@kasa/ui';

const Circle = styled.span<{ size: string; ring: string }>`
  flex: none;
  display: inline-grid;
  place-items: center;
  width: ${({ size }) => size};
  height: ${({ size }) => size};
  border-radius: 50%;
  border: 2px solid ${({ ring }) => ring};
  background: var(--kasa-surface-muted);
  color: var(--kasa-fg);
  font-size: calc(${({ size }) => size} * 0.45);
  font-weight: 700;
  line-height: 1;
  svg {
    width: 55%;
    height: 55%;
  }
`;

/** Only a #rrggbb colour from the persona is used in CSS; anything else falls back to the theme's accent. */
const HEX = /^#[0-9a-f]{6}$/i;

/**
 * One SVG icon per built-in persona. The API's `avatar` (an emoji) is not drawn: emoji render as empty boxes
 * where no emoji font is installed. A persona without an icon here shows the first letter of its name.
 */
export const PERSONA_ICONS: Readonly<Record<string, LucideIcon>> = {
  kasa: MessageCircle,
  merla: TrendingUp,
  ticha: BookOpen,
  massa: Wrench,
  nana: Compass,
  dokta: Stethoscope,
};

/** The persona's avatar (its icon, or its initial) in a ring of its colour; decorative, the name is written beside it. */
export function PersonaAvatar({ persona, size = '2rem' }: { persona: Persona; size?: string }) {
  const ring = persona.color && HEX.test(persona.color) ? persona.color : 'var(--kasa-accent)';
  const Icon = PERSONA_ICONS[persona.id];
  return (
    <Circle size={size} ring={ring} aria-hidden="true" data-testid="persona-avatar" data-persona={persona.id}>
      {Icon ? <Icon aria-hidden="true" focusable={false} strokeWidth={2.25} /> : persona.name.slice(0, 1).toUpperCase()}
    </Circle>
  );
}
