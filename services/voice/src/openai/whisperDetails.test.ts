import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { OpenAiTranscriber } from '../cloud/openai';

/**
 * What verbose_json on /v1/audio/transcriptions passes on from OpenAI's Whisper: its duration and segments, with
 * only the fields of OpenAI's segment shape.
 */
let server: http.Server;
let answer: unknown;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const transcriber = () =>
  new OpenAiTranscriber(
    {
      apiKey: 'sk-test',
      baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
      transcribeModel: 'whisper-1',
      languages: ['en'],
    },
    (name) => (name === 'english' ? 'en' : undefined),
  );
const audio = { bytes: Buffer.from('RIFF....WAVE'), contentType: 'audio/wav' };

describe('the OpenAI transcriber’s verbose answer', () => {
  it('keeps the duration and the segments, each with OpenAI’s fields only', async () => {
    answer = {
      text: ' Good morning. ',
      language: 'english',
      duration: 1.62,
      segments: [
        {
          id: 0,
          seek: 0,
          start: 0,
          end: 1.6,
          text: ' Good morning.',
          tokens: [50364, 2205],
          temperature: 0,
          avg_logprob: -0.3,
          compression_ratio: 0.8,
          no_speech_prob: 0.02,
          secret: 'x',
        },
        { id: 1, text: 'no times' },
      ],
    };
    const result = await transcriber().transcribe({ audio, signal: AbortSignal.timeout(5_000) });
    expect(result).toEqual({
      text: 'Good morning.',
      language: 'en',
      duration: 1.62,
      segments: [
        {
          id: 0,
          seek: 0,
          start: 0,
          end: 1.6,
          text: ' Good morning.',
          tokens: [50364, 2205],
          temperature: 0,
          avg_logprob: -0.3,
          compression_ratio: 0.8,
          no_speech_prob: 0.02,
        },
      ],
    });
  });

  it('gives neither when the model answers plain json', async () => {
    answer = { text: 'Good morning.' };
    expect(await transcriber().transcribe({ audio, signal: AbortSignal.timeout(5_000) })).toEqual({
      text: 'Good morning.',
    });
  });
});
