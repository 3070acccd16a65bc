import type { FastifyRequest } from 'fastify';
import { LANGUAGE_COOKIE, pickLocale, type Locale } from '../../domain/locale';
import { acceptedLanguages } from '../spa';

/**
 * The language the shopper reads the checkout in, as the app picks it: the browserLang cookie (written
 * by the app for a prefixed page or a language link), then Spanish for a visitor from ES, then the
 * browser's languages. Its mails are written in it.
 */
export function shopperLocale(request: FastifyRequest, country: string | null): Locale {
  return pickLocale({ cookie: request.cookies?.[LANGUAGE_COOKIE], country, browserLanguages: acceptedLanguages(request.headers['accept-language']) });
}
