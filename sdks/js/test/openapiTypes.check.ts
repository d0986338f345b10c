/**
 * Keeps the SDK's own API types (src/types.ts) in line with the OpenAPI document as a code generator reads it: the
 * types openapi-typescript makes from it (openapi.generated.ts, written by scripts/openapi-types.js). Nothing here
 * runs: the type check (`npm run typecheck`, `npx tsc -p sdks/js/tsconfig.typecheck.json --noEmit`) fails when the
 * two disagree.
 *
 * Answers: what the document says the API sends must fit the SDK's type (the SDK reads every answer), and the SDK's
 * type must fit the document's (it promises nothing the API does not send) — the two are the same shape, optional
 * fields included. Requests: what the SDK sends must fit the document's body; the other way too, except where the SDK
 * takes less (noted below).
 */
import type * as Sdk from '@kasa/sdk';
import type { Assignable, Expect, Same } from './contractTypes';
import type { components, operations } from './openapi.generated';

type Schemas = components['schemas'];
/** An operation's JSON answer with a status. */
type Answer<Id extends keyof operations, Status extends number> =
  operations[Id]['responses'] extends Record<Status, { content: { 'application/json': infer Body } }> ? Body : never;
/** An operation's JSON request body. */
type RequestBody<Id extends keyof operations> = operations[Id] extends {
  requestBody?: { content: { 'application/json': infer Body } };
}
  ? Body
  : never;

export type OpenApiChecks = [
  // Answers.
  Expect<Same<Sdk.ChatCompletion, Schemas['OpenAIChatCompletion']>>,
  Expect<Same<Sdk.ChatCompletion, Answer<'postV1ChatCompletions', 200>>>,
  Expect<Same<Sdk.ChatCompletionChunk, Schemas['OpenAIChatCompletionChunk']>>,
  Expect<Same<Sdk.ChatCompletionUsage, Schemas['OpenAIUsage']>>,
  Expect<Same<Sdk.ChatCompletionMessageToolCall, Schemas['OpenAIMessageToolCall']>>,
  Expect<Same<Sdk.ModelList, Answer<'getV1Models', 200>>>,
  Expect<Same<Sdk.Message, Schemas['Message']>>,
  Expect<Same<Sdk.Message, Answer<'postChatSessionsBySessionIdMessages', 201>>>,
  Expect<Same<Sdk.StoredMessage, Schemas['StoredMessage']>>,
  Expect<Same<Sdk.AssistantReply, Schemas['AssistantReply']>>,
  Expect<Same<Sdk.Session, Schemas['Session']>>,
  Expect<Same<Sdk.Session, Answer<'postChatSessions', 201>>>,
  Expect<Same<Sdk.SessionPage, Schemas['SessionPage']>>,
  Expect<Same<Sdk.SessionWithMessages, Schemas['SessionWithMessages']>>,
  Expect<Same<Sdk.Persona, Schemas['Persona']>>,
  Expect<Same<Sdk.Persona[], Answer<'getPersonas', 200>>>,
  Expect<Same<Sdk.ApiKey, Schemas['ApiKey']>>,
  Expect<Same<Sdk.ApiKey[], Answer<'getDeveloperKeys', 200>['keys']>>,
  Expect<Same<Sdk.CreateApiKeyResponse, Schemas['CreateApiKeyResponse']>>,
  Expect<Same<Sdk.User, Schemas['User']>>,
  Expect<Same<Sdk.AuthResponse, Schemas['AuthResponse']>>,
  Expect<Same<Sdk.MeResponse, Schemas['MeResponse']>>,
  Expect<Same<Sdk.Language, Schemas['Language']>>,
  Expect<Same<Sdk.LanguageList, Schemas['LanguageList']>>,
  Expect<Same<Sdk.DetectLanguageResponse, Schemas['DetectLanguageResponse']>>,
  Expect<Same<Sdk.SynthesizeResponse, Schemas['SynthesizeResponse']>>,
  Expect<Same<Sdk.VideoJob, Schemas['VideoJob']>>,
  // Errors: the body every failure has, and on /v1 the same with OpenAI's `error` beside it.
  Expect<Same<Sdk.KasaErrorBody, Schemas['Error']>>,
  Expect<Same<Sdk.KasaErrorBody, Answer<'getChatSessionsBySessionId', 404>>>,
  Expect<Assignable<Schemas['OpenAIErrorBody'], Sdk.KasaErrorBody>>,
  // Requests: what the SDK sends is what the API takes, and the other way.
  Expect<Same<Sdk.ChatCompletionRequest, Schemas['OpenAIChatCompletionRequest']>>,
  Expect<Same<Sdk.ChatCompletionRequest, RequestBody<'postV1ChatCompletions'>>>,
  Expect<Same<Sdk.CreateSessionRequest, Schemas['CreateSessionRequest']>>,
  Expect<Same<Sdk.CreateApiKeyRequest, Schemas['CreateApiKeyRequest']>>,
  Expect<Same<Sdk.LoginRequest, Schemas['LoginRequest']>>,
  Expect<Same<Sdk.RegisterRequest, Schemas['RegisterRequest']>>,
  Expect<Same<Sdk.DetectLanguageRequest, Schemas['DetectLanguageRequest']>>,
  Expect<Same<Sdk.SynthesizeInput, Schemas['SynthesizeRequest']>>,
  Expect<Same<Sdk.VideoGenerationRequest, Schemas['VideoGenerationRequest']>>,
  // The SDK adds `role: 'user'` itself: a message it sends is the document's body.
  Expect<Assignable<Sdk.SendMessageInput & { role: 'user' }, Schemas['CreateMessageRequest']>>,
  Expect<Same<Sdk.SendMessageInput, Omit<Schemas['CreateMessageRequest'], 'role'>>>,
];
