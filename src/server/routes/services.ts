import type { FastifyReply, FastifyRequest } from 'fastify';
import { EXTRA_CONNECTION_OPTION_ID } from '../../domain/constants';
import { normaliseMacAddress } from '../../domain/device';
import { m3uPlaylist, packCredits, playlistUrl as panelPlaylistUrl } from '../../domain/panel';
import { isRenewable, type ServiceRecord, type ServiceStatus } from '../billing/port';
import { serviceProration } from '../billing/proration';
import { conflict, forbidden, notFound, unauthenticated } from '../http-error';
import { reachesClient, requireLogin, requireSession, type Session } from '../session';
import { completePricing } from './catalogue';
import type { Locale } from '../../domain/locale';
import { translatedProduct } from '../merchant';
import type { Handlers, RouteDeps } from './types';

/** The custom field holding a service's device (MAC) address. */
const DEVICE_ADDRESS_FIELD_ID = 13;

/** A playlist address in the panel's M3U convention. */
export function playlistUrl(service: Pick<ServiceRecord, 'serverHostname' | 'username' | 'password'>): string | null {
  if (!service.username || !service.password || !service.serverHostname) return null;
  return panelPlaylistUrl({ host: service.serverHostname, username: service.username, password: service.password });
}

/** GET /checkout/api/playlist: the M3U file, answered by hand since its body is not JSON. */
type PlaylistHandler = (request: FastifyRequest<{ Querystring: { serviceid: string } }>, reply: FastifyReply) => Promise<FastifyReply>;

/** Services: credentials, device address, notes and provisioning actions, each for its owner only. */
export function serviceRoutes({ billing, config, shop, clock }: RouteDeps): Handlers<
  'getClientProducts' | 'getRenewal' | 'getResellerProducts' | 'getActiveProducts' | 'updateClientProduct' | 'moduleTerminate' | 'moduleCreate' | 'restartService' | 'updateMacAddress'
> & { getPlaylist: PlaylistHandler } {
  /** The service, if it belongs to the session: all of a login's services, or a guest's orders placed in this browser. */
  const ownedService = async (session: Session, serviceId: number) => {
    const service = await billing.service(serviceId);
    if (!service) throw notFound('This service does not exist.');
    const owns = service.clientId === session.clientId && (session.reach === 'client' || session.orders.includes(service.orderId));
    if (!owns) throw forbidden();
    return service;
  };

  /**
   * The service, for a signed-in client only (password or mailed link), as addInvoice asks: a guest session (an
   * e-mail alone) or a sign-up whose address is not proved yet is 401, another client's service 403.
   */
  const provenOwnersService = async (request: FastifyRequest, serviceId: number) => {
    const session = await requireLogin(request);
    const service = await ownedService(session, serviceId);
    if (!reachesClient(session)) throw unauthenticated('Sign in to continue.');
    return service;
  };

  const action = async (request: FastifyRequest, serviceId: number, run: (service: ServiceRecord) => Promise<ServiceRecord | null>) => {
    const service = await run(await provenOwnersService(request, serviceId));
    if (!service) throw notFound('This service does not exist.');
    return { serviceid: service.id, status: service.status, result: 'success' as const };
  };

  /** A service's plan as the catalogue file names it in the shopper's locale (else the name it was bought under). */
  const planName = (service: Pick<ServiceRecord, 'pid' | 'productName'>, locale: Locale | undefined) =>
    translatedProduct({ pid: service.pid, name: service.productName }, locale, shop.translations).name;

  const requireStatus = (service: ServiceRecord, allowed: ServiceStatus[], message: string) => {
    if (!allowed.includes(service.status)) throw conflict('service_state', message);
  };

  return {
    async getClientProducts(request) {
      const service = await ownedService(await requireSession(request), Number(request.query.serviceid));
      const active = service.status === 'Active';
      const name = planName(service, request.query.locale);
      return {
        serviceid: service.id, orderid: service.orderId, pid: service.pid, name, status: service.status,
        billingcycle: service.billingcycle as 'Monthly', nextduedate: service.nextDueDate,
        username: active ? service.username : null,
        password: active ? service.password : null,
        serverhostname: service.serverHostname,
        playlistUrl: active ? playlistUrl(service) : null,
        macAddress: { id: DEVICE_ADDRESS_FIELD_ID, value: service.macAddress },
        extraConnect: { id: EXTRA_CONNECTION_OPTION_ID, value: service.extraConnections },
        reseller: service.productGroup === 'reseller' ? { name, status: service.status } : null,
      };
    },

    async getRenewal(request) {
      const service = await ownedService(await requireSession(request), Number(request.query.serviceid));
      const renewal = await billing.renewal(service.id, clock.now());
      if (!renewal) throw notFound('This service does not exist.');
      const { invoice } = renewal;
      return {
        serviceid: service.id, name: planName(service, request.query.locale), billingcycle: service.billingcycle as 'Monthly', status: renewal.service.status,
        nextduedate: renewal.service.nextDueDate,
        renewable: isRenewable(renewal.service),
        invoice: invoice ? {
          invoiceid: invoice.invoiceId, status: invoice.status, amount: invoice.amountCents / 100, currency: invoice.currency,
          periodStart: invoice.periodStart, periodEnd: invoice.periodEnd,
        } : null,
        invoiceDate: invoice ? null : renewal.invoiceDate,
      };
    },

    async getPlaylist(request, reply) {
      const service = await ownedService(await requireSession(request), Number(request.query.serviceid));
      const { serverHostname: host, username, password } = service;
      if (service.status !== 'Active' || !username || !password || !host) {
        throw conflict('service_state', 'The playlist is ready once the service is active.');
      }
      return reply
        .header('content-type', 'audio/x-mpegurl; charset=utf-8')
        .header('content-disposition', `attachment; filename="tv-checkout-${service.id}.m3u"`)
        .header('cache-control', 'no-store')
        .send(m3uPlaylist({ host, username, password }, service.productName));
    },

    async getResellerProducts(request) {
      const session = await requireLogin(request);
      const service = await ownedService(session, Number(request.query.serviceid));
      if (service.productGroup !== 'reseller') throw notFound('This is not a reseller service.');
      const active = (await billing.activeServices(session.clientId))
        .filter((candidate) => candidate.productGroup === 'reseller' && (session.reach === 'client' || session.orders.includes(candidate.orderId)))
        .sort((a, b) => a.id - b.id);
      // The panel account is the activation's service, else the first reseller service (later packs add credits to it).
      const account = active.find((candidate) => candidate.pid === config.resellerActivationPid) ?? active[0] ?? service;
      const provisioned = account.status === 'Active';
      const name = planName(service, request.query.locale);
      return {
        serviceid: service.id, pid: service.pid, name, status: service.status,
        reseller: { name, status: service.status },
        panel: {
          url: config.resellerPanelUrl,
          username: provisioned ? account.username : null,
          password: provisioned ? account.password : null,
          credits: active.reduce((sum, pack) => sum + packCredits(pack.productName), 0),
        },
      };
    },

    async getActiveProducts(request) {
      const session = await requireLogin(request);
      const services = (await billing.activeServices(session.clientId))
        .filter((service) => service.productGroup === 'retail' && (session.reach === 'client' || session.orders.includes(service.orderId)));
      const now = clock.now();
      const products = await Promise.all(services.map(async (service) => {
        const product = await billing.product(service.pid);
        const option = product?.configoptions.find((candidate) => candidate.id === EXTRA_CONNECTION_OPTION_ID);
        return option ? {
          serviceid: service.id, pid: service.pid, name: planName(service, request.query.locale), billingcycle: service.billingcycle as 'Monthly',
          nextduedate: service.nextDueDate, proration: await serviceProration(billing, service, now),
          extraConnections: service.extraConnections, pricing: completePricing(option.pricing),
        } : null;
      }));
      const offered = products.filter((product) => product !== null);
      return { totalresults: offered.length, products: offered };
    },

    async updateClientProduct(request) {
      const service = await provenOwnersService(request, request.body.serviceid);
      await billing.updateService(service.id, { notes: request.body.notes });
      return { serviceid: service.id, result: 'success' as const };
    },

    moduleTerminate: async (request) => action(request, request.body.serviceid, async (service) => {
      requireStatus(service, ['Active', 'Suspended'], 'Only an active or suspended service can be terminated.');
      return billing.updateService(service.id, { status: 'Terminated' });
    }),

    moduleCreate: async (request) => action(request, request.body.serviceid, async (service) => {
      if (service.username) throw conflict('already_provisioned', 'This service is already set up.');
      const order = await billing.order(service.orderId);
      if (order?.invoiceStatus !== 'Paid') throw conflict('not_paid', 'This service is set up once its invoice is paid.');
      return billing.provisionService(service.id);
    }),

    restartService: async (request) => action(request, request.body.serviceid, async (service) => {
      requireStatus(service, ['Active'], 'Only an active service can be restarted.');
      // A billing system with a provisioning module restarts it there (WHMCS ModuleCustom restart); the local store has nothing to restart.
      await billing.restartService?.(service.id);
      return service;
    }),

    async updateMacAddress(request) {
      const session = await requireSession(request);
      const service = await ownedService(session, request.body.serviceid);
      if (session.kind !== 'login' && service.status !== 'Active') throw forbidden();
      const updated = await billing.updateService(service.id, { macAddress: normaliseMacAddress(request.body.macAddress) });
      if (!updated) throw notFound('This service does not exist.');
      return { serviceid: updated.id, macAddress: { id: DEVICE_ADDRESS_FIELD_ID, value: updated.macAddress }, result: 'success' as const };
    },
  };
}
