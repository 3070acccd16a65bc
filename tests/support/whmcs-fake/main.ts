/**
 * `npm run whmcs:fake`: the fake WHMCS on WHMCS_FAKE_PORT (default 8090), seeded with the demo catalogue,
 * printing the environment that points the checkout at it. Stops on Ctrl-C.
 */
import { createWhmcsFake } from './server';
import { demoSeed } from './seed';

const port = Number(process.env.WHMCS_FAKE_PORT ?? 8090);
const seed = demoSeed();
const fake = await createWhmcsFake({ port, seed });
const env = [
  'BILLING=whmcs',
  `WHMCS_API_URL=${fake.url}`,
  `WHMCS_API_IDENTIFIER=${fake.identifier}`,
  `WHMCS_API_SECRET=${fake.secret}`,
  `WHMCS_RETAIL_GID=${seed.demo.retailGid}`,
  `WHMCS_RESELLER_GID=${seed.demo.resellerGid}`,
  `WHMCS_RESELLER_CLIENT_GROUP=${seed.demo.resellerClientGroup}`,
];
console.log(`Fake WHMCS listening at ${fake.url} (demo catalogue; accounts demo@tvcheckout.test / demo-password-1, reseller@tvcheckout.test / reseller-password-1).`);
console.log('Start the checkout against it with:\n');
console.log(`${env.join(' ')} npm start\n`);
const stop = () => {
  console.log(`Fake WHMCS stopping after ${fake.calls.length} calls.`);
  void fake.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
