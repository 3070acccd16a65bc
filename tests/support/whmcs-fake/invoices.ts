/** Invoices and the payments against them (transactions). */
import type { FakeRenewals } from './renewals';
import type { InvoiceRow, WhmcsSeed } from './seed';
import type { FakeStore } from './store';
import { ApiError, money, nowStamp, phpTruthy, toCents, type Actions, type Params } from './values';

/** GetInvoices' `orderby` values (7.7+) and the invoice field each sorts by. */
const byId = (invoice: InvoiceRow) => invoice.id;
const INVOICE_ORDER: Record<string, (invoice: InvoiceRow) => string | number> = {
  id: byId, invoicenumber: byId, date: (invoice) => invoice.date, duedate: (invoice) => invoice.duedate,
  total: (invoice) => invoice.items.reduce((sum, item) => sum + toCents(item.amount), 0), status: (invoice) => invoice.status,
};

export function invoiceActions(store: FakeStore, renewals: Pick<FakeRenewals, 'invoicePaid'>): Actions {
  const { state, today, nextId, currencyById, findClient, findInvoice, lastItemId } = store;
  const invoiceTotals = (invoice: InvoiceRow) => {
    const subtotal = invoice.items.reduce((sum, item) => sum + toCents(item.amount), 0);
    const paid = state.transactions.filter((row) => row.invoiceid === invoice.id).reduce((sum, row) => sum + toCents(row.amountin), 0);
    return { subtotal, total: subtotal, balance: subtotal - paid };
  };
  const invoiceAnswer = (invoice: InvoiceRow) => {
    const totals = invoiceTotals(invoice);
    const transactions = state.transactions.filter((row) => row.invoiceid === invoice.id);
    return {
      invoiceid: invoice.id, invoicenum: '', userid: invoice.userid, date: invoice.date, duedate: invoice.duedate, datepaid: invoice.datepaid,
      lastcaptureattempt: '0000-00-00 00:00:00', subtotal: money(totals.subtotal), credit: '0.00', tax: '0.00', tax2: '0.00',
      total: money(totals.total), balance: money(totals.balance), taxrate: '0.000', taxrate2: '0.000', status: invoice.status,
      paymentmethod: invoice.paymentmethod, notes: invoice.notes, ccgateway: false,
      items: { item: invoice.items.map((item) => ({ ...item })) },
      transactions: transactions.length ? { transaction: transactions.map(transactionAnswer) } : '',
    };
  };
  const transactionAnswer = (row: WhmcsSeed['transactions'][number]) => ({
    id: String(row.id), userid: String(row.userid), currency: String(row.currency), gateway: row.gateway, date: row.date,
    description: row.description, amountin: row.amountin, fees: row.fees, amountout: '0.00', rate: '1.00000', transid: row.transid,
    invoiceid: String(row.invoiceid), refundid: '0',
  });

  /** GetInvoices' filters: the client, and a status (Overdue: Unpaid and past its due date). */
  const listedInvoices = (params: Params) => {
    const status = (params.status ?? '').trim().toLowerCase();
    const sortKey = INVOICE_ORDER[(params.orderby ?? 'id').toLowerCase()] ?? byId;
    const direction = (params.order ?? 'asc').toLowerCase() === 'desc' ? -1 : 1;
    return state.invoices.filter((invoice) => (!params.userid || String(invoice.userid) === params.userid.trim())
      && (!status || (status === 'overdue' ? invoice.status === 'Unpaid' && invoice.duedate < today() : invoice.status.toLowerCase() === status)))
      .sort((a, b) => {
        const [left, right] = [sortKey(a), sortKey(b)];
        return (left < right ? -1 : left > right ? 1 : a.id - b.id) * direction;
      });
  };
  const listedInvoiceAnswer = (invoice: InvoiceRow) => {
    const client = findClient(String(invoice.userid));
    const currency = state.currencies.find((row) => row.code === invoice.currencyCode);
    const { subtotal, total } = invoiceTotals(invoice);
    return {
      id: invoice.id, userid: invoice.userid, firstname: client?.firstname ?? '', lastname: client?.lastname ?? '', companyname: client?.companyname ?? '',
      invoicenum: '', date: invoice.date, duedate: invoice.duedate, datepaid: invoice.datepaid, last_capture_attempt: '0000-00-00 00:00:00',
      date_refunded: '0000-00-00 00:00:00', date_cancelled: '0000-00-00 00:00:00', subtotal: money(subtotal), credit: '0.00', tax: '0.00', tax2: '0.00',
      total: money(total), taxrate: '0.000', taxrate2: '0.000', status: invoice.status, paymentmethod: invoice.paymentmethod, paymethodid: null,
      notes: invoice.notes, created_at: `${invoice.date} 00:00:00`, updated_at: `${invoice.date} 00:00:00`,
      currencycode: invoice.currencyCode, currencyprefix: currency?.prefix ?? '', currencysuffix: currency?.suffix ?? '',
    };
  };

  return {
    getinvoices(params) {
      const matching = listedInvoices(params);
      const start = Number(params.limitstart ?? 0) || 0;
      const page = matching.slice(start, start + (Number(params.limitnum ?? 25) || 25));
      // No `invoices` key when nothing matches, as the other list actions answer an empty list.
      return {
        result: 'success', totalresults: matching.length, startnumber: start, numreturned: page.length,
        ...(page.length ? { invoices: { invoice: page.map(listedInvoiceAnswer) } } : {}),
      };
    },
    getinvoice(params) {
      const invoice = findInvoice(params.invoiceid);
      // The one answer with `status` where every other has `result` (reference §1).
      if (!invoice) return { status: 'error', message: 'Invoice ID Not Found' };
      return { result: 'success', ...invoiceAnswer(invoice) };
    },
    createinvoice(params) {
      const client = findClient(params.userid);
      if (!client) throw new ApiError('Client ID Not Found');
      if (phpTruthy(params.draft) && phpTruthy(params.sendinvoice)) throw new ApiError('Cannot create and send a draft invoice in a single API request. Please create and send separately.');
      const id = nextId(state.invoices);
      let itemId = lastItemId();
      const items: InvoiceRow['items'] = [];
      for (let index = 1; params[`itemdescription${index}`] !== undefined || params[`itemamount${index}`] !== undefined; index += 1) {
        items.push({ id: ++itemId, type: '', relid: 0, description: params[`itemdescription${index}`] ?? '', amount: money(toCents(params[`itemamount${index}`] ?? '0')), taxed: phpTruthy(params[`itemtaxed${index}`]) ? 1 : 0 });
      }
      const status = phpTruthy(params.draft) ? 'Draft' : (['Paid', 'Unpaid', 'Cancelled', 'Refunded', 'Draft'].find((name) => name.toLowerCase() === (params.status ?? 'unpaid').toLowerCase()) ?? 'Unpaid') as InvoiceRow['status'];
      state.invoices.push({
        id, userid: client.id, date: params.date ?? today(), duedate: params.duedate ?? today(), datepaid: '0000-00-00 00:00:00', status,
        paymentmethod: params.paymentmethod ?? state.paymentMethods[0]?.module ?? '', currencyCode: currencyById(client.currency)?.code ?? 'EUR', items, notes: params.notes ?? '',
      });
      return { result: 'success', invoiceid: id, status };
    },
    updateinvoice(params) {
      const invoice = findInvoice(params.invoiceid);
      if (!invoice) throw new ApiError('Invoice ID Not Found');
      // The statuses this fake's invoices take (WHMCS also has Collections and Payment Pending).
      const status = ['Draft', 'Unpaid', 'Paid', 'Cancelled', 'Refunded'].find((name) => name.toLowerCase() === (params.status ?? '').toLowerCase());
      if (params.status !== undefined && !status) throw new ApiError('Invalid Status Provided');
      if (status) invoice.status = status as InvoiceRow['status'];
      if (params.notes !== undefined) invoice.notes = params.notes;
      return { result: 'success', invoiceid: invoice.id };
    },
    addinvoicepayment(params) {
      const invoice = findInvoice(params.invoiceid);
      if (!invoice) throw new ApiError('Invoice ID Not Found');
      if (invoice.status === 'Cancelled') throw new ApiError('It is not possible to add a payment to an invoice that is Cancelled');
      const before = invoiceTotals(invoice).balance;
      const amount = params.amount !== undefined && params.amount !== '' ? toCents(params.amount) : before;
      const client = findClient(String(invoice.userid));
      // No check on transid: the same one twice is two transactions, as in WHMCS.
      state.transactions.push({
        id: nextId(state.transactions), userid: invoice.userid, currency: client?.currency ?? 1, gateway: params.gateway ?? '',
        date: params.date || nowStamp(), description: 'Invoice Payment', amountin: money(amount), fees: money(toCents(params.fees ?? '0')),
        transid: params.transid ?? '', invoiceid: invoice.id,
      });
      if (invoice.status === 'Unpaid' && invoiceTotals(invoice).balance <= 0) {
        invoice.status = 'Paid';
        invoice.datepaid = params.date || nowStamp();
        renewals.invoicePaid(invoice);
      }
      return { result: 'success' };
    },
    gettransactions(params) {
      const rows = state.transactions.filter((row) =>
        (!params.invoiceid || String(row.invoiceid) === params.invoiceid.trim()) && (!params.clientid || String(row.userid) === params.clientid.trim())
        && (!params.transid || row.transid === params.transid));
      return { result: 'success', totalresults: rows.length, startnumber: 0, numreturned: rows.length, ...(rows.length ? { transactions: { transaction: rows.map(transactionAnswer) } } : {}) };
    },
  };
}
