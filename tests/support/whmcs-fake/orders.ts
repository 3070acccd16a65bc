/** Orders: AddOrder priced from the catalogue with its promotion, then accepted, cancelled or flagged as fraud. */
import { isIP } from 'node:net';
import { decodeSerializedBase64 } from './php-serialize';
import type { FakePromotions } from './promotions';
import { CYCLE_KEYS, type InvoiceRow, type OrderRow, type ServiceRow } from './seed';
import type { FakeServices } from './services';
import type { FakeStore } from './store';
import {
  ApiError, CYCLE_MONTHS, listParam, money, nowStamp, phpTruthy, pricingKeyOf, toCents, WHMCS_CYCLE_NAMES, type Actions, type Params,
} from './values';

export function orderActions(
  store: FakeStore,
  promotions: Pick<FakePromotions, 'promotionByCode' | 'promotionUsable' | 'promotionApplies' | 'promotionDiscount'>,
  services: Pick<FakeServices, 'moduleCreate' | 'applyCustomFields'>,
): Actions {
  const { state, today, nextId, currencyById, findClient, findOrder, findService, productOf, lastItemId, hostingDescription } = store;
  const { promotionByCode, promotionUsable, promotionApplies, promotionDiscount } = promotions;
  const { moduleCreate, applyCustomFields } = services;
  const requireOrder = (params: Params, pendingOnly: boolean): OrderRow => {
    const order = findOrder(params.orderid);
    if (!order || (pendingOnly && order.status !== 'Pending')) throw new ApiError(pendingOnly ? 'Order ID not found or Status not Pending' : 'Order ID Not Found');
    return order;
  };

  return {
    addorder(params) {
      const client = findClient(params.clientid);
      if (!client) throw new ApiError('Client ID Not Found');
      if (client.status === 'Closed') throw new ApiError('Unable to add order when client status is Closed');
      const method = state.paymentMethods.find((row) => row.module === params.paymentmethod);
      if (!method) throw new ApiError(`Invalid Payment Method. Valid options include ${state.paymentMethods.map((row) => row.module).join(',')}`);
      if (params.clientip !== undefined && params.clientip !== '' && isIP(params.clientip) === 0) throw new ApiError('Invalid IP address provided');
      const pids = listParam(params, 'pid');
      const cycles = listParam(params, 'billingcycle');
      const configs = listParam(params, 'configoptions');
      const fields = listParam(params, 'customfields');
      const currency = currencyById(client.currency);
      const code = currency?.code ?? 'EUR';
      const items = pids.flatMap((pidText, index) => {
        const product = productOf(Number(pidText));
        if (!product) return [];
        const prices = product.pricing[code];
        const asked = (cycles[index] ?? '').toLowerCase();
        // A cycle not given, unknown or disabled falls back to the product's first enabled one, as the cart does.
        const enabled = product.paytype === 'onetime' ? ['onetime'] : product.paytype === 'free' ? ['free'] : CYCLE_KEYS.filter((key) => Number(prices?.[key] ?? -1) >= 0);
        const cycle = enabled.includes(asked) ? asked : (enabled[0] ?? 'monthly');
        const key = cycle === 'free' ? null : pricingKeyOf(cycle);
        const priceCents = key ? Math.max(0, toCents(prices?.[key] ?? '0')) : 0;
        const setupCents = key ? toCents(prices?.[`${key[0]}setupfee` as keyof typeof prices] ?? '0') : 0;
        const chosen: ServiceRow['configoptions'] = {};
        let optionsCents = 0;
        const decodedConfig = configs[index] ? decodeSerializedBase64(configs[index]) : null;
        for (const [cid, value] of decodedConfig ?? []) {
          const option = product.configoptionIds.includes(Number(cid)) ? state.configOptions.find((row) => row.id === Number(cid)) : undefined;
          if (!option) continue;
          const raw = value instanceof Map ? Number(value.get('qty') ?? value.get('optionid') ?? 0) : Number(value ?? 0);
          if (option.type === '3' || option.type === '4') {
            const qty = option.type === '3' ? (raw ? 1 : 0) : Math.min(Math.max(raw, option.minqty), option.maxqty || raw);
            const sub = option.options[0];
            chosen[option.id] = { optionid: sub?.id ?? 0, qty };
            if (sub && key) optionsCents += qty * Math.max(0, toCents(sub.pricing[code]?.[key] ?? '0'));
          } else {
            const sub = option.options.find((candidate) => candidate.id === raw);
            if (!sub) continue;
            chosen[option.id] = { optionid: sub.id, qty: 0 };
            if (key) optionsCents += Math.max(0, toCents(sub.pricing[code]?.[key] ?? '0'));
          }
        }
        // PHP's unserialize gives false for a wrong byte count: the values are silently not saved.
        const decodedFields = fields[index] ? decodeSerializedBase64(fields[index]) : null;
        return [{ product, cycleName: WHMCS_CYCLE_NAMES[cycle] ?? 'Monthly', priceCents, setupCents, optionsCents, chosen, decodedFields }];
      });
      if (items.length === 0) throw new ApiError('No items added to cart so order cannot proceed');

      const promotion = params.promocode ? promotionByCode(params.promocode) : undefined;
      const usable = promotion && promotionUsable(promotion, client, items.map((item) => item.product.pid)) ? promotion : undefined;
      let promoApplied = false;
      const orderId = nextId(state.orders);
      const invoiceId = phpTruthy(params.noinvoice) ? 0 : nextId(state.invoices);
      const invoiceItems: InvoiceRow['items'] = [];
      let itemId = lastItemId();
      const serviceIds: number[] = [];
      let totalCents = 0;
      const date = today();
      for (const item of items) {
        const serviceId = nextId(state.services);
        const firstCents = item.priceCents + item.setupCents + item.optionsCents;
        let discountCents = 0;
        if (usable && promotionApplies(usable, item.product.pid, item.cycleName, phpTruthy(params.promooverride)) && !(usable.applyonce && promoApplied)) {
          discountCents = promotionDiscount(usable, item.priceCents + item.optionsCents, item.setupCents, code);
          promoApplied = true;
        }
        const recurring = item.cycleName === 'One Time' || item.cycleName === 'Free Account' ? 0 : item.priceCents + item.optionsCents;
        const service: ServiceRow = {
          id: serviceId, clientid: client.id, orderid: orderId, pid: item.product.pid, regdate: date, domain: '', serverhostname: '', serverip: '',
          firstpaymentamount: money(firstCents - discountCents), recurringamount: money(recurring - (usable?.recurring ? discountCents : 0)),
          billingcycle: item.cycleName, nextduedate: CYCLE_MONTHS[item.cycleName] ? date : '0000-00-00',
          paymentmethod: method.module, status: 'Pending', suspensionreason: '', username: '', password: '', notes: '', promoid: discountCents ? (usable?.id ?? 0) : 0,
          customfields: {}, configoptions: item.chosen,
        };
        if (item.decodedFields) applyCustomFields(service, item.decodedFields);
        state.services.push(service);
        serviceIds.push(serviceId);
        totalCents += firstCents - discountCents;
        invoiceItems.push({ id: ++itemId, type: 'Hosting', relid: serviceId, description: hostingDescription(item.product.pid, date, item.cycleName), amount: money(firstCents), taxed: 0 });
        if (discountCents) invoiceItems.push({ id: ++itemId, type: 'PromoHosting', relid: serviceId, description: `Promotional Code: ${usable?.code} - ${usable?.type === 'Percentage' ? `${Number(usable.value)}%` : `${usable?.value} ${usable?.type}`}`, amount: money(-discountCents), taxed: 0 });
      }
      if (promoApplied && usable) usable.uses += 1;
      state.orders.push({
        id: orderId, ordernum: 1000000000 + orderId * 7919, userid: client.id, date: nowStamp(), status: 'Pending',
        promocode: promoApplied ? (usable?.code ?? '') : '', promotype: promoApplied ? (usable?.type ?? '') : '', promovalue: promoApplied ? (usable?.value ?? '') : '',
        amount: money(totalCents), paymentmethod: method.module, invoiceid: invoiceId, ipaddress: params.clientip ?? '', affid: Number(params.affid ?? 0) || 0, serviceIds,
      });
      if (invoiceId) {
        state.invoices.push({
          id: invoiceId, userid: client.id, date, duedate: date, datepaid: totalCents === 0 ? nowStamp() : '0000-00-00 00:00:00',
          status: totalCents === 0 ? 'Paid' : 'Unpaid', paymentmethod: method.module, currencyCode: code, items: invoiceItems, notes: '',
        });
      }
      const ids = serviceIds.join(',');
      return { result: 'success', orderid: String(orderId), serviceids: ids, productids: ids, addonids: '', domainids: '', ...(invoiceId ? { invoiceid: invoiceId } : {}) };
    },
    acceptorder(params) {
      const order = requireOrder(params, true);
      const services = state.services.filter((service) => service.orderid === order.id);
      if (params.serviceusername) for (const service of services) service.username = params.serviceusername;
      if (params.servicepassword) for (const service of services) service.password = params.servicepassword;
      if (phpTruthy(params.autosetup)) {
        const errors: string[] = [];
        for (const service of services) {
          try {
            moduleCreate(service);
          } catch (error) {
            errors.push((error as Error).message);
          }
        }
        // A failed module create leaves the order Pending, so AcceptOrder can be retried.
        if (errors.length) throw new ApiError(errors.join(', '));
      }
      order.status = 'Active';
      return { result: 'success' };
    },
    cancelorder(params) {
      const order = requireOrder(params, true);
      order.status = 'Cancelled';
      for (const service of state.services) if (service.orderid === order.id) service.status = 'Cancelled';
      const invoice = state.invoices.find((row) => row.id === order.invoiceid);
      if (invoice?.status === 'Unpaid') invoice.status = 'Cancelled';
      return { result: 'success' };
    },
    fraudorder(params) {
      const order = requireOrder(params, false);
      order.status = 'Fraud';
      for (const service of state.services) if (service.orderid === order.id) service.status = 'Fraud';
      const invoice = state.invoices.find((row) => row.id === order.invoiceid);
      if (invoice?.status === 'Unpaid') invoice.status = 'Cancelled';
      return { result: 'success' };
    },
    getorders(params) {
      const matching = state.orders.filter((order) =>
        (!params.id || String(order.id) === params.id.trim()) && (!params.userid || String(order.userid) === params.userid.trim())
        && (!params.status || order.status.toLowerCase() === params.status.toLowerCase()))
        .sort((a, b) => b.id - a.id);
      const start = Number(params.limitstart ?? 0) || 0;
      const page = matching.slice(start, start + (Number(params.limitnum ?? 25) || 25));
      return {
        result: 'success', totalresults: matching.length, startnumber: start, numreturned: page.length,
        ...(page.length ? {
          orders: {
            order: page.map((order) => {
              const method = state.paymentMethods.find((row) => row.module === order.paymentmethod);
              const invoice = state.invoices.find((row) => row.id === order.invoiceid);
              const client = findClient(String(order.userid));
              const currency = currencyById(client?.currency ?? 0);
              return {
                id: order.id, ordernum: order.ordernum, userid: order.userid, contactid: 0, requestor_id: client?.ownerUserId ?? 0, admin_requestor_id: 0,
                date: order.date, nameservers: '', transfersecret: '', renewals: '', promocode: order.promocode, promotype: order.promotype,
                promovalue: order.promovalue, orderdata: '[]', amount: order.amount, paymentmethod: order.paymentmethod, invoiceid: order.invoiceid,
                status: order.status, ipaddress: order.ipaddress, fraudmodule: '', fraudoutput: '', notes: '', paymentmethodname: method?.displayname ?? '',
                paymentstatus: invoice?.status ?? '', name: `${client?.firstname ?? ''} ${client?.lastname ?? ''}`.trim(),
                currencyprefix: currency?.prefix ?? '', currencysuffix: currency?.suffix ?? '', frauddata: '', validationdata: '',
                lineitems: {
                  lineitem: order.serviceIds.map((serviceId) => {
                    const service = findService(String(serviceId));
                    return { type: 'product', relid: serviceId, producttype: 'Other', product: productOf(service?.pid ?? 0)?.name ?? '', domain: '', billingcycle: service?.billingcycle ?? '', amount: service?.firstpaymentamount ?? '0.00', status: service?.status ?? '' };
                  }),
                },
              };
            }),
          },
        } : {}),
      };
    },
  };
}
