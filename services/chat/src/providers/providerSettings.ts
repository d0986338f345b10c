/** The provider settings live in @kasa/ai-providers, shared with the voice service's translation. */
export {
  PROVIDER_KINDS,
  envPrefixOf,
  parseProviders,
  type KnownProviderKind,
  type ProviderKind,
  type ProviderSettings,
} from '@kasa/ai-providers';
