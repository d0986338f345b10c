/**
 * The icons Kasa's frontends use, provided to the federation share scope under the key `lucide-react` (see
 * shared.js): one SVG icon set for the whole web app, never emoji. A shared module is never tree-shaken, so sharing
 * lucide-react whole would put every one of its icons on every first load; this file re-exports only the icons in
 * use, and webpack tree-shakes lucide-react inside it. They come from `lucide-react/icons` (the same module): an
 * import of `lucide-react` itself here would be served the shared module, that is this file.
 *
 * Every frontend imports from `lucide-react` as usual; a unit test (frontends/shell/src/ui/sharedIcons.test.ts)
 * fails when a frontend imports an icon that is not listed here. To add one: add it here, rebuild and deploy the
 * shell before (or with) the remote that needs it, since the shell's copy is the one every remote receives.
 */
export {
  ArrowLeft,
  BookOpen,
  Check,
  CircleHelp,
  Compass,
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
  Volume2,
  Wrench,
  X,
} from 'lucide-react/icons';
export type { LucideIcon, LucideProps } from 'lucide-react/icons';
