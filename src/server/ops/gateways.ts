import type { PaymentGateway } from '../payments/port';
import { timedCall, type ShopMetrics, type Upstream } from './metrics';

/** Gateways whose calls go to an outside provider (the sandboxes answer in-process). */
const PROVIDERS: ReadonlySet<string> = new Set<Upstream>(['coinbase', 'hostedlink']);

/** The gateway with its links counted and its provider calls (link, confirmation) timed. */
export function measuredGateway(gateway: PaymentGateway, metrics: ShopMetrics): PaymentGateway {
  const upstream = PROVIDERS.has(gateway.module) ? gateway.module as Upstream : null;
  const timed = <T,>(action: string, call: () => Promise<T>) => (upstream ? timedCall(metrics, upstream, action, call) : call());
  const { confirm } = gateway;
  return {
    ...gateway,
    async createLink(payment, context) {
      const link = await timed('createLink', () => gateway.createLink(payment, context));
      metrics.paymentLink(gateway.module);
      return link;
    },
    verifyWebhook: (delivery) => gateway.verifyWebhook(delivery),
    ...(confirm ? { confirm: (event) => timed('confirm', () => confirm.call(gateway, event)) } : {}),
  };
}
