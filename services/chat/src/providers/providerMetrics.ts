import type { Registry } from 'prom-client';
import { Counter, Histogram } from 'prom-client';
import type { AttemptRecord } from './providerChain';

/** Prometheus series per provider: attempts by outcome, time to first token and attempt duration. */
export class ProviderMetrics {
  private readonly attempts: Counter<'provider' | 'outcome'>;
  private readonly firstToken: Histogram<'provider'>;
  private readonly duration: Histogram<'provider' | 'outcome'>;

  constructor(registry: Registry) {
    this.attempts = new Counter({
      name: 'chat_provider_attempts_total',
      help: 'Provider attempts by outcome',
      labelNames: ['provider', 'outcome'],
      registers: [registry],
    });
    this.firstToken = new Histogram({
      name: 'chat_provider_first_token_seconds',
      help: 'Time from the start of a provider attempt to its first token',
      labelNames: ['provider'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15],
      registers: [registry],
    });
    this.duration = new Histogram({
      name: 'chat_provider_attempt_seconds',
      help: 'Duration of provider attempts',
      labelNames: ['provider', 'outcome'],
      buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 180],
      registers: [registry],
    });
  }

  observe(attempt: AttemptRecord): void {
    this.attempts.inc({ provider: attempt.provider, outcome: attempt.outcome });
    this.duration.observe({ provider: attempt.provider, outcome: attempt.outcome }, attempt.latencyMs / 1000);
    if (attempt.firstTokenMs !== undefined)
      this.firstToken.observe({ provider: attempt.provider }, attempt.firstTokenMs / 1000);
  }
}
