import type { ServerConfig } from '../config';
import type { ServerSecrets } from '../secrets';
import type { PaymentGateway } from './port';
import { sandboxGateway } from './sandbox';

/** Adapters by module name; GATEWAYS may only name these. */
const ADAPTERS: Record<string, (config: ServerConfig, secrets: ServerSecrets) => PaymentGateway> = {
  sandbox: (config, secrets) => sandboxGateway('sandbox', 'Card (sandbox)', 'CreditCard', config, secrets),
  sandboxcrypto: (config, secrets) => sandboxGateway('sandboxcrypto', 'Bitcoin (sandbox)', 'Bitcoin', config, secrets),
};

/** The configured gateways in GATEWAYS order (the first is the default). */
export function configuredGateways(config: ServerConfig, secrets: ServerSecrets): PaymentGateway[] {
  return config.gateways.map((module) => {
    const adapter = ADAPTERS[module];
    if (!adapter) throw new Error(`GATEWAYS names "${module}", which has no adapter here; known: ${Object.keys(ADAPTERS).join(', ')}`);
    return adapter(config, secrets);
  });
}
