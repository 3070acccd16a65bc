import type { Translations } from '../i18n';

export type StatusKey = keyof Translations['status'];
const STATUS_KEYS: readonly StatusKey[] = ['Pending', 'Active', 'Cancelled', 'Fraud', 'Suspended', 'Terminated'];

/** The translation key of an order or service status, or null for a status this app does not name. */
export function statusKey(status: string): StatusKey | null {
  return STATUS_KEYS.find((key) => key === status) ?? null;
}
