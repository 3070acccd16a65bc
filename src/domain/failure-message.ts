import type { MessageKey } from './messages';

/** Shown when a failed call carries no message of its own. */
export const FALLBACK_FAILURE_MESSAGE: MessageKey = 'request.failed';

/**
 * What to show for a failed call: the server's message when the error carries one
 * (an Error, `{ message }` or the API's `{ error: { message } }`), otherwise a message key.
 */
export function failureMessage(error: unknown): string {
  const message = messageOf(error) ?? messageOf(isRecord(error) ? error.error : undefined);
  return message ?? FALLBACK_FAILURE_MESSAGE;
}

function messageOf(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  const { message } = value;
  return typeof message === 'string' && message.trim() !== '' ? message : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
