/** The fake WHMCS API for tests and `npm run whmcs:fake` (README.md in this folder). */
export { createWhmcsFake, DEFAULT_IDENTIFIER, DEFAULT_SECRET } from './server';
export { phpTruthy, sqlLike } from './values';
export type { FaultMode, FaultOptions, WhmcsCall, WhmcsFake, WhmcsFakeOptions } from './server';
export { demoSeed, DEMO_CLIENT, DEMO_RESELLER, DEMO_RETAIL_GID, DEMO_RESELLER_GID, DEMO_RESELLER_CLIENT_GROUP, DEMO_SUB_OPTION, DEMO_MAC_FIELD_ID } from './seed';
export type { WhmcsSeed } from './seed';
export type { CronReport, CronRun } from './renewals';
export { phpSerialize, phpSerializeBase64, phpUnserialize, decodeSerializedBase64, PhpUnserializeError } from './php-serialize';
