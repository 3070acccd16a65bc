import { eq } from 'drizzle-orm';
import { invoices } from '../../db/schema';
import type { InvoiceStatus } from '../port';
import { collection, text, toCentsExact, toId, whmcsDay, WhmcsRefusal, type WhmcsAnswer } from './client';
import type { WhmcsBillingContext } from './context';

const INVOICE_STATUSES: InvoiceStatus[] = ['Unpaid', 'Paid', 'Cancelled', 'Refunded'];

/** An invoice as WHMCS's GetInvoice gives it, with the transaction ids of the payments WHMCS recorded on it. */
export interface WhmcsInvoice {
  id: number; clientId: number; status: InvoiceStatus; totalCents: number; transids: string[];
  /** What is left to pay (the total less the payments recorded), and the day it is due (YYYY-MM-DD). */
  balanceCents: number; dueDate: string | null;
  /** What it bills: a service's period is an item of type Hosting whose relid is the service id. */
  items: { type: string; relid: number | null }[];
}

/** Invoices read from WHMCS; the mirror row is refreshed with what was read. */
export function whmcsInvoices(context: WhmcsBillingContext) {
  const { whmcs, db } = context;

  const getInvoice = async (id: number): Promise<WhmcsInvoice | null> => {
    let answer: WhmcsAnswer;
    try {
      answer = await whmcs.read('GetInvoice', { invoiceid: id });
    } catch (error) {
      if (error instanceof WhmcsRefusal && /not found/i.test(error.whmcsMessage)) return null;
      throw error;
    }
    const status = text(answer.status);
    const totalCents = toCentsExact(answer.total);
    if (totalCents === null) throw new WhmcsRefusal('GetInvoice', 'no usable total in the answer');
    return {
      id, clientId: toId(answer.userid) ?? 0, totalCents, balanceCents: toCentsExact(answer.balance) ?? totalCents, dueDate: whmcsDay(answer.duedate),
      items: collection(answer, 'items', 'item').map((item) => ({ type: text(item.type), relid: toId(item.relid) })),
      // WHMCS has more statuses (Draft, Overdue, Collections…): what is not paid, cancelled or refunded is still to be paid.
      status: (INVOICE_STATUSES as string[]).includes(status) ? status as InvoiceStatus : status === 'Overdue' || status === 'Draft' ? 'Unpaid' : 'Cancelled',
      transids: collection(answer, 'transactions', 'transaction').map((row) => text(row.transid)),
    };
  };

  /** The mirror row takes WHMCS's status, except a payment the checkout recorded and has not yet applied in WHMCS (it stays Paid). */
  const syncInvoice = async (id: number) => {
    const [mirror] = await db.select().from(invoices).where(eq(invoices.id, id));
    if (!mirror) return null;
    const found = await getInvoice(id);
    if (!found) return mirror;
    const status = mirror.status === 'Paid' && found.status === 'Unpaid' ? 'Paid' : found.status;
    if (status !== mirror.status) await db.update(invoices).set({ status }).where(eq(invoices.id, id));
    return { ...mirror, status };
  };

  return { getInvoice, syncInvoice };
}

export type WhmcsInvoices = ReturnType<typeof whmcsInvoices>;
