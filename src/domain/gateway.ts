/** Gateway types paid in crypto show a coin; card types (highriskshop, laucharge, mercuryo, credit card) a card. */
const COIN_TYPES = new Set(['bitcoin', 'cryptocurrency', 'crypto']);

export type GatewayIcon = 'card' | 'coin';

/** The icon of a gateway by its type (spec section 9). */
export function gatewayIcon(type: string): GatewayIcon {
  const key = type.replace(/[\s_-]/g, '').toLowerCase();
  return COIN_TYPES.has(key) ? 'coin' : 'card';
}

/** True when a gateway type is paid in crypto. */
export function isCryptoGateway(type: string): boolean {
  return gatewayIcon(type) === 'coin';
}

/** Gateway modules from a hyphen-separated list; the first is the default. */
export function parseGatewayList(list: string): string[] {
  return list.split('-').map((name) => name.trim()).filter(Boolean);
}

/** True when a gateway takes payments in the currency; one that names no currencies takes any. */
export function takesCurrency(gateway: { currencies?: readonly string[] }, currency: string): boolean {
  return !gateway.currencies || gateway.currencies.includes(currency);
}

/** The gateway to start with: the default if it takes the currency, else the first that does (else the default). */
export function defaultGatewayFor(gateways: ReadonlyArray<{ module: string; currencies?: readonly string[] }>, preferred: string, currency: string): string {
  const chosen = gateways.find((gateway) => gateway.module === preferred);
  return chosen && takesCurrency(chosen, currency) ? preferred : (gateways.find((gateway) => takesCurrency(gateway, currency))?.module ?? preferred);
}
