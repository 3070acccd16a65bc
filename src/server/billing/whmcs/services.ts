import { eq } from 'drizzle-orm';
import { EXTRA_CONNECTION_OPTION_ID } from '../../../domain/constants';
import { clients, orders, products, services } from '../../db/schema';
import type { BillingPort, ServiceRecord, ServiceStatus } from '../port';
import type { WhmcsCatalogue } from './catalogue';
import { collection, text, toId, whmcsDay } from './client';
import { PASSWORD_FIELD, USERNAME_FIELD, type WhmcsBillingContext } from './context';
import { phpSerializeBase64 } from './php-serialize';

type ServiceCalls = Pick<BillingPort, 'service' | 'activeServices' | 'updateService' | 'provisionService' | 'restartService'>;

/** WHMCS's custom field name of the device address. */
const MAC_FIELD = /mac/i;
/** The contract's id of the device-address field (routes/services.ts), used when WHMCS names none. */
const DEFAULT_MAC_FIELD_ID = 13;
const SERVICE_STATUSES: ServiceStatus[] = ['Pending', 'Active', 'Suspended', 'Terminated', 'Cancelled', 'Fraud'];

/** A service as WHMCS's GetClientsProducts gives it. */
export interface WhmcsService {
  id: number; clientId: number; orderId: number; pid: number; name: string; billingcycle: string; status: ServiceStatus; username: string | null;
  password: string | null; serverHostname: string; macAddress: string; macFieldId: number; extraConnections: number; notes: string;
  /** WHMCS's nextduedate; null for One Time or Free Account (WHMCS writes 0000-00-00 there). */
  nextDueDate: string | null;
}

/** Services are WHMCS's (GetClientsProducts, the module commands); the mirror keeps a row per service the checkout uses. */
export function whmcsServices(context: WhmcsBillingContext, catalogue: Pick<WhmcsCatalogue, 'product' | 'mirrorProducts'>) {
  const { whmcs, db, config } = context;
  const { product, mirrorProducts } = catalogue;

  const toService = (raw: Record<string, unknown>): WhmcsService | null => {
    const id = toId(raw.id);
    if (id === null) return null;
    const fields = collection(raw, 'customfields', 'customfield');
    const field = (pattern: RegExp) => fields.find((candidate) => pattern.test(text(candidate.name).trim()));
    const options = collection(raw, 'configoptions', 'configoption');
    const extra = options.find((option) => toId(option.id) === EXTRA_CONNECTION_OPTION_ID);
    const status = text(raw.status);
    const username = text(field(USERNAME_FIELD)?.value) || text(raw.username);
    const password = text(field(PASSWORD_FIELD)?.value) || text(raw.password);
    return {
      id, clientId: toId(raw.clientid) ?? 0, orderId: toId(raw.orderid) ?? 0, pid: toId(raw.pid) ?? 0, name: text(raw.name),
      billingcycle: text(raw.billingcycle) || 'Monthly',
      status: (SERVICE_STATUSES as string[]).includes(status) ? status as ServiceStatus : status === 'Completed' ? 'Terminated' : 'Pending',
      username: username || null, password: password || null,
      serverHostname: text(raw.serverhostname) || config.serverHostname,
      macAddress: text(field(MAC_FIELD)?.value), macFieldId: toId(field(MAC_FIELD)?.id) ?? DEFAULT_MAC_FIELD_ID,
      extraConnections: toId(extra?.value) ?? 0, notes: text(raw.notes),
      nextDueDate: whmcsDay(raw.nextduedate),
    };
  };

  const getService = async (id: number): Promise<WhmcsService | null> => {
    const answer = await whmcs.read('GetClientsProducts', { serviceid: id, limitnum: 1 });
    const raw = collection(answer, 'products', 'product').find((candidate) => toId(candidate.id) === id);
    return raw ? toService(raw) : null;
  };

  const serviceRecord = async (service: WhmcsService): Promise<ServiceRecord> => {
    const catalogued = await product(service.pid);
    const [mirrored] = catalogued ? [] : await db.select({ group: products.group }).from(products).where(eq(products.pid, service.pid));
    return {
      id: service.id, clientId: service.clientId, orderId: service.orderId, pid: service.pid, productName: service.name || catalogued?.name || `#${service.pid}`,
      productGroup: catalogued?.group ?? mirrored?.group ?? 'retail', billingcycle: service.billingcycle, status: service.status,
      // Our credentials sit in the custom fields from AddOrder on; a service is set up (has them) once it is no longer Pending.
      username: service.status === 'Pending' ? null : service.username, password: service.status === 'Pending' ? null : service.password,
      serverHostname: service.serverHostname, macAddress: service.macAddress,
      extraConnections: service.extraConnections, notes: service.notes, nextDueDate: service.nextDueDate,
    };
  };

  /** A mirror row for a service the checkout did not create (an upsell or a renewal invoice points at it). */
  const mirrorService = async (service: Pick<WhmcsService, 'id' | 'clientId' | 'orderId' | 'pid' | 'billingcycle' | 'status' | 'serverHostname'>) => {
    await db.insert(clients).values({ id: service.clientId, email: `whmcs-client-${service.clientId}@invalid` }).onConflictDoNothing();
    await mirrorProducts(db, [service.pid]);
    const [mirroredProduct] = await db.select({ group: products.group }).from(products).where(eq(products.pid, service.pid));
    if (!mirroredProduct) return false;
    // An order placed outside the checkout: a mirror row so the service's row can point at it (it has no invoice here, so order() does not serve it).
    await db.insert(orders).values({
      id: service.orderId, clientId: service.clientId, kind: mirroredProduct.group, status: 'Active', ip: '', country: '', currency: 'EUR', amountCents: 0,
    }).onConflictDoNothing();
    await db.insert(services).values({
      id: service.id, clientId: service.clientId, orderId: service.orderId, pid: service.pid, billingcycle: service.billingcycle, status: service.status,
      serverHostname: service.serverHostname,
    }).onConflictDoNothing();
    return true;
  };

  const calls: ServiceCalls = {
    async service(id) {
      const found = await getService(id);
      return found ? serviceRecord(found) : null;
    },

    async activeServices(clientId) {
      const answer = await whmcs.read('GetClientsProducts', { clientid: clientId, limitstart: 0, limitnum: 250 });
      const found = collection(answer, 'products', 'product').map(toService)
        .filter((service): service is WhmcsService => service !== null && service.status === 'Active' && service.clientId === clientId)
        .sort((a, b) => a.id - b.id);
      return Promise.all(found.map(serviceRecord));
    },

    async updateService(id, patch) {
      const found = await getService(id);
      if (!found) return null;
      if (patch.status === 'Terminated') await whmcs.write('ModuleTerminate', { serviceid: id });
      else if (patch.status && patch.status !== found.status) await whmcs.write('UpdateClientProduct', { serviceid: id, status: patch.status });
      if (patch.macAddress !== undefined) {
        await whmcs.write('UpdateClientProduct', { serviceid: id, customfields: phpSerializeBase64({ [found.macFieldId]: patch.macAddress }) });
      }
      if (patch.notes !== undefined) await whmcs.write('UpdateClientProduct', { serviceid: id, notes: patch.notes });
      if (patch.status) await db.update(services).set({ status: patch.status }).where(eq(services.id, id));
      const updated = await getService(id);
      return updated ? serviceRecord(updated) : null;
    },

    async provisionService(id) {
      const found = await getService(id);
      if (!found) return null;
      if (!found.username || found.status !== 'Active') await whmcs.write('ModuleCreate', { serviceid: id });
      const updated = await getService(id);
      if (updated) await db.update(services).set({ status: updated.status }).where(eq(services.id, id));
      return updated ? serviceRecord(updated) : null;
    },

    async restartService(id) {
      await whmcs.write('ModuleCustom', { serviceid: id, func_name: 'restart' });
    },
  };

  return { calls, getService, mirrorService };
}

export type WhmcsServices = ReturnType<typeof whmcsServices>;
