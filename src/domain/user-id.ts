/**
 * Who a session stands for, as the server names it: a signed-in client's id (a positive integer), or a
 * guest's opaque handle (`g_` and 22 characters of base64url), which is never a client's id.
 */
export type UserId = number | string;

const GUEST_HANDLE = /^g_[A-Za-z0-9_-]{22}$/;

/** A client's id or a guest's handle of the shape the contract gives (anything else is no user). */
export function isUserId(value: unknown): value is UserId {
  return typeof value === 'string' ? GUEST_HANDLE.test(value) : Number.isInteger(value) && (value as number) > 0;
}
