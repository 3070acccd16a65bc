import { context, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, type Span, type SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import { redactUrl } from '../log';
import { useSpanSource } from './span';

/** Attributes that name a person or their address (IP, browser): dropped from every span. */
const PERSONAL_ATTRIBUTES = ['client.address', 'network.peer.address', 'http.client_ip', 'net.peer.ip', 'net.sock.peer.addr', 'user_agent.original', 'http.user_agent', 'url.query'];
/** Attributes holding a URL or a path: their query string and payment-link ids are redacted as in the log. */
const URL_ATTRIBUTES = ['url.full', 'http.url', 'http.target', 'url.path'];

/** Scrubs a span as it ends, before any exporter sees it, whichever instrumentation set the attribute. */
export const scrubPersonalData: SpanProcessor = {
  onStart: () => {},
  onEnding(span: Span) {
    const attributes = span.attributes as Attributes;
    for (const key of PERSONAL_ATTRIBUTES) delete attributes[key];
    for (const key of URL_ATTRIBUTES) {
      const value = attributes[key];
      if (typeof value === 'string') attributes[key] = redactUrl(value);
    }
  },
  onEnd: () => {},
  forceFlush: async () => {},
  shutdown: async () => {},
};

/** How long a stop waits for the last spans to be exported. */
const SHUTDOWN_WAIT_MS = 1_000;

export interface TracingOptions {
  serviceName: string;
  /** Requests arriving on another port (the operator listener's scrapes) make no trace. */
  publicPort: number;
}

/** The tracer provider exporting over OTLP/HTTP (JSON) to OTEL_EXPORTER_OTLP_ENDPOINT, with the instrumentations that fit this server. */
export function startSdk({ serviceName, publicPort }: TracingOptions): { shutdown(): Promise<void> } {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': serviceName }),
    spanProcessors: [scrubPersonalData, new BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        // Outside calls go through undici (its own spans); the exporter's own posts are not traced.
        disableOutgoingRequestInstrumentation: true,
        ignoreIncomingRequestHook: (request) => publicPort !== 0 && request.socket.localPort !== publicPort,
      }),
      new UndiciInstrumentation(),
      // Route spans, without one per lifecycle hook (a dozen per request, of little use); the shop's routes only, not the operator listener's.
      new FastifyOtelInstrumentation({ registerOnInitialization: true, instrumentHooks: false, ignorePaths: ({ url }) => url !== '/' && !url.startsWith('/checkout') }),
    ],
  });
  const tracer = provider.getTracer('tv-checkout');
  useSpanSource({
    inSpan: (name, attributes, work) => tracer.startActiveSpan(name, { attributes }, async (span) => {
      try {
        return await work();
      } catch (error) {
        // The error's kind only: messages can quote what WHMCS or an SMTP server was sent.
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.constructor.name : typeof error });
        throw error;
      } finally {
        span.end();
      }
    }),
    activeIds: () => {
      const span = trace.getSpan(context.active());
      if (!span) return null;
      const { traceId, spanId } = span.spanContext();
      return { trace_id: traceId, span_id: spanId };
    },
  });
  return {
    shutdown: async () => {
      useSpanSource(null);
      // A collector that does not answer delays the stop by a second at most, not the exporter's 10 s timeout.
      await Promise.race([provider.shutdown(), new Promise((done) => setTimeout(done, SHUTDOWN_WAIT_MS).unref())]);
    },
  };
}
