import { ATTACHMENT_PROCESSING_LIMITS } from '@kasa/contracts';
import { ConfigError } from '@kasa/service-kit';
import { readConfig } from './config';

describe('chat configuration', () => {
  it('runs with no provider configured (offline only) and the documented defaults', () => {
    const config = readConfig({});
    expect(config.providers).toEqual([]);
    expect(config).toMatchObject({
      CHAT_PORT: 4002,
      CHAT_SSE_HEARTBEAT_MS: 15_000,
      CHAT_PROVIDER_FIRST_TOKEN_TIMEOUT_MS: 15_000,
      // A location for the prompt is best effort: a reply waits at most this long for it.
      CHAT_GEO_TIMEOUT_MS: 300,
    });
    expect(config).not.toHaveProperty('PATH');
  });

  it('reads the provider order, keys, base URLs and per-persona models', () => {
    const config = readConfig({
      CHAT_PROVIDERS: ' Anthropic, openai ,ollama,my-vllm,offline',
      ANTHROPIC_API_KEY: 'sk-ant',
      OPENAI_API_KEY: 'sk-oa',
      OPENAI_MODEL: 'gpt-4.1-mini',
      OPENAI_MODEL_DOKTA: 'gpt-4.1',
      MY_VLLM_BASE_URL: 'http://10.0.0.5:8000/v1',
      MY_VLLM_MODEL: 'qwen2.5',
    });
    expect(config.providers.map((p) => [p.name, p.kind, p.model])).toEqual([
      ['anthropic', 'anthropic', 'claude-3-5-haiku-latest'],
      ['openai', 'openai', 'gpt-4.1-mini'],
      ['ollama', 'ollama', 'llama3.2'],
      ['my-vllm', 'openai-compatible', 'qwen2.5'],
    ]);
    expect(config.providers[1]).toMatchObject({ apiKey: 'sk-oa', personaModels: { dokta: 'gpt-4.1' } });
    expect(config.providers[2]!.baseURL).toBe('http://127.0.0.1:11434/api');
  });

  it('knows which providers see images by their model family, and lets <PREFIX>_VISION decide', () => {
    const config = readConfig({
      CHAT_PROVIDERS: 'openai,groq,ollama,deepseek,my-vllm',
      OPENAI_API_KEY: 'sk-oa',
      GROQ_API_KEY: 'gsk',
      DEEPSEEK_API_KEY: 'ds',
      OLLAMA_MODEL: 'llava:13b',
      DEEPSEEK_VISION: 'TRUE',
      MY_VLLM_BASE_URL: 'http://10.0.0.5:8000/v1',
      MY_VLLM_MODEL: 'Qwen2.5-VL-7B-Instruct',
      MY_VLLM_VISION: 'false',
    });
    expect(config.providers.map((p) => [p.name, p.vision])).toEqual([
      ['openai', true], // gpt-4o-mini
      ['groq', false], // llama-3.1-8b-instant
      ['ollama', true], // llava
      ['deepseek', true], // set
      ['my-vllm', false], // set, whatever the name says
    ]);
    expect(() => readConfig({ CHAT_PROVIDERS: 'openai', OPENAI_API_KEY: 'k', OPENAI_VISION: 'yes' })).toThrow(
      /OPENAI_VISION: must be true or false/,
    );
  });

  it('lists every problem at once', () => {
    let error: unknown;
    try {
      readConfig({
        CHAT_PROVIDERS: 'openai,groq,custom,groq,bad name',
        CHAT_BREAKER_ERROR_PERCENT: '150',
        CUSTOM_MODEL: 'm',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.join('\n');
    expect(problems).toMatch(/OPENAI_API_KEY: is required/);
    expect(problems).toMatch(/GROQ_API_KEY: is required/);
    expect(problems).toMatch(/CUSTOM_BASE_URL: is required for an OpenAI-compatible provider/);
    expect(problems).toMatch(/'groq' is listed twice/);
    expect(problems).toMatch(/'bad name' is not a valid provider name/);
    expect(problems).toMatch(/CHAT_BREAKER_ERROR_PERCENT/);
  });

  it('shares replies through Redis only when REDIS_URL is a redis URL (empty means unset)', () => {
    expect(readConfig({}).REDIS_URL).toBeUndefined();
    expect(readConfig({ REDIS_URL: '' }).REDIS_URL).toBeUndefined();
    expect(readConfig({ REDIS_URL: 'redis://10.0.0.7:6379/2' }).REDIS_URL).toBe('redis://10.0.0.7:6379/2');
    expect(() => readConfig({ REDIS_URL: 'http://10.0.0.7:6379' })).toThrow(ConfigError);
  });

  it('reads attachments within ATTACHMENT_PROCESSING_LIMITS unless the environment says otherwise', () => {
    expect(readConfig({}).attachmentProcessing).toEqual(ATTACHMENT_PROCESSING_LIMITS);
    const config = readConfig({
      CHAT_ATTACHMENT_THREADS_MIN: '0',
      CHAT_ATTACHMENT_THREADS_MAX: '1',
      CHAT_ATTACHMENT_QUEUE_MAX: '0',
      CHAT_ATTACHMENT_QUEUE_WAIT_MS: '500',
      CHAT_ATTACHMENT_JOB_TIMEOUT_MS: '2000',
      CHAT_ATTACHMENT_WORKER_MEMORY_MB: '64',
      CHAT_ATTACHMENT_WORKER_YOUNG_MEMORY_MB: '8',
      CHAT_DOCX_MAX_ENTRIES: '10',
      CHAT_DOCX_MAX_UNPACKED_BYTES: '1048576',
      CHAT_DOCX_MAX_COMPRESSION_RATIO: '20',
      CHAT_PDF_MAX_PAGES: '5',
      CHAT_IMAGE_MAX_PIXELS: '1000000',
      CHAT_ATTACHMENT_IDLE_MS: '1000',
    });
    expect(config.attachmentProcessing).toEqual({
      minThreads: 0,
      maxThreads: 1,
      maxQueue: 0,
      queueWaitMs: 500,
      jobMs: 2_000,
      workerMemoryMb: 64,
      workerYoungMemoryMb: 8,
      docxEntries: 10,
      docxUnpackedBytes: 1_048_576,
      docxCompressionRatio: 20,
      pdfPages: 5,
      imagePixels: 1_000_000,
      idleTimeoutMs: 1_000,
    });
  });

  it('refuses attachment pool settings that cannot work: more threads at least than at most, none, not a number', () => {
    expect(() => readConfig({ CHAT_ATTACHMENT_THREADS_MIN: '3', CHAT_ATTACHMENT_THREADS_MAX: '2' })).toThrow(
      /CHAT_ATTACHMENT_THREADS_MIN: must be at most CHAT_ATTACHMENT_THREADS_MAX \(2\)/,
    );
    expect(() => readConfig({ CHAT_ATTACHMENT_THREADS_MAX: '0' })).toThrow(/CHAT_ATTACHMENT_THREADS_MAX/);
    expect(() => readConfig({ CHAT_PDF_MAX_PAGES: 'many' })).toThrow(/CHAT_PDF_MAX_PAGES/);
  });
});
