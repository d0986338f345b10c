import type { AiProviderKind, AiProviderKindInfo } from '@kasa/contracts';

// The Connect AI step's own choice of kinds; what the step shares with the operator console's form (the kinds' names,
// the draft, its problems and requests, the local model's download) is in @kasa/ui/aiProviders.

/**
 * Kinds with a choice of their own (Ollama found on this machine, the local model), or settings only the operator
 * console asks for (Azure's resource, Bedrock's region).
 */
const NOT_BY_KEY: ReadonlySet<AiProviderKind> = new Set(['ollama', 'local', 'azure', 'bedrock']);

/** The kinds the "paste a key" choice offers, in the server's order: those a key and an address are enough for. */
export function keyKinds(kinds: readonly AiProviderKindInfo[]): AiProviderKindInfo[] {
  return kinds.filter((info) => !NOT_BY_KEY.has(info.kind));
}
