import type { ServerConfig } from '../config';
import { ConfigError } from '../config';
import type { ServerSecrets } from '../secrets';
import type { PaymentGateway } from './port';
import { sandboxGateway } from './sandbox';

interface Adapter {
  /** A sandbox pays for anyone who opens its page: demo only. */
  sandbox: boolean;
  make(config: ServerConfig, secrets: ServerSecrets): PaymentGateway;
}

/** Adapters by module name; GATEWAYS may only name these. */
const ADAPTERS: Record<string, Adapter> = {
  sandbox: { sandbox: true, make: (config, secrets) => sandboxGateway('sandbox', 'Card (sandbox)', 'CreditCard', config, secrets) },
  sandboxcrypto: { sandbox: true, make: (config, secrets) => sandboxGateway('sandboxcrypto', 'Bitcoin (sandbox)', 'Bitcoin', config, secrets) },
};

/** The gateways of GATEWAYS that are sandboxes (refused in production). */
export function sandboxGatewaysIn(modules: string[]): string[] {
  return modules.filter((module) => ADAPTERS[module]?.sandbox);
}

/** The configured gateways in GATEWAYS order (the first is the default). */
export function configuredGateways(config: ServerConfig, secrets: ServerSecrets): PaymentGateway[] {
  if (config.gateways.length === 0) throw new ConfigError('GATEWAYS names no payment gateway.');
  return config.gateways.map((module) => {
    const adapter = ADAPTERS[module];
    if (!adapter) throw new ConfigError(`GATEWAYS names "${module}", which has no adapter here; known: ${Object.keys(ADAPTERS).join(', ')}.`);
    return adapter.make(config, secrets);
  });
}
