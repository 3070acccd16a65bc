import type { FastifyReply, FastifyRequest } from 'fastify';
import type { components } from '../../api/schema';
import type { Clock } from '../clock';
import type { ServerConfig } from '../config';
import type { Database } from '../db/connect';
import { flowNames } from '../flow-names';
import { recordTally, tallyBatch } from '../flow-record';

type FlowEventBatch = components['schemas']['FlowEventBatch'];

/** Whether the visitor asked not to be tracked: Global Privacy Control or Do Not Track. */
export const asksNotToBeTracked = (headers: FastifyRequest['headers']): boolean => headers['sec-gpc'] === '1' || headers.dnt === '1';

/** The UTC day of a moment, as the flow tables key it. */
export const utcDay = (moment: Date): string => moment.toISOString().slice(0, 10);

/** POST /flowEvents: 204 whatever was counted, so a visitor's choice cannot be told from the outside. */
export function flowRoutes({ config, clock, db }: { config: ServerConfig; clock: Clock; db: Database }) {
  return {
    async reportFlowEvents(request: FastifyRequest<{ Body: FlowEventBatch }>, reply: FastifyReply): Promise<void> {
      if (config.flowAnalytics.enabled && !asksNotToBeTracked(request.headers)) {
        const batch = request.body;
        const gateway = batch.gateway !== undefined && config.gateways.includes(batch.gateway) ? batch.gateway : '';
        await recordTally(db, tallyBatch(batch, flowNames()), { day: utcDay(clock.now()), locale: batch.locale, gateway });
      }
      await reply.code(204).send();
    },
  };
}
