import type { BillingPort } from './billing/port';
import { CATALOGUE_FILE_MISSING } from './catalogue/load';
import { ConfigError, missingProviderVariables, missingProviderVariablesMessage, type ServerConfig } from './config';
import { DEMO_ACCOUNTS } from './db/seed';
import { isLoopbackHost } from './ops/listener';
import { sandboxGatewaysIn } from './payments/gateways';
import { missingSecrets, missingSecretsMessage } from './secrets';

export const SMTP_URL_MISSING = 'SMTP_URL is not set: production mails receipts and access to shoppers; set SMTP_URL (smtp://user:password@mail.example:587) and MAIL_FROM.';

/** What a production start cannot run with, every one of them (an operator fixes them all before one restart); none outside production. */
export function unsafeConfigProblems(config: ServerConfig): string[] {
  if (config.mode !== 'production') return [];
  const problems: string[] = [];
  const missing = missingSecrets(config);
  if (missing.length) problems.push(missingSecretsMessage(missing));
  const providerVariables = missingProviderVariables(config);
  if (providerVariables.length) problems.push(missingProviderVariablesMessage(providerVariables));
  if (!config.mail.smtpUrl) problems.push(SMTP_URL_MISSING);
  if (!config.catalogueFile) problems.push(CATALOGUE_FILE_MISSING);
  if (!isLoopbackHost(config.ops.host) && !config.ops.token) problems.push(opsTokenMissing(config.ops.host));
  const sandboxes = sandboxGatewaysIn(config.gateways);
  if (sandboxes.length) {
    problems.push(`GATEWAYS names the sandbox gateway${sandboxes.length > 1 ? 's' : ''} ${sandboxes.join(', ')}, whose page pays for anyone: production takes real gateways only (or set DEMO=on for a demo).`);
  }
  return problems;
}

/** The operator listener beyond loopback would show the shop's figures to anyone who reaches it. */
export const opsTokenMissing = (host: string) => `OPS_HOST is ${host}, beyond this machine, and OPS_TOKEN is not set: set OPS_TOKEN (scrapers send it as Authorization: Bearer), or leave OPS_HOST unset for 127.0.0.1.`;

/** One refusal for all the problems: a single one on its line, several numbered one per line. */
export function refusal(problems: string[]): ConfigError {
  if (problems.length === 1) return new ConfigError(problems[0] as string);
  return new ConfigError(`${problems.length} problems:\n${problems.map((problem, index) => `  ${index + 1}. ${problem}`).join('\n')}`);
}

/** Production fails closed: what would give services away refuses the start, before the store is opened. */
export function refuseUnsafeConfig(config: ServerConfig): void {
  const problems = unsafeConfigProblems(config);
  if (problems.length) throw refusal(problems);
}

/** A store that still holds a demo account (published password) refuses a production start. */
export async function refuseDemoAccounts(config: ServerConfig, billing: BillingPort): Promise<void> {
  if (config.mode !== 'production') return;
  for (const { email } of Object.values(DEMO_ACCOUNTS)) {
    if (await billing.clientByEmail(email)) {
      throw new ConfigError(`The store holds the demo account ${email}, whose password is published: remove it (or start on a new store) before a production start.`);
    }
  }
}
