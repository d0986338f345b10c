// The '@kasa/ui/aiProviders' entry: what the forms that connect an AI provider share (the operator console's AI
// providers section and the setup page's Connect AI step). Not a Module Federation shared module: each frontend
// bundles the parts it uses (the shell in its lazy setup chunk), so no first load carries it.
export { baseUrlPlace, keyNeed, kindName, type KeyNeed, type UnbrandedKind } from './kinds';
export {
  FIELD_MAX,
  PERSONAS,
  createRequest,
  draftOf,
  isHttpUrl,
  keyBlocked,
  newDraft,
  personaName,
  problemsOf,
  testRequest,
  uniqueName,
  updateRequest,
  withKind,
  withoutMoreSettings,
  type DraftContext,
  type DraftField,
  type DraftProblem,
  type DraftProblems,
  type ProviderDraft,
  type VisionChoice,
} from './providerDraft';
export {
  DOWNLOAD_POLL_MS,
  byteUnitOf,
  downloadProgress,
  downloadTarget,
  fileOfUrl,
  formatBytes,
  percentDone,
  type ProgressMessages,
} from './localModel';
export {
  SettingInput,
  settingFields,
  type FieldControl,
  type FieldLook,
  type LabelledFieldProps,
  type SettingInputProps,
  type SettingTextFieldProps,
} from './SettingField';
