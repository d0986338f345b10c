/**
 * Keeps the SDK's own API types (src/types.ts) in line with the platform's contracts. Nothing here runs: the type
 * check (`npm run typecheck`, `npx tsc -b sdks/js/tsconfig.typecheck.json`) fails when a type of the SDK and its
 * contract stop being the same shape, in either direction — a field added, removed, renamed, made optional or given
 * another type on one side only.
 *
 * Answers are compared with what the API sends (the contract's output type), requests with what a caller may send
 * (the contract's input type: fields with a server-side default are optional).
 */
import type * as Contracts from '@kasa/contracts';
import type { z } from '@kasa/contracts';
import type * as Sdk from '@kasa/sdk';

/** Optional fields made required, all the way down, so that a field present on one side only is a difference. */
export type DeepRequired<T> = T extends readonly (infer Item)[]
  ? DeepRequired<Item>[]
  : T extends object
    ? { [Key in keyof T]-?: DeepRequired<T[Key]> }
    : T;
export type Assignable<From, To> = [From] extends [To] ? true : false;
/** True when each type is assignable to the other, also with every optional field required. */
export type Same<A, B> =
  Assignable<A, B> extends true
    ? Assignable<B, A> extends true
      ? Assignable<DeepRequired<A>, DeepRequired<B>> extends true
        ? Assignable<DeepRequired<B>, DeepRequired<A>>
        : false
      : false
    : false;

/** Compiles only when `Check` is true; the error names the pair that drifted. */
export type Expect<Check extends true> = Check;

export type ContractChecks = [
  // Answers.
  Expect<Same<Sdk.User, Contracts.User>>,
  Expect<Same<Sdk.AuthResponse, Contracts.AuthResponse>>,
  Expect<Same<Sdk.MeResponse, Contracts.MeResponse>>,
  Expect<Same<Sdk.SubscriptionTier, Contracts.SubscriptionTier>>,
  Expect<Same<Sdk.ApiKeyScope, Contracts.ApiKeyScope>>,
  Expect<Same<Sdk.ApiKey, Contracts.ApiKey>>,
  Expect<Same<Sdk.CreateApiKeyResponse, Contracts.CreateApiKeyResponse>>,
  Expect<Same<Sdk.Persona, Contracts.Persona>>,
  Expect<Same<Sdk.Session, Contracts.Session>>,
  Expect<Same<Sdk.SessionPage, Contracts.SessionPage>>,
  Expect<Same<Sdk.Message, Contracts.Message>>,
  Expect<Same<Sdk.MessageStatus, Contracts.MessageStatus>>,
  Expect<Same<Sdk.StoredMessage, Contracts.StoredMessage>>,
  Expect<Same<Sdk.MessageVersion, Contracts.MessageVersion>>,
  Expect<Same<Sdk.AttachmentKind, Contracts.AttachmentKind>>,
  Expect<Same<Sdk.Attachment, Contracts.Attachment>>,
  Expect<Same<Sdk.MessageAttachment, Contracts.MessageAttachment>>,
  Expect<Same<Sdk.SessionWithMessages, Contracts.SessionWithMessages>>,
  Expect<Same<Sdk.AssistantReply, Contracts.AssistantReply>>,
  Expect<Same<Sdk.ConversationShare, Contracts.ConversationShare>>,
  Expect<Same<Sdk.SharedConversation, Contracts.SharedConversation>>,
  Expect<Same<Sdk.ReplyMeta, z.infer<typeof Contracts.StreamMetaEvent>>>,
  Expect<Same<Sdk.SynthesizeResponse, Contracts.SynthesizeResponse>>,
  Expect<Same<Sdk.Voice, Contracts.Voice>>,
  Expect<Same<Sdk.Language, Contracts.Language>>,
  Expect<Same<Sdk.LanguageCapability, Contracts.LanguageCapability>>,
  Expect<Same<Sdk.LanguageList, Contracts.LanguageList>>,
  Expect<Same<Sdk.DetectLanguageResponse, Contracts.DetectLanguageResponse>>,
  Expect<Same<Sdk.GeoLookupResponse, Contracts.GeoLookupResponse>>,
  Expect<Same<Sdk.VideoJobStatus, Contracts.VideoJobStatus>>,
  Expect<Same<Sdk.VideoJob, Contracts.VideoJob>>,
  Expect<Same<Sdk.VideoJobEvent, Contracts.VideoJobEvent>>,
  Expect<Same<Sdk.ChatCompletion, Contracts.OpenAIChatCompletion>>,
  Expect<Same<Sdk.ChatCompletionChunk, Contracts.OpenAIChatCompletionChunk>>,
  // Requests.
  Expect<Same<Sdk.RegisterRequest, z.input<typeof Contracts.RegisterRequest>>>,
  Expect<Same<Sdk.LoginRequest, z.input<typeof Contracts.LoginRequest>>>,
  Expect<Same<Sdk.CreateApiKeyRequest, z.input<typeof Contracts.CreateApiKeyRequest>>>,
  Expect<Same<Sdk.CreateSessionRequest, z.input<typeof Contracts.CreateSessionRequest>>>,
  Expect<Same<Sdk.SendMessageInput, Omit<z.input<typeof Contracts.CreateMessageRequest>, 'role'>>>,
  Expect<Same<Sdk.EditMessageInput, Omit<z.input<typeof Contracts.EditMessageRequest>, 'role'>>>,
  Expect<Same<Sdk.RegenerateInput, z.input<typeof Contracts.RegenerateRequest>>>,
  Expect<Same<Sdk.SynthesizeInput, z.input<typeof Contracts.SynthesizeRequest>>>,
  Expect<Same<Sdk.DetectLanguageRequest, z.input<typeof Contracts.DetectLanguageRequest>>>,
  Expect<Same<Sdk.ChatCompletionRequest, z.input<typeof Contracts.OpenAIChatCompletionRequest>>>,
  Expect<Same<Sdk.VideoGenerationRequest, z.input<typeof Contracts.VideoGenerationRequest>>>,
  // A query string's `limit` is coerced from text, so its contract input is `unknown`: the SDK takes a number.
  Expect<
    Same<
      Sdk.VideoJobListQuery,
      Omit<z.input<typeof Contracts.VideoJobListQuery>, 'limit'> & { limit?: number | undefined }
    >
  >,
];
