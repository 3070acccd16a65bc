/** What tracing needs from the environment: the OTLP endpoint (tracing is off without it) and the service's name. */
export interface TracingEnvironment {
  OTEL_EXPORTER_OTLP_ENDPOINT?: string | undefined;
  OTEL_SERVICE_NAME?: string | undefined;
}

export interface Tracing {
  /** Exports the spans still buffered, then stops. */
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry when OTEL_EXPORTER_OTLP_ENDPOINT is set; otherwise no OpenTelemetry module is even loaded
 * (null). The exporter reads the endpoint (and the OTEL_EXPORTER_OTLP_* options) from the environment itself.
 */
export async function startTracing(env: TracingEnvironment, publicPort: number): Promise<Tracing | null> {
  if (!env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim()) return null;
  const { startSdk } = await import('./sdk');
  return startSdk({ serviceName: env.OTEL_SERVICE_NAME?.trim() || 'tv-checkout', publicPort });
}
