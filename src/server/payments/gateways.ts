import type { ServerConfig } from '../config';
import { ConfigError, missingProviderVariables, missingProviderVariablesMessage } from '../config';
import type { ServerSecrets } from '../secrets';
import { coinbaseGateway } from './coinbase';
import { hostedlinkGateway } from './hostedlink';
import type { PaymentGateway } from './port';
import { sandboxGateway } from './sandbox';

interface Adapter {
  /** A sandbox pays for anyone who opens its page: demo only. */
  sandbox: boolean;
  make(config: ServerConfig, secrets: ServerSecrets): PaymentGateway;
}

/** Adapters by module name; GATEWAYS may only name these. */
const ADAPTERS: Record<string, Adapter> = {
  sandbox: { sandbox: true, make: (config, secrets) => sandboxGateway('sandbox', 'Card', 'CreditCard', config, secrets) },
  sandboxcrypto: { sandbox: true, make: (config, secrets) => sandboxGateway('sandboxcrypto', 'Bitcoin', 'Bitcoin', config, secrets) },
  coinbase: { sandbox: false, make: (config) => coinbaseGateway(config.providers.coinbase) },
  hostedlink: { sandbox: false, make: (config) => hostedlinkGateway(config.providers.hostedlink) },
};

/** The gateways of GATEWAYS that are sandboxes (refused in production). */
export function sandboxGatewaysIn(modules: string[]): string[] {
  return modules.filter((module) => ADAPTERS[module]?.sandbox);
}

/** The configured gateways in GATEWAYS order (the first is the default); a real one without its variables refuses the start. */
export function configuredGateways(config: ServerConfig, secrets: ServerSecrets): PaymentGateway[] {
  if (config.gateways.length === 0) throw new ConfigError('GATEWAYS names no payment gateway.');
  const unknown = config.gateways.find((module) => !ADAPTERS[module]);
  if (unknown) throw new ConfigError(`GATEWAYS names "${unknown}", which has no adapter here; known: ${Object.keys(ADAPTERS).join(', ')}.`);
  const missing = missingProviderVariables(config);
  if (missing.length) throw new ConfigError(missingProviderVariablesMessage(missing));
  return config.gateways.map((module) => {
    try {
      return (ADAPTERS[module] as Adapter).make(config, secrets);
    } catch (error) {
      throw new ConfigError(`The ${module} gateway cannot start: ${(error as Error).message}`);
    }
  });
}
