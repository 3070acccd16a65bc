import { randomBytes } from 'node:crypto';
import { CoinbaseFake } from './coinbase-fake';
import { HostedlinkFake } from './hostedlink-fake';
import { cdpTestKey } from './keys';

export interface ProviderFakes {
  coinbase: CoinbaseFake;
  hostedlink: HostedlinkFake;
  /** What the checkout is started with to use them (GATEWAYS=coinbase-hostedlink and each gateway's variables). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * Both provider fakes, wired to a checkout at `checkoutUrl` (its PUBLIC_URL): a fresh CDP key (Ed25519),
 * fresh webhook secrets, webhooks and callbacks sent to the checkout's webhook route.
 */
export async function startProviderFakes({ checkoutUrl, coinbasePort = 0, hostedlinkPort = 0, host = '127.0.0.1' }: { checkoutUrl: string; coinbasePort?: number; hostedlinkPort?: number; host?: string }): Promise<ProviderFakes> {
  const key = cdpTestKey('ed25519', `organizations/fake-org/apiKeys/${randomBytes(4).toString('hex')}`);
  const webhookSecret = randomBytes(24).toString('base64url');
  const hostedlinkSecret = randomBytes(24).toString('base64url');
  const origin = checkoutUrl.replace(/\/$/, '');
  const coinbase = await new CoinbaseFake({
    keyId: key.keyId, publicKey: key.publicKey, webhookSecrets: [webhookSecret], webhookUrl: `${origin}/checkout/api/webhooks/coinbase`, port: coinbasePort, host,
  }).start();
  const hostedlink = await new HostedlinkFake({ secret: hostedlinkSecret, callbackUrl: `${origin}/checkout/api/webhooks/hostedlink`, port: hostedlinkPort, host }).start();
  return {
    coinbase,
    hostedlink,
    env: {
      GATEWAYS: 'coinbase-hostedlink',
      COINBASE_API_URL: coinbase.apiUrl,
      COINBASE_API_KEY_ID: key.keyId,
      COINBASE_API_KEY_SECRET: key.secret,
      COINBASE_WEBHOOK_SECRET: webhookSecret,
      HOSTEDLINK_URL: hostedlink.payUrl,
      HOSTEDLINK_SECRET: hostedlinkSecret,
      HOSTEDLINK_NAME: 'Card (hosted link)',
    },
    async stop() {
      await coinbase.stop();
      await hostedlink.stop();
    },
  };
}
