import type { ApiError, Currency } from '../api/client';

/**
 * A failed call. Its message is what the machines keep: the message key `api.<code>`, which the
 * views translate (a code without a translation reads as 'request.failed').
 */
export class ApiFailure extends Error {
  override readonly name = 'ApiFailure';

  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    /** The server's amount and currency of a 409 price_changed. */
    readonly serverPrice?: { amount: number; currency: Currency },
  ) {
    super(message);
  }
}

/** The data of a typed-client call, or an ApiFailure (also for a network failure). */
export async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let result: Awaited<typeof call>;
  try {
    result = await call;
  } catch {
    throw new ApiFailure('api.network', 0, 'network');
  }
  if (result.error === undefined) return result.data as T;
  throw toFailure(result.error, result.response.status);
}

function toFailure(body: unknown, status: number): ApiFailure {
  const error = isApiError(body) ? body.error : { code: 'unknown', message: '' };
  const serverPrice = error.amount !== undefined && error.currency !== undefined ? { amount: error.amount, currency: error.currency } : undefined;
  return new ApiFailure(`api.${error.code}`, status, error.code, serverPrice);
}

function isApiError(body: unknown): body is ApiError {
  if (typeof body !== 'object' || body === null || !('error' in body)) return false;
  const { error } = body as { error: unknown };
  return typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string';
}

/** A promise's outcome as a value, so a loader never fails on what a machine handles itself. */
export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

export function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}
