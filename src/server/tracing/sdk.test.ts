import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node';
import { describe, expect, it } from 'vitest';
import { scrubPersonalData } from './sdk';

describe('scrubPersonalData', () => {
  const exporter = new InMemorySpanExporter();
  const tracer = new BasicTracerProvider({ spanProcessors: [scrubPersonalData, new SimpleSpanProcessor(exporter)] }).getTracer('test');
  const exported = (attributes: Record<string, string>) => {
    exporter.reset();
    tracer.startSpan('span', { attributes }).end();
    return exporter.getFinishedSpans()[0]?.attributes;
  };

  it('drops the client\'s address and browser, whichever convention named them', () => {
    const attributes = exported({ 'client.address': '203.0.113.7', 'network.peer.address': '203.0.113.7', 'http.client_ip': '203.0.113.7', 'user_agent.original': 'Mozilla/5.0', 'http.route': '/checkout/api/order' });
    expect(attributes).toEqual({ 'http.route': '/checkout/api/order' });
  });

  it('keeps no query string (e-mails, promo codes, tokens) and no payment-link id in a URL or path', () => {
    const attributes = exported({
      'url.full': 'https://shop.example/checkout/api/orderStatus?email=someone%40example.com',
      'url.query': 'email=someone%40example.com',
      'http.target': '/checkout/sandbox/pay/pl_secret123?x=1',
      'url.path': '/checkout/sandbox/pay/pl_secret123',
    });
    expect(attributes).toEqual({
      'url.full': 'https://shop.example/checkout/api/orderStatus?[redacted]',
      'http.target': '/checkout/sandbox/pay/[redacted]?[redacted]',
      'url.path': '/checkout/sandbox/pay/[redacted]',
    });
  });
});
