import type { LucideProps } from 'lucide-react/icons';

/**
 * The web app's icons: one SVG set (lucide), never emoji, which render as empty boxes where no emoji font is
 * installed. Only the icons in use are listed: this module is part of the shared '@kasa/ui' entry, and a shared module
 * is never tree-shaken, so the whole set would be on every first load (lucide-react itself is not shared; its
 * `lucide-react/icons` modules are the same icons). To add one: add it here, and deploy the shell before (or with)
 * the remote that needs it, since the shell's copy is the one every remote receives.
 */
export {
  ArrowLeft,
  BookOpen,
  Check,
  CircleCheck,
  CircleHelp,
  CircleX,
  Compass,
  Download,
  FileText,
  Globe,
  Languages,
  MessageCircle,
  Mic,
  Moon,
  Paperclip,
  Pause,
  Pencil,
  Play,
  Share2,
  Stethoscope,
  Sun,
  Trash2,
  TrendingUp,
  TriangleAlert,
  Volume2,
  Wrench,
  X,
} from 'lucide-react/icons';
export type { LucideIcon, LucideProps } from 'lucide-react/icons';

/**
 * The props every decorative icon takes. The text beside an icon, or its button's label, says what it means, so the
 * icon itself is hidden from assistive technology.
 */
export const ICON: LucideProps = { size: 16, strokeWidth: 2, 'aria-hidden': true, focusable: false };
