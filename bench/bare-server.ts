import Fastify from 'fastify';

/**
 * The ceiling: Fastify with no logger, no auth and no database, parsing a JSON body and answering
 * a small JSON one. Listens on the port given as argv[2].
 */
const app = Fastify({ logger: false });
app.post('/', async (request) => ({ ok: typeof request.body === 'object' }));
app.get('/health', async () => ({ ok: true }));
await app.listen({ port: Number(process.argv[2] ?? 0), host: '127.0.0.1' });
const stop = () => void app.close().then(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
