/**
 * The ceiling of the throughput knee: a bare Fastify (no plugins, no logger) answering one static JSON,
 * the body our getProducts gave (CEILING_BODY_FILE), at the same path, on PORT and HOST.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const body = readFileSync(process.env.CEILING_BODY_FILE ?? '', 'utf8');
const app = Fastify({ logger: false });
app.get('/checkout/api/getProducts', (_request, reply) => {
  void reply.type('application/json; charset=utf-8').send(body);
});
app.get('/checkout/api/health', (_request, reply) => {
  void reply.send({ status: 'ok', store: 'none' });
});
await app.listen({ port: Number(process.env.PORT ?? 3000), host: process.env.HOST ?? '127.0.0.1' });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void app.close().then(() => process.exit(0)));
