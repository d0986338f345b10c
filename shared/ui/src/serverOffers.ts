import type { ChatCapabilities, VoiceStatus } from '@kasa/contracts';
import type { PlanFeature } from '@kasa/contracts/src/plans';

// A plain module (no React, no zod, types only from @kasa/contracts): the pricing page and the chat's upgrade notes
// import it as '@kasa/ui/serverOffers', and each bundles its own copy (it is not a shared singleton).

/**
 * What this server said about itself: `GET /api/chat/capabilities` and `GET /api/voice/status`. A part is undefined
 * while it is unknown (not answered yet, or the request failed); an unknown part never takes anything off a plan, so
 * a failed status request leaves the plans as they are.
 */
export interface ServerState {
  chat?: Pick<ChatCapabilities, 'aiConnected' | 'images' | 'documents'>;
  voice?: Pick<VoiceStatus, 'engines' | 'encoder' | 'transcription' | 'translation'>;
}

/**
 * What a plan feature needs that this server may lack now, in the order they are listed:
 * - `images`: images in messages need an AI provider that sees images;
 * - `documentQuotes`: questions about documents are answered by quoting the document's passages (no AI provider);
 * - `speechInput`: voice messages need a speech-to-text provider;
 * - `speechOutput`: replies read aloud need a speech engine that runs;
 * - `video`: video generation needs the video encoder.
 */
export const SERVER_GAPS = ['images', 'documentQuotes', 'speechInput', 'speechOutput', 'video'] as const;
export type ServerGap = (typeof SERVER_GAPS)[number];

/** The plan feature each gap belongs to. */
export const GAP_FEATURE: Readonly<Record<ServerGap, PlanFeature>> = {
  images: 'attachments',
  documentQuotes: 'attachments',
  speechInput: 'voice',
  speechOutput: 'voice',
  video: 'video',
};

/** Whether a gap is open on this server now; false while the part of the server it depends on is unknown. */
export function gapOpen(gap: ServerGap, { chat, voice }: ServerState): boolean {
  switch (gap) {
    case 'images':
      return chat !== undefined && !chat.images;
    case 'documentQuotes':
      return chat?.documents === 'quotes';
    case 'speechInput':
      return voice?.transcription?.status === 'unavailable';
    case 'speechOutput':
      return voice !== undefined && !voice.engines.some((engine) => engine.available);
    case 'video':
      return voice !== undefined && !voice.encoder.available;
  }
}

/** The open gaps of these features (a plan's `PLANS[tier].features`), in SERVER_GAPS order. */
export function serverGaps(features: readonly PlanFeature[], state: ServerState): ServerGap[] {
  return SERVER_GAPS.filter((gap) => features.includes(GAP_FEATURE[gap]) && gapOpen(gap, state));
}

/**
 * How much of a feature this server delivers now:
 * - attachments: documents always work (answered by a model, or by quoting them), so at least `partly`; all of it
 *   with a provider that sees images and answers about documents;
 * - voice: `all` with a speech engine and speech to text, `partly` with one of them, `none` without either;
 * - languages: translation is operational, or degraded to what needs no provider (text already in the language,
 *   replies written in it), so always `all`;
 * - video: `all` with the video encoder, else `none`;
 * - geo, customPersonas, teams, extraCalls: need nothing the server may lack, `all`.
 */
export function featureOffered(feature: PlanFeature, state: ServerState): 'all' | 'partly' | 'none' {
  const gaps = serverGaps([feature], state);
  if (gaps.length === 0) return 'all';
  if (feature === 'attachments') return 'partly';
  if (feature === 'voice') return gaps.length === 1 ? 'partly' : 'none';
  return 'none';
}

/** No AI provider is connected: replies come from the built-in notes (false while unknown). */
export const answersFromNotes = (state: ServerState): boolean => state.chat?.aiConnected === false;
