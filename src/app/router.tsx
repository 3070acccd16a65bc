/** The route tree: thin routes under basepath /checkout with an optional locale prefix. */
import { createRootRouteWithContext, createRoute, createRouter, type RouterHistory } from '@tanstack/react-router';
import type { AutoOrderStop } from '../../machines/checkout.machine';
import { APP_BASE, APP_ROUTES } from '../domain/app-routes';
import { entryQuery } from '../domain/entry-query';
import { loadCheckoutPreload } from './actors/checkout';
import { settle, unwrap } from './api';
import { focusPageHeading } from './browser';
import { Layout } from './components/Layout';
import { lazyComponent, lazyView } from './lazy';
import { applyLocale, likelyLocale, parseLocalePrefix } from './locale';
import { resumeOrder, resumeSearch } from './resume';
import { firstPaintStatus } from './order-status';
import { parseSearch, serviceSearch, stringifySearch } from './search';
import { firstPaintService } from './success-service';
import type { AppServices } from './services';
import { CheckoutView } from './views/CheckoutView';
import { PendingView, StartingView } from './views/PendingView';

export interface RouterContext {
  app: AppServices;
}

const rootRoute = createRootRouteWithContext<RouterContext>()({
  validateSearch: entryQuery,
  // autoLogin: the session starts with the `email` query. A new aff_id's click is recorded by the server as it sends the page (src/server/affiliate-click.ts).
  beforeLoad: async ({ context: { app }, search, location }) => {
    app.locales.prefetch(likelyLocale(app, location.pathname));
    await app.start({ email: search.email });
  },
  component: Layout,
  // While the session and translations load, the shell of index.html stays on screen.
  pendingComponent: StartingView,
  pendingMs: 0,
  pendingMinMs: 0,
});

const localeRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '{-$locale}',
  params: { parse: ({ locale }) => ({ locale: parseLocalePrefix(locale) }), stringify: ({ locale }) => ({ locale }) },
  beforeLoad: ({ context: { app }, params, location }) => applyLocale(app, params.locale, location),
});

const gatewaysOrNone = (app: AppServices) => app.loadGateways().catch(() => ({ gateways: [], defaultGateway: '' }));

const indexRoute = createRoute({
  getParentRoute: () => localeRoute,
  path: APP_ROUTES.index,
  // A server-rendered first screen's data before it renders: the server's page shows the plans, and the browser reads the
  // same answers from the page. Any later visit shows the chart's own loading state, as it fetches them.
  // The server's first screen only (its data block answers these calls); tagged with its locale, as a language switch re-keys the form before this reruns.
  loader: async ({ context: { app } }) => (app.renderedAt === undefined ? null : { locale: app.catalogueLocale(), preload: await loadCheckoutPreload(app) }),
  component: CheckoutView,
});

const creatingOrderRoute = createRoute({
  getParentRoute: () => localeRoute,
  path: APP_ROUTES.creatingOrder,
  component: lazyView(() => import('./views/CreatingOrderView'), 'CreatingOrderView'),
});

/**
 * ?orderid=N (a recovery reminder's link): the order is loaded from the server when this browser has not saved it.
 * On the server's first screen the order's status too, so the page is painted with its receipt and status.
 */
const resumeThenGateways = async (app: AppServices, orderid: number | undefined) => {
  const [gateways] = await Promise.all([gatewaysOrNone(app), resumeOrder(app, orderid)]);
  return { ...gateways, status: await firstPaintStatus(app) };
};

const waitingRoute = createRoute({
  getParentRoute: () => localeRoute,
  path: APP_ROUTES.waiting,
  validateSearch: resumeSearch,
  loaderDeps: ({ search }) => ({ orderid: search.orderid }),
  loader: ({ context: { app }, deps }) => resumeThenGateways(app, deps.orderid),
  component: lazyView(() => import('./views/WaitingView'), 'WaitingView'),
});

const successRoute = createRoute({
  getParentRoute: () => localeRoute,
  path: APP_ROUTES.success,
  validateSearch: serviceSearch,
  loaderDeps: ({ search }) => ({ serviceid: search.serviceid }),
  loader: ({ context: { app }, deps }) => firstPaintService(app, deps.serviceid),
  component: lazyView(() => import('./views/SuccessView'), 'SuccessView'),
});

const upsellRoute = createRoute({
  getParentRoute: () => localeRoute,
  path: APP_ROUTES.upsell,
  loader: ({ context: { app } }) => gatewaysOrNone(app),
  component: lazyView(() => import('./views/UpsellView'), 'UpsellView'),
});

/** ?serviceid=N (a renewal reminder's link lands here, signed in): the service's renewal and its invoice. */
const renewRoute = createRoute({
  getParentRoute: () => localeRoute,
  path: APP_ROUTES.renew,
  validateSearch: serviceSearch,
  loader: ({ context: { app } }) => gatewaysOrNone(app),
  component: lazyView(() => import('./views/RenewView'), 'RenewView'),
});

const resellersRoute = createRoute({
  getParentRoute: () => localeRoute,
  path: APP_ROUTES.resellers,
  loader: async ({ context: { app } }) => {
    const [gateways, catalogue] = await Promise.all([gatewaysOrNone(app), settle(unwrap(app.client.GET('/checkout/api/getResellersProducts', { params: { query: { locale: app.catalogueLocale() } } })))]);
    return { ...gateways, catalogue };
  },
  component: lazyView(() => import('./views/ResellersView'), 'ResellersView'),
});

const resellersWaitingRoute = createRoute({
  getParentRoute: () => localeRoute,
  path: APP_ROUTES.resellersWaiting,
  validateSearch: resumeSearch,
  loaderDeps: ({ search }) => ({ orderid: search.orderid }),
  loader: ({ context: { app }, deps }) => resumeThenGateways(app, deps.orderid),
  component: lazyView(() => import('./views/WaitingView'), 'ResellerWaitingView'),
});

const resellersSuccessRoute = createRoute({
  getParentRoute: () => localeRoute,
  path: APP_ROUTES.resellersSuccess,
  validateSearch: serviceSearch,
  // resellerSuccess: the session is read fresh, as a reseller signs in on the reseller page.
  loader: async ({ context: { app } }) => {
    const session = await unwrap(app.client.GET('/checkout/api/session')).catch(() => null);
    return { loggedIn: session?.loggedIn ?? false };
  },
  component: lazyView(() => import('./views/ResellersView'), 'ResellerSuccessView'),
});

const routeTree = rootRoute.addChildren([
  localeRoute.addChildren([
    indexRoute,
    creatingOrderRoute,
    waitingRoute,
    successRoute,
    upsellRoute,
    renewRoute,
    resellersRoute,
    resellersWaitingRoute,
    resellersSuccessRoute,
  ]),
]);

/** The router of the app: history mode under /checkout (memory history in tests). */
export function createAppRouter(app: AppServices, history?: RouterHistory, isServer?: boolean) {
  const router = createRouter({
    routeTree,
    basepath: APP_BASE,
    history,
    ...(isServer ? { isServer } : {}),
    context: { app },
    parseSearch,
    stringifySearch,
    // Not on the first screen: the error pages load when needed.
    defaultNotFoundComponent: lazyComponent(() => import('./views/ErrorViews').then((views) => views.NotFoundView)),
    defaultErrorComponent: lazyComponent(() => import('./views/ErrorViews').then((views) => views.ErrorView)),
    defaultPendingComponent: PendingView,
    defaultPendingMs: app.minLoadingMs,
    defaultPendingMinMs: app.minLoadingMs,
    scrollRestoration: true,
  });
  // The server's render has no focus to move.
  if (!isServer) {
    router.subscribe('onRendered', ({ fromLocation, pathChanged }) => {
      if (fromLocation && pathChanged) focusPageHeading();
    });
  }
  return router;
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
  interface HistoryState {
    /** Set by the waiting page when the shopper cancelled: home then says so. */
    orderCancelled?: boolean;
    /** Set when a link's automatic order stopped: the form it lands on says why. */
    autoOrderStop?: AutoOrderStop;
  }
}
