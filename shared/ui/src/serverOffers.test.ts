import { PLAN_FEATURES, PLANS } from '@kasa/contracts/src/plans';
import { answersFromNotes, featureOffered, gapOpen, serverGaps, SERVER_GAPS, type ServerState } from './serverOffers';

type Voice = NonNullable<ServerState['voice']>;

/** A voice service with a speech engine, the encoder, speech to text and translation, as `overrides` change it. */
function voiceStatus(overrides: Partial<Voice> = {}): Voice {
  return {
    engines: [{ name: 'espeak-ng', available: true, voices: 120 }],
    encoder: { name: 'ffmpeg', available: true, format: 'mp3' },
    transcription: { status: 'operational', providers: [{ name: 'openai', circuit: 'closed' }] },
    translation: { status: 'operational', providers: [{ name: 'openai', circuit: 'closed' }] },
    ...overrides,
  };
}

/** A server with an AI provider that sees images, and every voice part running. */
const EVERYTHING: ServerState = {
  chat: { aiConnected: true, images: true, documents: 'ai' },
  voice: voiceStatus(),
};

/** A server without any provider: the offline notes answer, espeak-ng speaks, nothing transcribes. */
const NO_PROVIDER: ServerState = {
  chat: { aiConnected: false, images: false, documents: 'quotes' },
  voice: voiceStatus({
    transcription: { status: 'unavailable', providers: [] },
    translation: { status: 'degraded-offline', providers: [] },
  }),
};

describe('what this server offers of each plan', () => {
  it('takes nothing off any plan when the server has every part', () => {
    for (const tier of ['free', 'pro', 'enterprise'] as const)
      expect(serverGaps(PLANS[tier].features, EVERYTHING)).toEqual([]);
    for (const feature of PLAN_FEATURES) expect(featureOffered(feature, EVERYTHING)).toBe('all');
    expect(answersFromNotes(EVERYTHING)).toBe(false);
  });

  it('takes nothing off while the server has not answered, or could not be asked', () => {
    for (const gap of SERVER_GAPS) expect(gapOpen(gap, {})).toBe(false);
    expect(serverGaps(PLANS.enterprise.features, {})).toEqual([]);
    for (const feature of PLAN_FEATURES) expect(featureOffered(feature, {})).toBe('all');
    expect(answersFromNotes({})).toBe(false);
  });

  it('without an AI provider: no images, documents quoted, no voice messages; read-aloud, languages and video stay', () => {
    expect(serverGaps(PLANS.pro.features, NO_PROVIDER)).toEqual(['images', 'documentQuotes', 'speechInput']);
    expect(serverGaps(PLANS.enterprise.features, NO_PROVIDER)).toEqual(['images', 'documentQuotes', 'speechInput']);
    expect(serverGaps(PLANS.free.features, NO_PROVIDER)).toEqual([]);
    expect(featureOffered('attachments', NO_PROVIDER)).toBe('partly');
    expect(featureOffered('voice', NO_PROVIDER)).toBe('partly');
    expect(featureOffered('languages', NO_PROVIDER)).toBe('all');
    expect(featureOffered('video', NO_PROVIDER)).toBe('all');
    expect(answersFromNotes(NO_PROVIDER)).toBe(true);
  });

  it('with a provider that does not see images: only images are missing, documents are answered by the model', () => {
    const blind: ServerState = { ...EVERYTHING, chat: { aiConnected: true, images: false, documents: 'ai' } };
    expect(serverGaps(PLANS.pro.features, blind)).toEqual(['images']);
    expect(featureOffered('attachments', blind)).toBe('partly');
    expect(answersFromNotes(blind)).toBe(false);
  });

  it('voice is missing altogether without a speech engine and without speech to text', () => {
    const silent: ServerState = {
      voice: voiceStatus({
        engines: [{ name: 'espeak-ng', available: false, voices: 0 }],
        transcription: { status: 'unavailable', providers: [] },
      }),
    };
    expect(serverGaps(PLANS.pro.features, silent)).toEqual(['speechInput', 'speechOutput']);
    expect(featureOffered('voice', silent)).toBe('none');
    const noEngines: ServerState = { voice: voiceStatus({ engines: [] }) };
    expect(serverGaps(['voice'], noEngines)).toEqual(['speechOutput']);
    expect(featureOffered('voice', noEngines)).toBe('partly');
  });

  it('counts speech to text as unknown when the voice status leaves it out', () => {
    expect(gapOpen('speechInput', { voice: voiceStatus({ transcription: undefined }) })).toBe(false);
  });

  it('video needs the encoder, and only Enterprise loses it', () => {
    const noEncoder: ServerState = {
      voice: voiceStatus({ encoder: { name: 'ffmpeg', available: false, format: 'mp3' } }),
    };
    expect(serverGaps(PLANS.enterprise.features, noEncoder)).toEqual(['video']);
    expect(serverGaps(PLANS.pro.features, noEncoder)).toEqual([]);
    expect(featureOffered('video', noEncoder)).toBe('none');
  });

  it('languages are offered whether translation is operational or degraded to offline', () => {
    for (const status of ['operational', 'degraded-offline'] as const) {
      const state: ServerState = { voice: voiceStatus({ translation: { status, providers: [] } }) };
      expect(featureOffered('languages', state)).toBe('all');
    }
  });

  it('never takes geo, custom personas, teams or extra calls off a plan', () => {
    const bare: ServerState = {
      chat: NO_PROVIDER.chat,
      voice: voiceStatus({
        engines: [],
        encoder: { name: 'ffmpeg', available: false, format: 'mp3' },
        transcription: { status: 'unavailable', providers: [] },
        translation: { status: 'degraded-offline', providers: [] },
      }),
    };
    expect(serverGaps(['geo', 'customPersonas', 'teams', 'extraCalls'], bare)).toEqual([]);
    for (const feature of ['geo', 'customPersonas', 'teams', 'extraCalls'] as const)
      expect(featureOffered(feature, bare)).toBe('all');
  });
});
