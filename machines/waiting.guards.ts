/** The waiting machine's guards and the error code one of them reads. */
import type { OrderStatus } from '../src/api/client';
import type { WaitingContext, WaitingPaymentStatus } from './waiting.context';

interface GuardArgs {
  context: WaitingContext;
}

/** The API error code a failed call carries (an ApiFailure's `code`, or the body's `error.code`); null when none. */
export function errorCode(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const { code, error: body } = error as { code?: unknown; error?: unknown };
  if (typeof code === 'string') return code;
  const inner = typeof body === 'object' && body !== null ? (body as { code?: unknown }).code : undefined;
  return typeof inner === 'string' ? inner : null;
}

/** The guards of the waiting machine, exported for their unit tests. */
export const waitingGuards = {
  isFraud: ({ context }: GuardArgs) => context.order.fraud,
  deadlinePassed: ({ context }: GuardArgs) => context.now >= context.lastDate,
  orderActive: (_: unknown, params: { status: OrderStatus }) => params.status === 'Active',
  orderFraud: (_: unknown, params: { status: OrderStatus; fraud: boolean }) => params.status === 'Fraud' || params.fraud,
  orderCancelled: (_: unknown, params: { status: OrderStatus }) => params.status === 'Cancelled',
  hasLatePayment: (_: unknown, params: { latePayment: boolean }) => params.latePayment,
  paymentExpiredEarly: ({ context }: GuardArgs, params: { payment: WaitingPaymentStatus | null }) => params.payment === 'Expired' && context.now < context.lastDate,
  paidAfterClose: (_: unknown, params: { error: unknown }) => errorCode(params.error) === 'paid_after_close',
  paymentDeclined: ({ context }: GuardArgs) => context.payment === 'Declined',
  paymentConfirming: ({ context }: GuardArgs) => context.payment === 'Confirming',
  paymentNotConfirming: ({ context }: GuardArgs) => context.payment !== 'Confirming',
  mayChangeGateway: ({ context }: GuardArgs) =>
    context.payment !== 'Confirming' && context.gateways.some((gateway) => gateway.module !== context.selectedGateway),
  paymentAwaited: ({ context }: GuardArgs) => context.payment !== 'Declined' && context.payment !== 'Confirming',
  mayRenewLink: ({ context }: GuardArgs) => context.payment !== 'Confirming' && (context.payment === 'Declined' || context.now >= context.lastDate),
  renewingSameGateway: ({ context }: GuardArgs) => (context.pendingGateway ?? context.selectedGateway) === context.selectedGateway,
  isOtherGateway: ({ context }: GuardArgs, params: { gateway: string }) =>
    params.gateway !== context.selectedGateway && context.gateways.some((gateway) => gateway.module === params.gateway),
};
