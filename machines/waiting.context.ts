/** What the waiting step starts from, remembers and asks its actors: its types, its first context and the countdown. */
import { ORDER_POLL_INTERVAL_MS, ORDER_POLL_MAX_BACKOFF_MS } from '../src/domain/constants';
import { statusTone, type StatusTone } from '../src/domain/order-status';
import type { Gateway, GatewayPaymentResponse, OrderStatus, OrderStatusChange, OrderStatusResponse, PaymentProgress, Receipt } from '../src/api/client';

/** The order being paid, as the order step stored it. */
export interface WaitingOrder {
  orderid: number | null;
  invoiceid: number | null;
  serviceid: number | null;
  fraud: boolean;
}

/** A payment gateway as the gateway list gives it (what the waiting page shows of it). */
export type WaitingGateway = Pick<Gateway, 'module' | 'displayname' | 'type'>;

/** The latest payment link's state as the server reports it; null until the first status answer. */
export type WaitingPaymentStatus = NonNullable<PaymentProgress>['status'];

/** What the invoice bills, for the receipt block (the status answer's receipt, amount and currency). */
export type WaitingReceipt = Receipt & Pick<OrderStatusResponse, 'amount' | 'currency'>;

/** What the waiting step starts from: the order, its payment link and the persisted deadline. */
export interface WaitingInput {
  order: WaitingOrder;
  paymentLink: string | null;
  /** Payment deadline, epoch milliseconds (persisted as the waiting store's lastDate). */
  lastDate: number;
  /** Milliseconds the countdown spans, for the progress fraction (persisted). */
  duration: number;
  gateways: WaitingGateway[];
  /** Module of the gateway the link was made for. */
  selectedGateway: string;
  /** The clock reading when the step starts, epoch milliseconds. */
  now: number;
  /** The status answer the page was first painted with (the server's render): the step opens showing it, then polls. */
  status?: OrderStatusResult | null;
}

/** What the waiting page shows and the machine remembers. */
export interface WaitingContext {
  order: WaitingOrder;
  paymentLink: string | null;
  lastDate: number;
  duration: number;
  /** Last clock reading, epoch milliseconds. */
  now: number;
  /** Milliseconds left until the deadline, never below 0. */
  remainingMs: number;
  /** remainingMs / duration, from 1 (just created) to 0 (deadline reached). */
  progress: number;
  gateways: WaitingGateway[];
  selectedGateway: string;
  /** Module picked in the gateway-change view, while its link is being made. */
  pendingGateway: string | null;
  /** Last known order status: Active, Cancelled, Fraud or Pending. */
  status: OrderStatus;
  /** How the status is shown: success (green), muted (grey), warning (amber). */
  statusTone: StatusTone;
  /** Pause before the next status poll; doubles after each failed poll. */
  pollDelayMs: number;
  /** Server message (or message key) of the last failed cancel or gateway change. */
  error: string | null;
  /** The latest payment link's state from the last status answer (null before the first). */
  payment: WaitingPaymentStatus | null;
  /** A payment arrived after the link expired or the order closed (a payment exception). */
  latePayment: boolean;
  /** What was bought and the amount, from the last status answer (null before the first). */
  receipt: WaitingReceipt | null;
}

/** What the shopper does on the waiting page. */
export type WaitingEvent =
  | { type: 'payment.renew' }
  | { type: 'gateway.change' }
  | { type: 'gateway.select'; gateway: string }
  | { type: 'gateway.dismiss' }
  | { type: 'order.cancel' }
  | { type: 'cancel.confirm' }
  | { type: 'cancel.keep' };

/** The order status read (getOrderStatus), the payment reduced to its state and the receipt with its amount. */
export type OrderStatusResult = Pick<OrderStatusResponse, 'orderid' | 'status' | 'fraud' | 'serviceids' | 'latePayment'> & {
  payment: WaitingPaymentStatus | null;
  receipt: WaitingReceipt;
};

/** An upsell has an invoice but no order id: the app reads the status by whichever it has. */
export interface FetchOrderStatusInput {
  orderid: number | null;
  invoiceid: number | null;
}

/** cancelOrder's body. */
export interface CancelOrderInput {
  orderid: number | null;
}

/** cancelOrder's answer. */
export type CancelOrderOutput = OrderStatusChange;

/** The invoice to pay and the gateway to pay it on (offshore or coinbase by gateway type; null when the list does not know it). */
export interface CreatePaymentLinkInput {
  invoiceid: number | null;
  gateway: Pick<WaitingGateway, 'module'> & { type: WaitingGateway['type'] | null };
}

/** The new payment link. */
export type CreatePaymentLinkOutput = Pick<GatewayPaymentResponse, 'link'>;

/** Milliseconds left and the progress fraction for a clock reading. */
export function countdownAt(now: number, lastDate: number, duration: number): { remainingMs: number; progress: number } {
  const remainingMs = Math.max(0, lastDate - now);
  const progress = duration > 0 ? Math.min(1, remainingMs / duration) : 0;
  return { remainingMs, progress };
}

/** The next poll delay after a failed poll: doubled, at most ORDER_POLL_MAX_BACKOFF_MS. */
export function backedOffDelay(delayMs: number): number {
  return Math.min(delayMs * 2, ORDER_POLL_MAX_BACKOFF_MS);
}

/** The gateway picked in the gateway-change view, as the gateway list describes it. */
export function pendingGatewayOf(context: WaitingContext): CreatePaymentLinkInput['gateway'] {
  const module = context.pendingGateway ?? context.selectedGateway;
  return { module, type: context.gateways.find((gateway) => gateway.module === module)?.type ?? null };
}

/** The context the waiting step opens with: the order still Pending (or as its first answer said), polled at the normal interval. */
export function initialWaitingContext(input: WaitingInput): WaitingContext {
  const known = input.status ?? null;
  return {
    order: input.order,
    paymentLink: input.paymentLink,
    lastDate: input.lastDate,
    duration: input.duration,
    now: input.now,
    ...countdownAt(input.now, input.lastDate, input.duration),
    gateways: input.gateways,
    selectedGateway: input.selectedGateway,
    pendingGateway: null,
    status: known?.status ?? 'Pending',
    statusTone: statusTone(known?.status ?? 'Pending'),
    pollDelayMs: ORDER_POLL_INTERVAL_MS,
    error: null,
    payment: known?.payment ?? null,
    latePayment: known?.latePayment ?? false,
    receipt: known?.receipt ?? null,
  };
}
