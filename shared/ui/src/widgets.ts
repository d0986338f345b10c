// The '@kasa/ui/widgets' entry: the composite components and the less common controls, shared apart from '@kasa/ui'
// so that a page loads them when it first draws one, not with every first load (a shared module is never
// tree-shaken).
export { Tabs, type TabItem } from './Tabs';
export { Field, type FieldProps } from './Field';
export { DialogActions, ModalDialog } from './ModalDialog';
export { ConfirmDialog } from './ConfirmDialog';
export { COPIED_FOR_MS, CopyButton } from './CopyButton';
export { LoadingSkeleton } from './LoadingSkeleton';
export { Label, TextArea } from './formControls';
export { ProgressBar } from './ProgressBar';
