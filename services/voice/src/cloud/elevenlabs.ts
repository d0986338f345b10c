import type { PcmAudio, SpeechProvider, SpeechRequest, SpeechVoice } from '../speech/speechProvider';
import { joinUrl, postToProvider, readAudio } from './cloudHttp';
import { multilingualVoices } from './cloudVoices';
import { rawPcm } from './pcm';

export interface ElevenLabsSettings {
  apiKey: string;
  baseUrl: string;
  model: string;
  languages: string[];
}

const ENGINE = 'elevenlabs';
const PCM_RATE = 24_000;

/** ElevenLabs text to speech: POST /v1/text-to-speech/{voice_id}, raw PCM out (`output_format=pcm_24000`). */
export class ElevenLabsSpeech implements SpeechProvider {
  readonly name = ENGINE;
  readonly available = true;
  readonly remote = true;
  readonly sampleRate = PCM_RATE;
  private readonly voiceList: SpeechVoice[];

  constructor(private readonly settings: ElevenLabsSettings) {
    // ElevenLabs' premade voices, which every account has; the multilingual model reads each in every language.
    this.voiceList = multilingualVoices(
      ENGINE,
      [
        { id: 'rachel', name: 'Rachel', gender: 'female', engineVoice: '21m00Tcm4TlvDq8ikWAM' },
        { id: 'adam', name: 'Adam', gender: 'male', engineVoice: 'pNInz6obpgDQGcFmaJgB' },
        { id: 'bella', name: 'Bella', gender: 'female', engineVoice: 'EXAVITQu4vr4xnSDxMaL' },
        { id: 'antoni', name: 'Antoni', gender: 'male', engineVoice: 'ErXwobaYiN019PkySvjV' },
      ],
      settings.languages,
    );
  }

  voices(): SpeechVoice[] {
    return this.voiceList;
  }

  async synthesize({ text, voice, signal }: SpeechRequest): Promise<PcmAudio> {
    const url = joinUrl(
      this.settings.baseUrl,
      `/v1/text-to-speech/${encodeURIComponent(voice.engineVoice)}?output_format=pcm_${PCM_RATE}`,
    );
    const res = await postToProvider(
      ENGINE,
      url,
      {
        headers: { 'xi-api-key': this.settings.apiKey, 'content-type': 'application/json', accept: 'audio/pcm' },
        body: JSON.stringify({ text, model_id: this.settings.model }),
      },
      signal,
    );
    return rawPcm(await readAudio(ENGINE, res), PCM_RATE);
  }
}
