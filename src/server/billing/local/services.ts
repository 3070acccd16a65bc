import { and, asc, eq } from 'drizzle-orm';
import { services } from '../../db/schema';
import type { BillingPort, ServiceRecord } from '../port';
import { dueDateAtActivation, newCredentials, readService, type LocalBillingContext } from './context';

type ServiceCalls = Pick<BillingPort, 'service' | 'activeServices' | 'updateService' | 'provisionService'>;

/** Services with their credentials (sealed at rest, opened for their owner), device address and status. */
export function localServices(context: LocalBillingContext): ServiceCalls {
  const { db } = context;
  return {
    service: (id) => readService(context, db, id),

    async activeServices(clientId) {
      const rows = await db.select({ id: services.id }).from(services)
        .where(and(eq(services.clientId, clientId), eq(services.status, 'Active'))).orderBy(asc(services.id));
      const found = await Promise.all(rows.map((row) => readService(context, db, row.id)));
      return found.filter((service): service is ServiceRecord => service !== null);
    },

    async updateService(id, patch) {
      await db.update(services).set(patch).where(eq(services.id, id));
      return readService(context, db, id);
    },

    async provisionService(id) {
      await db.transaction(async (tx) => {
        const [row] = await tx.select().from(services).where(eq(services.id, id));
        if (!row || row.username) return;
        await tx.update(services).set({ status: 'Active', nextDueDate: dueDateAtActivation(context, row), ...newCredentials(context) }).where(eq(services.id, id));
      });
      return readService(context, db, id);
    },
  };
}
