/** Cookies as the app reads and writes them: values are URI-encoded, SameSite=Lax, Secure over HTTPS. */

export interface CookieOptions {
  maxAgeSeconds: number;
  path?: string;
}

/** The cookies of the page: the browser's own, or (server render) the request's, read-only. */
export interface CookieJar {
  /** The value of a cookie, or null. */
  read(name: string): string | null;
  /** Writes a cookie readable by the checkout's pages. */
  write(name: string, value: string, options: CookieOptions): void;
  /** Removes a cookie (path /checkout unless given). */
  delete(name: string, path?: string): void;
}

/** The value of `name` in a Cookie header (or `document.cookie`), or null. */
export function cookieValue(header: string, name: string): string | null {
  for (const pair of header.split(';')) {
    const [key, ...rest] = pair.trim().split('=');
    if (key === name) {
      try {
        return decodeURIComponent(rest.join('='));
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** A request's cookies for the server's render: read as sent, never written (the browser's app writes its own once it runs). */
export function requestCookies(header: string): CookieJar {
  return { read: (name) => cookieValue(header, name), write: () => {}, delete: () => {} };
}
