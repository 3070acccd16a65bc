import type { FastifyReply, FastifyRequest } from 'fastify';
import type { components, operations } from '../../api/schema';
import type { BillingPort } from '../billing/port';
import type { Clock } from '../clock';
import type { ServerConfig } from '../config';
import type { FraudPort } from '../fraud/port';
import type { ShopMetrics } from '../ops/metrics';
import type { PaymentGateway } from '../payments/port';
import type { ServerSecrets } from '../secrets';
import type { CatalogueShowcase, CatalogueTranslations } from '../catalogue/load';

/** What every route handler may use. */
export interface RouteDeps {
  config: ServerConfig;
  billing: BillingPort;
  gateways: PaymentGateway[];
  fraud: FraudPort;
  secrets: ServerSecrets;
  clock: Clock;
  /** Where the routes count what the operator scrapes. */
  metrics: ShopMetrics;
  /** Who sells, and the catalogue file's names and descriptions per locale. */
  shop: { merchant: components['schemas']['Merchant']; translations: CatalogueTranslations; showcase: CatalogueShowcase };
  storeEngine: 'pglite' | 'postgres';
  /** A trivial query on the store; rejects when it does not answer in time (readiness). */
  pingStore: (timeoutMs?: number) => Promise<void>;
}

export type OperationId = keyof operations;
type JsonOf<T> = T extends { content: { 'application/json': infer Body } } ? Body : never;
type BodyOf<Op extends OperationId> = operations[Op] extends { requestBody: infer Request } ? JsonOf<Request> : never;
type QueryOf<Op extends OperationId> = operations[Op]['parameters'] extends { query?: infer Query } ? NonNullable<Query> : never;
type ParamsOf<Op extends OperationId> = operations[Op]['parameters'] extends { path?: infer Path } ? NonNullable<Path> : never;
type OkOf<Op extends OperationId> = operations[Op]['responses'] extends { 200: infer Ok } ? JsonOf<Ok> : never;

/** A handler typed from the generated contract: its request and its 200 answer. */
export type Handler<Op extends OperationId> = (
  request: FastifyRequest<{ Body: BodyOf<Op>; Querystring: QueryOf<Op>; Params: ParamsOf<Op> }>,
  reply: FastifyReply,
) => Promise<OkOf<Op>>;

export type Handlers<Ops extends OperationId> = { [Op in Ops]: Handler<Op> };
