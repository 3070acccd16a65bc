/** Invoices and the payments against them (transactions). */
import type { InvoiceRow, WhmcsSeed } from './seed';
import type { FakeStore } from './store';
import { ApiError, money, nowStamp, phpTruthy, toCents, type Actions } from './values';

export function invoiceActions(store: FakeStore): Actions {
  const { state, today, nextId, currencyById, findClient, findInvoice } = store;
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

  return {
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
      let itemId = state.invoices.flatMap((invoice) => invoice.items).reduce((max, item) => Math.max(max, item.id), 0);
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
