import { ROOT_CONTEXT, SpanKind, SpanStatusCode, TraceFlags, trace, type Attributes } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, RandomIdGenerator, TracerProvider, type IdGenerator } from '@opentelemetry/sdk-trace';
import type { TraceContext } from './traceContext';

/** One finished unit of work, under the ids its trace context already gave it (and sent on to other services). */
export interface FinishedSpan {
  context: TraceContext;
  name: string;
  kind: 'server' | 'consumer' | 'producer' | 'client';
  /** Epoch milliseconds. */
  startTime: number;
  endTime: number;
  attributes?: Attributes;
  failed?: boolean;
}

/** Where finished spans go: exported with OpenTelemetry when OTEL_EXPORTER_OTLP_ENDPOINT is set, else nowhere. */
export interface SpanRecorder {
  record(span: FinishedSpan): void;
  /** Sends what is buffered, then stops (part of the service's graceful shutdown). */
  shutdown(): Promise<void>;
}

const KINDS: Record<FinishedSpan['kind'], SpanKind> = {
  server: SpanKind.SERVER,
  consumer: SpanKind.CONSUMER,
  producer: SpanKind.PRODUCER,
  client: SpanKind.CLIENT,
};

/**
 * Ids come from Kasa's trace context, not from the SDK: a span's id was chosen when its work started, so that the
 * `traceparent` sent to other services and into events already named it. The SDK asks its id generator once per span,
 * synchronously inside `startSpan`, so the ids of the span being recorded are handed over just before.
 */
class ContextIdGenerator implements IdGenerator {
  next?: { traceId: string; spanId: string };
  private readonly random = new RandomIdGenerator();

  generateTraceId(): string {
    return this.next?.traceId ?? this.random.generateTraceId();
  }

  generateSpanId(): string {
    return this.next?.spanId ?? this.random.generateSpanId();
  }
}

/**
 * A span recorder exporting over OTLP/HTTP to `${endpoint}/v1/traces` in batches (the standard meaning of
 * OTEL_EXPORTER_OTLP_ENDPOINT), or undefined when no endpoint is configured: tracing then costs nothing.
 */
export function createSpanRecorder(options: {
  service: string;
  version: string;
  endpoint?: string;
  /** How often buffered spans are sent (default 2 s). */
  exportIntervalMs?: number;
}): SpanRecorder | undefined {
  if (!options.endpoint) return undefined;
  const ids = new ContextIdGenerator();
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': `kasa-${options.service}`, 'service.version': options.version }),
    idGenerator: ids,
    spanProcessors: [
      new BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/+$/, '')}/v1/traces` }),
        // A bounded queue: when the collector is away, spans are dropped rather than held without limit.
        maxQueueSize: 2_048,
        scheduledDelayMillis: options.exportIntervalMs ?? 2_000,
      }),
    ],
  });
  const tracer = provider.getTracer('@kasa/service-kit', options.version);
  return {
    record(span) {
      const { traceId, spanId, parentSpanId, sampled } = span.context;
      if (!sampled) return;
      const parent = parentSpanId
        ? trace.setSpanContext(ROOT_CONTEXT, {
            traceId,
            spanId: parentSpanId,
            traceFlags: TraceFlags.SAMPLED,
            isRemote: true,
          })
        : ROOT_CONTEXT;
      ids.next = { traceId, spanId };
      let started;
      try {
        started = tracer.startSpan(
          span.name,
          { kind: KINDS[span.kind], startTime: span.startTime, attributes: span.attributes ?? {} },
          parent,
        );
      } finally {
        ids.next = undefined;
      }
      if (span.failed) started.setStatus({ code: SpanStatusCode.ERROR });
      started.end(span.endTime);
    },
    shutdown: () => provider.shutdown(),
  };
}
