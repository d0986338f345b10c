import {
  BODY_LIMITS,
  formatByteSize,
  MULTIPART_OVERHEAD_BYTES,
  OPENAI_REQUEST_LIMITS,
  payloadTooLargeMessage,
  TRANSCRIBE_MAX_AUDIO_BYTES,
} from './bodyLimits';
import { OpenAIChatCompletionRequest } from './chat';

describe('body limits', () => {
  it('names sizes as people read them, rounded down', () => {
    expect(formatByteSize(1024 * 1024)).toBe('1 MB');
    expect(formatByteSize(BODY_LIMITS.transcription)).toBe('10 MB');
    expect(formatByteSize(1.5 * 1024 * 1024)).toBe('1.5 MB');
    expect(formatByteSize(64 * 1024)).toBe('64 KB');
    expect(formatByteSize(100 * 1024)).toBe('100 KB');
    expect(formatByteSize(512)).toBe('512 bytes');
  });

  it('says which limit a 413 is about', () => {
    expect(payloadTooLargeMessage(BODY_LIMITS.openAI)).toBe('The request body is too large: the limit is 1 MB.');
    expect(payloadTooLargeMessage(TRANSCRIBE_MAX_AUDIO_BYTES, 'recording')).toBe(
      'The recording is too large: the limit is 10 MB.',
    );
  });

  it('gives an upload room for the largest recording and its form', () => {
    expect(BODY_LIMITS.transcription).toBe(TRANSCRIBE_MAX_AUDIO_BYTES + MULTIPART_OVERHEAD_BYTES);
    // An 11 MB recording is over it, whatever form it comes in.
    expect(BODY_LIMITS.transcription).toBeLessThan(11 * 1024 * 1024);
  });

  it('lets every conversation the /v1 schema allows fit the /v1 body limit as UTF-8', () => {
    const { messages, totalChars } = OPENAI_REQUEST_LIMITS;
    // 3 bytes per UTF-16 unit at most, and the JSON of each message around its text.
    const envelope = JSON.stringify({ role: 'assistant', content: '' }).length + 1;
    expect(totalChars * 3 + messages * envelope + 64 * 1024).toBeLessThan(BODY_LIMITS.openAI);
  });
});

describe('the /v1 chat completion request', () => {
  const request = (messages: unknown[]) => OpenAIChatCompletionRequest.safeParse({ model: 'kasa', messages });
  const text = (n: number) => 'a'.repeat(n);

  it('accepts a long conversation up to the total', () => {
    const { messageChars, totalChars } = OPENAI_REQUEST_LIMITS;
    const full = Array.from({ length: totalChars / messageChars }, () => ({
      role: 'user',
      content: text(messageChars),
    }));
    expect(request(full).success).toBe(true);
  });

  it('refuses more text in all than fits one request, saying how much', () => {
    const { messageChars, totalChars } = OPENAI_REQUEST_LIMITS;
    const over = Array.from({ length: totalChars / messageChars }, () => ({
      role: 'user',
      content: text(messageChars),
    }));
    over.push({ role: 'user', content: 'one more' });
    const result = request(over);
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([
      expect.objectContaining({
        path: ['messages'],
        message: 'the messages hold 320,008 characters in all; at most 320,000 fit in one request',
      }),
    ]);
  });

  it('counts the parts of a message together', () => {
    const half = OPENAI_REQUEST_LIMITS.messageChars / 2;
    const parts = (n: number) => Array.from({ length: n }, () => ({ type: 'text', text: text(half) }));
    expect(request([{ role: 'user', content: parts(2) }]).success).toBe(true);
    const result = request([{ role: 'user', content: parts(3) }]);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ path: ['messages', 0, 'content'] });
  });

  it('refuses a message longer than a message may be', () => {
    const result = request([{ role: 'user', content: text(OPENAI_REQUEST_LIMITS.messageChars + 1) }]);
    expect(result.error?.issues[0]?.message).toBe('a message holds at most 64,000 characters');
  });
});
