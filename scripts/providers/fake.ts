/**
 * `npm run providers:fake`: the Coinbase Business and hostedlink processor fakes on this machine, so a
 * newcomer can try GATEWAYS=coinbase-hostedlink offline. Prints the environment to start the checkout with.
 * CHECKOUT_URL (default http://localhost:3000) is where webhooks go; COINBASE_FAKE_PORT and HOSTEDLINK_FAKE_PORT
 * (default 4010, 4020) where the fakes listen.
 */
import { startProviderFakes } from '../../tests/support/providers';

const checkoutUrl = process.env.CHECKOUT_URL ?? 'http://localhost:3000';
const fakes = await startProviderFakes({
  checkoutUrl,
  coinbasePort: Number(process.env.COINBASE_FAKE_PORT ?? 4010),
  hostedlinkPort: Number(process.env.HOSTEDLINK_FAKE_PORT ?? 4020),
});
const quote = (value: string) => (/^[\w./:@-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`);
const env = Object.entries({ ...fakes.env, PUBLIC_URL: checkoutUrl }).map(([name, value]) => `${name}=${quote(value)}`).join(' ');
console.log(`Coinbase Business fake: ${fakes.coinbase.apiUrl} (hosted pages under /pay/)`);
console.log(`hostedlink processor fake: ${fakes.hostedlink.payUrl}`);
console.log(`Webhooks go to ${checkoutUrl}/checkout/api/webhooks/coinbase and …/hostedlink.\n`);
console.log('Start the checkout in another terminal with:\n');
console.log(`${env} npm start\n`);
console.log('Ctrl-C stops the fakes (their keys and secrets are new at every start).');

const stop = () => {
  void fakes.stop().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
