import type { LucideProps } from 'lucide-react';

/**
 * The props every decorative icon takes: the icons come from lucide-react (SVG, one set for the whole web app,
 * never emoji, which render as empty boxes where no emoji font is installed). The text beside an icon, or its
 * button's label, says what it means, so the icon itself is hidden from assistive technology.
 */
export const ICON: LucideProps = { size: 16, strokeWidth: 2, 'aria-hidden': true, focusable: false };
