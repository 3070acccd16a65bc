/**
 * Spans of our own (store transactions, WHMCS actions, SMTP sends) and the trace id of log lines. Nothing here
 * loads OpenTelemetry: until tracing starts (OTEL_EXPORTER_OTLP_ENDPOINT), both are a plain call and nothing.
 */

/** Attribute values a span of ours carries: names and kinds, never an e-mail, an id, an amount or a parameter. */
export type SpanAttributes = Record<string, string | number | boolean>;

/** What the started SDK lends this module. */
export interface SpanSource {
  inSpan<T>(name: string, attributes: SpanAttributes, work: () => Promise<T>): Promise<T>;
  /** The active span's ids, or null outside any span. */
  activeIds(): { trace_id: string; span_id: string } | null;
}

let source: SpanSource | null = null;

/** Called once by the tracing start; before it, and without it, spans cost one comparison. */
export function useSpanSource(next: SpanSource | null): void {
  source = next;
}

export function tracingActive(): boolean {
  return source !== null;
}

/** Runs `work` in a child span of the active one (the request's), ended when it settles; an error marks it. */
export function inSpan<T>(name: string, attributes: SpanAttributes, work: () => Promise<T>): Promise<T> {
  return source ? source.inSpan(name, attributes, work) : work();
}

/** Pino's mixin: the active span's trace and span ids on every line written inside it. */
export function traceLogFields(): Record<string, string> {
  return source?.activeIds() ?? {};
}
