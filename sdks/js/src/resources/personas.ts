import type { CallOptions, HttpClient } from '../http.js';
import type { Persona } from '../types.js';

/** The personas to chat with: Kasa's six, then (signed in) the caller's own custom ones. */
export class PersonasResource {
  constructor(private readonly http: HttpClient) {}

  /** GET /api/personas. */
  list(options?: CallOptions): Promise<Persona[]> {
    return this.http.json<Persona[]>({ method: 'GET', path: '/api/personas', options });
  }
}
