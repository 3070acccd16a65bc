/**
 * `npm run build:store-template` (a step of build:server): the embedded store's template for the current
 * migrations (src/server/db/store-template.ts), made by the store's own open on an empty directory:
 * PGlite's initdb, then the migrations. Nothing when the template for these migrations exists.
 */
import { openStore } from '../src/server/db/connect';
import { makeStoreTemplate } from '../src/server/db/store-template';

const startedAt = performance.now();
const { dir, made } = await makeStoreTemplate(async (dataDir) => {
  const store = await openStore({ engine: 'pglite', dataDir, templates: null });
  await store.close();
});
if (made) console.log(`store template made in ${dir} (${Math.round(performance.now() - startedAt)} ms)`);
