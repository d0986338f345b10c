import type { CallOptions, HttpClient } from '../http.js';
import type {
  DetectLanguageRequest,
  DetectLanguageResponse,
  Language,
  LanguageCapability,
  LanguageList,
} from '../types.js';

/** The language catalogue (what Kasa can do in each language) and language detection. */
export class LanguagesResource {
  constructor(private readonly http: HttpClient) {}

  /** GET /api/languages → `{count, languages}`, optionally only those with one capability. */
  list(query: { capability?: LanguageCapability } = {}, options?: CallOptions): Promise<LanguageList> {
    return this.http.json<LanguageList>({ method: 'GET', path: '/api/languages', query: { ...query }, options });
  }

  /** GET /api/languages/:code → one language by any code or tag (`tw`, `twi`, `en-GB`); 404 if not listed. */
  get(code: string, options?: CallOptions): Promise<Language> {
    return this.http.json<Language>({ method: 'GET', path: `/api/languages/${encodeURIComponent(code)}`, options });
  }

  /** POST /api/languages/detect → the likeliest language, its confidence and the alternatives. */
  detect(input: DetectLanguageRequest, options?: CallOptions): Promise<DetectLanguageResponse> {
    return this.http.json<DetectLanguageResponse>({
      method: 'POST',
      path: '/api/languages/detect',
      body: input,
      idempotent: true,
      options,
    });
  }
}
