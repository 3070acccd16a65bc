/** An error answered to the caller in the one error shape `{ error: { code, message } }`. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly extra: { amount?: number; currency?: string } = {},
  ) {
    super(message);
  }

  /** The response body. */
  body() {
    return { error: { code: this.code, message: this.message, ...this.extra } };
  }
}

export const badRequest = (message: string, code = 'bad_request') => new HttpError(400, code, message);
export const unauthenticated = (message = 'Sign in or give your e-mail first.') => new HttpError(401, 'unauthenticated', message);
export const forbidden = (message = 'This belongs to another client.') => new HttpError(403, 'forbidden', message);
export const notFound = (message: string) => new HttpError(404, 'not_found', message);
export const conflict = (code: string, message: string, extra: HttpError['extra'] = {}) => new HttpError(409, code, message, extra);
export const unprocessable = (code: string, message: string) => new HttpError(422, code, message);
