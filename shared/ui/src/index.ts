// The '@kasa/ui' entry: what most pages draw (buttons, inputs, layout, skeleton bars, the icons). The composite
// components are the '@kasa/ui/widgets' entry, a Module Federation singleton of its own that a page loads when it
// first draws one (a shared module is never tree-shaken: one entry would put all of them on every first load).
// '@kasa/ui/tokens' (the design tokens: data and functions, no React) is a plain module for the shell's theme and for
// code outside the browser.
export {
  Actions,
  Button,
  ButtonLink,
  Card,
  HiddenLabel,
  fieldStyle,
  InlineError,
  Muted,
  PageContainer,
  Select,
  TextInput,
  TOUCH_MEDIA,
  TOUCH_TARGET,
  VisuallyHidden,
  visuallyHidden,
  type ButtonVariant,
} from './controls';
export { PageSkeleton, SkeletonBar } from './Skeleton';
export * from './icons';
export type { UiMessageId } from './messages';
