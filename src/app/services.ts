/**
 * What every route and view shares, carried by the router context: the typed client, i18next,
 * the saved state, the visitor's session and the auth actor, and the few browser effects
 * (leaving for a payment page, clipboard, download) that tests replace.
 */
import type { i18n as I18n } from 'i18next';
import { createActor, fromPromise, type Actor, type InspectionEvent, type Observer } from 'xstate';
import { authMachine, type AuthResult, type AuthSession } from '../../machines/auth.machine';
import { createCheckoutClient, type CheckoutClient, type Gateway, type Merchant, type VisitorCurrency } from '../api/client';
import { MIN_LOADING_MS } from '../domain/constants';
import { DEFAULT_COUNTRY } from '../domain/currency';
import { isLocale, type Locale } from '../domain/locale';
import { createI18n, type AppI18n, type I18nOptions } from '../i18n';
import { unwrap } from './api';
import { browserSide, type PageSide } from './browser';
import type { CookieJar } from './cookies';
import { cookieStore, type SavedStateStore } from './persistence';

/** Receives the inspection events of every actor the app starts (the model tests measure coverage with it). */
export type Inspector = Observer<InspectionEvent> | ((event: InspectionEvent) => void);

export interface AppOptions extends I18nOptions {
  /** The fetch the typed client uses; tests pass a fake one. */
  fetch?: typeof fetch;
  /** Origin the API paths are resolved against; same origin by default. */
  baseUrl?: string;
  store?: SavedStateStore;
  /** The page the app runs in: the browser's (default), or the server render's, which reads the request and changes nothing. */
  page?: PageSide;
  /** Leaves the SPA for a payment page. */
  leave?: (url: string) => void;
  copy?: (text: string) => Promise<void>;
  download?: (url: string) => void;
  now?: () => number;
  /** The shortest time a loading state stays on screen, so nothing flickers. */
  minLoadingMs?: number;
  browserLanguages?: () => readonly string[];
  inspect?: Inspector;
  /** Epoch ms the server rendered the page at: a clock's first render shows that time, as the server's page did. */
  renderedAt?: number;
}

/** The visitor as the server sees them when the app starts. */
export interface Visitor {
  /** Country of the connection (default MA). */
  country: string;
  /** The currency call itself: the checkout's loadCurrency actor follows its success or failure. */
  currencyAnswer: Promise<VisitorCurrency>;
}

/** What the app knows once started. */
export interface AppSession {
  visitor: Visitor;
  auth: Actor<typeof authMachine>;
  /** Who sells, for every page's footer; null when the call failed (the footer then shows only the secure-payment hint). */
  merchant: Merchant | null;
}

/** A payment gateway list and its default, as the machines take them. */
export interface Gateways {
  gateways: Gateway[];
  defaultGateway: string;
}

export interface AppServices {
  client: CheckoutClient;
  i18n: I18n;
  /** Loads locales on demand and switches the language. */
  locales: Omit<AppI18n, 'i18n'>;
  store: SavedStateStore;
  /** The page's cookies: the browser's, or in the server render the request's (never written). */
  cookies: CookieJar;
  /** Sets the document's language; nothing in the server render (the server writes it into the page). */
  setDocumentLanguage: (tag: string) => void;
  now: () => number;
  leave: (url: string) => void;
  /** Clipboard and download (the success page). */
  copy: (text: string) => Promise<void>;
  download: (url: string) => void;
  minLoadingMs: number;
  browserLanguages: () => readonly string[];
  inspect?: Inspector;
  /** The server's render time while the server-rendered page is the one shown (cleared at the first navigation); undefined otherwise. */
  renderedAt: number | undefined;
  /** Loads the session and the visitor's country and starts the auth actor, once. */
  start(query: { email?: string }): Promise<AppSession>;
  /** The started session; routes run only after the root route awaited `start`. */
  readonly session: AppSession;
  /** The payment gateways (GET /api/getGateway), named in the current locale. */
  loadGateways(): Promise<Gateways>;
  /** The locale the server names products and gateways in: the page's. */
  catalogueLocale(): Locale | undefined;
}

/** Creates the app's services; `goHome` is the router's way home, used when signing out. */
export function createServices(options: AppOptions, goHome: () => void): AppServices {
  const client = createCheckoutClient({ fetch: options.fetch, baseUrl: options.baseUrl });
  const page = options.page ?? browserSide();
  const store = options.store ?? cookieStore(page.cookies);
  let started: Promise<AppSession> | null = null;
  let session: AppSession | null = null;

  const authLogic = authMachine.provide({
    actors: {
      login: fromPromise<AuthResult, { email: string; password: string }>(({ input }) => unwrap(client.POST('/checkout/api/auth', { body: input }))),
      identifyGuest: fromPromise<AuthResult, { email: string }>(({ input }) => unwrap(client.POST('/checkout/api/authMiddleware', { body: input }))),
      signOut: fromPromise<{ loggedIn: false }>(() => unwrap(client.POST('/checkout/api/signOut', { body: {} }))),
      requestSignInLink: fromPromise<{ accepted: true }, { email: string; redirect: string }>(({ input }) => unwrap(client.POST('/checkout/api/signInLink', { body: input }))),
    },
    actions: {
      clearSession: () => store.clear(),
      goHome,
    },
  });

  async function start(query: { email?: string }): Promise<AppSession> {
    const currencyAnswer = unwrap(client.GET('/checkout/api/currency'));
    // The merchant comes with the session, so the footer is complete on the app's first render (nothing moves after).
    const [serverSession, currency, merchant] = await Promise.all([
      unwrap(client.GET('/checkout/api/session')).catch((): AuthSession | null => null),
      currencyAnswer.catch(() => null),
      unwrap(client.GET('/checkout/api/merchant')).catch((): Merchant | null => null),
    ]);
    const auth = createActor(authLogic, { input: { session: serverSession, query }, inspect: options.inspect });
    auth.start();
    session = { visitor: { country: currency?.country ?? DEFAULT_COUNTRY, currencyAnswer }, auth, merchant };
    return session;
  }

  const { i18n, ...locales } = createI18n(options);
  const catalogueLocale = () => (isLocale(i18n.language) ? i18n.language : undefined);
  return {
    client,
    i18n,
    locales,
    store,
    cookies: page.cookies,
    setDocumentLanguage: page.setDocumentLanguage,
    now: options.now ?? (() => Date.now()),
    leave: options.leave ?? page.leave,
    copy: options.copy ?? page.copy,
    download: options.download ?? page.download,
    minLoadingMs: options.minLoadingMs ?? MIN_LOADING_MS,
    browserLanguages: options.browserLanguages ?? page.languages,
    inspect: options.inspect,
    renderedAt: options.renderedAt,
    start: (query) => (started ??= start(query)),
    get session() {
      if (!session) throw new Error('App not started');
      return session;
    },
    catalogueLocale,
    async loadGateways() {
      const list = await unwrap(client.GET('/checkout/api/getGateway', { params: { query: { locale: catalogueLocale() } } }));
      return { gateways: list.paymentmethods.paymentmethod, defaultGateway: list.defaultGateway };
    },
  };
}
