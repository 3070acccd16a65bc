/**
 * The reseller flow: pick a reseller product, say whether you already are a reseller, sign in or
 * sign up, order and pay; plus the guard of the reseller success page.
 */
import type { UserId } from '../src/domain/user-id';
import { assign, fromPromise, setup } from 'xstate';
import { PAYMENT_DEADLINE_MS } from '../src/domain/constants';
import type { Currency } from '../src/domain/currency';
import { isValidEmail } from '../src/domain/email';
import { failureMessage } from '../src/domain/failure-message';
import type { MessageKey } from '../src/domain/messages';
import { newPasswordProblem, type PasswordProblem } from '../src/domain/password';
import { quoteProducts } from '../src/domain/pricing';
import type { Gateway, OrderRequest, OrderResponse, Product, ResellerAuthRequest, ResellerAuthResponse, ResellerProductList, ResellerService as ContractResellerService } from '../src/api/client';

/** A reseller product (getResellersProducts): what the pack list shows and prices. */
export type ResellerProduct = Pick<Product, 'pid' | 'name' | 'billingcycle' | 'pricing'>;

/** A payment gateway as the gateway list gives it. */
export type ResellerGateway = Pick<Gateway, 'module' | 'displayname' | 'type'>;

/** What the reseller page starts from. */
export interface ResellerInput {
  /** The visitor's currency. */
  currency: Currency;
  gateways: ResellerGateway[];
  /** Module of the default gateway. */
  selectedGateway: string;
  /** Pre-fills the e-mail (a logged-in user's address). */
  email?: string;
  /** The product a new reseller's order adds to the chosen one (the app's newReselPid); null adds none. */
  newResellerPid: number | null;
}

/** The order as the waiting step needs it. */
export interface ResellerOrder {
  orderid: number | null;
  invoiceid: number | null;
  serviceid: number | null;
  fraud: boolean;
}

/** The reseller service the success page is about (getResellerProducts). */
export type ResellerService = ContractResellerService;

/** What the reseller pages show and the machine remembers. */
export interface ResellerContext {
  currency: Currency;
  products: ResellerProduct[];
  selectedPid: number | null;
  /** The yes/no choice: already a reseller (sign in) or new (sign up with a confirmed password). */
  existingReseller: boolean;
  email: string;
  password: string;
  confirmPassword: string;
  emailError: MessageKey | null;
  passwordError: MessageKey | null;
  /** A new reseller's password breaking the rule (10 characters or more, not the e-mail); the server applies the same. */
  passwordRuleError: MessageKey | null;
  gateways: ResellerGateway[];
  selectedGateway: string;
  newResellerPid: number | null;
  /** Amount of the order in the visitor's currency; null when a product is not sold in it. */
  price: number | null;
  /** Set once resellerAuth succeeded; a retried order does not sign in again. */
  /** A signed-in reseller's id, or a sign-up's opaque handle. */
  userid: UserId | null;
  order: ResellerOrder;
  paymentLink: string | null;
  /** Payment deadline, epoch milliseconds. */
  lastDate: number | null;
  duration: number | null;
  /** Server message (or message key) of the last failed call. */
  error: string | null;
  /** The service the reseller success page checks. */
  serviceid: number | null;
  resellerService: ResellerService | null;
}

/** What the reseller success route knows when it opens. */
export interface ResellerSuccessQuery {
  serviceid: number | null;
  loggedIn: boolean;
}

/** What the visitor does on the reseller pages. */
export type ResellerEvent =
  | { type: 'products.load' }
  | { type: 'products.retry' }
  | ({ type: 'success.check' } & ResellerSuccessQuery)
  | { type: 'plan.select'; pid: number }
  | { type: 'reseller.choose'; existing: boolean }
  | { type: 'email.change'; email: string }
  | { type: 'password.change'; password: string }
  | { type: 'confirmation.change'; password: string }
  | { type: 'gateway.select'; gateway: string }
  | { type: 'order.submit' };

/** getResellersProducts: the packs (newResellerPid reaches the machine as input). */
export type ResellerProductsOutput = Pick<ResellerProductList, 'totalresults'> & { products: ResellerProduct[] };

/** resellerAuth's body. */
export type ResellerAuthInput = ResellerAuthRequest;

/** resellerAuth's answer. */
export type ResellerAuthOutput = ResellerAuthResponse;

/** The reseller order body: a list of product ids. */
export type CreateResellerOrderInput = Pick<OrderRequest, 'paymentmethod' | 'amount' | 'currency'> & { pid: Extract<OrderRequest['pid'], number[]> };

/** The order's answer, with the link and its deadline (date-time). */
export type CreateResellerOrderOutput = OrderResponse;

/** The service of the reseller success page. */
export interface LoadResellerProductInput {
  serviceid: number | null;
}

/** What the reseller waiting step starts from. */
export interface ResellerOutput {
  order: ResellerOrder;
  paymentLink: string | null;
  lastDate: number | null;
  duration: number | null;
  selectedGateway: string;
}

const notProvided = (name: string) => () => Promise.reject(new Error(`${name} is not provided`));

/** The pid list of the order; a new reseller's also holds the new-reseller product, as its second entry. */
export function orderPids(context: Pick<ResellerContext, 'selectedPid' | 'existingReseller' | 'newResellerPid'>): number[] {
  const chosen = context.selectedPid;
  if (chosen === null) return [];
  const extra = context.existingReseller ? null : context.newResellerPid;
  return extra !== null && extra !== chosen ? [chosen, extra] : [chosen];
}

/** The order amount; null when a product of the order is not loaded or not sold in the currency. */
export function resellerPrice(context: Pick<ResellerContext, 'products' | 'selectedPid' | 'existingReseller' | 'newResellerPid' | 'currency'>): number | null {
  const products = orderPids(context).map((pid) => context.products.find((product) => product.pid === pid));
  if (products.length === 0 || products.some((product) => product === undefined)) return null;
  return quoteProducts(products as ResellerProduct[], context.currency);
}

/** The product selected by default: the second, or the first when there is only one. */
export function defaultResellerPid(products: ResellerProduct[]): number | null {
  return (products[1] ?? products[0])?.pid ?? null;
}

function emailError(email: string): MessageKey | null {
  return email === '' || isValidEmail(email) ? null : 'email.invalid';
}

const PASSWORD_PROBLEM_MESSAGES: Record<PasswordProblem, MessageKey> = { tooShort: 'reseller.passwordTooShort', isEmail: 'reseller.passwordIsEmail' };

/** What a new reseller's password breaks of the rule; a sign-in takes the account's password as it is. */
function passwordRuleError(context: Pick<ResellerContext, 'existingReseller' | 'password' | 'email'>): MessageKey | null {
  const problem = context.existingReseller ? null : newPasswordProblem(context.password, context.email);
  return problem ? PASSWORD_PROBLEM_MESSAGES[problem] : null;
}

function passwordError(context: Pick<ResellerContext, 'existingReseller' | 'password' | 'confirmPassword'>): MessageKey | null {
  const mismatch = !context.existingReseller && context.confirmPassword !== '' && context.password !== context.confirmPassword;
  return mismatch ? 'reseller.passwordMismatch' : null;
}

/** The reseller success page may be shown: the query has a service id and the user is logged in. */
export function canEnterResellerSuccess(query: ResellerSuccessQuery): boolean {
  return query.loggedIn && typeof query.serviceid === 'number' && Number.isInteger(query.serviceid) && query.serviceid > 0;
}

/** The reseller service found is Active (otherwise the route redirects to the reseller page). */
export function isActiveResellerService(service: Pick<ResellerService, 'status'>): boolean {
  return service.status === 'Active';
}

interface GuardArgs {
  context: ResellerContext;
}

const gatewayListed = (context: ResellerContext) => context.gateways.some((gateway) => gateway.module === context.selectedGateway);

/** The guards of the reseller machine, exported for their unit tests and the success route. */
export const resellerGuards = {
  hasProducts: (_: unknown, params: { count: number }) => params.count > 0,
  isResellerProduct: ({ context }: GuardArgs, params: { pid: number }) => context.products.some((product) => product.pid === params.pid),
  isKnownGateway: ({ context }: GuardArgs, params: { gateway: string }) => context.gateways.some((gateway) => gateway.module === params.gateway),
  canOrderSignedIn: ({ context }: GuardArgs) => context.userid !== null && context.price !== null && gatewayListed(context),
  formComplete: ({ context }: GuardArgs) =>
    isValidEmail(context.email) &&
    context.password !== '' &&
    passwordRuleError(context) === null &&
    (context.existingReseller || context.password === context.confirmPassword) &&
    context.price !== null &&
    gatewayListed(context),
  hasPaymentLink: (_: unknown, params: { link: string | null }) => typeof params.link === 'string' && params.link !== '',
  canEnterResellerSuccess: (_: unknown, params: ResellerSuccessQuery) => canEnterResellerSuccess(params),
  isActiveResellerService: (_: unknown, params: Pick<ResellerService, 'status'>) => isActiveResellerService(params),
};

/** What the views and the app read about each actor, action, guard and delay. */
export const resellerMachineDocs = {
  actors: {
    loadResellerProducts: {
      description: 'Loads the reseller products (getResellersProducts).',
      input: 'none',
      output: '{ totalresults, products: [{ pid, name, billingcycle, pricing, … }] }',
    },
    resellerAuth: {
      description: 'Signs an existing reseller in, or signs a new one up (resellerAuth).',
      input: '{ email, password, existingReseller }',
      output: '{ userid, email, reseller }',
    },
    createOrder: {
      description: 'Creates the reseller order (order with a pid list); a new reseller also orders the new-reseller product.',
      input: '{ pid: number[], paymentmethod, amount, currency }',
      output: '{ orderid, invoiceid, serviceids, fraud, status, amount, currency, link, deadline }',
    },
    loadResellerProduct: {
      description: 'Looks up the reseller service of the success page (getResellerProducts).',
      input: '{ serviceid }',
      output: '{ serviceid, pid, name, status, reseller: { name, status } }',
    },
  },
  actions: {
    storeProducts: {
      description: 'Keeps the reseller products, selects the second (the first if only one) and prices the order.',
      input: 'products',
      output: 'products, selectedPid, price',
    },
    selectPlan: { description: 'Selects another reseller product and reprices.', input: 'pid', output: 'selectedPid, price' },
    chooseExisting: {
      description: 'Records the yes/no answer to "already a reseller?" and reprices (a new reseller adds a product).',
      input: 'existing',
      output: 'existingReseller, price, passwordError, passwordRuleError',
    },
    setEmail: {
      description: "Keeps the e-mail, flags a wrong shape ('email.invalid') and a new reseller's password that is the e-mail.",
      input: 'email',
      output: 'email, emailError, passwordRuleError',
    },
    setPassword: {
      description: "Keeps the password, checks a new reseller's against the rule ('reseller.passwordTooShort', 'reseller.passwordIsEmail') and the confirmation.",
      input: 'password',
      output: 'password, passwordError, passwordRuleError',
    },
    setConfirmation: {
      description: "Keeps the confirmation and flags a mismatch ('reseller.passwordMismatch').",
      input: 'password',
      output: 'confirmPassword, passwordError',
    },
    selectGateway: { description: 'Selects the payment gateway.', input: 'gateway', output: 'selectedGateway' },
    revealErrors: { description: 'A refused submit shows what is wrong with the e-mail and the password.', output: 'emailError, passwordError, passwordRuleError' },
    clearError: { description: 'Hides the last server message.', output: 'error' },
    storeError: { description: 'Keeps the server message of a failed call to show it.', input: 'the actor error', output: 'error' },
    storeUser: {
      description: 'Keeps the signed-in user and forgets the typed passwords.',
      input: 'userid, email',
      output: 'userid, email, password, confirmPassword, passwordRuleError',
    },
    storeOrder: {
      description: 'Keeps order id, invoice id, service id, fraud flag, the payment link and its one-day deadline.',
      input: 'the order answer',
      output: 'order, paymentLink, lastDate, duration',
    },
    redirectToPayment: { description: "Sends the reseller to the gateway's payment page; the reseller waiting step follows.", input: '{ link }' },
    goToWaiting: { description: 'Goes to the reseller waiting page when the order came back without a payment link.' },
    storeServiceId: { description: 'Keeps the service id of the reseller success page.', input: 'serviceid', output: 'serviceid' },
    storeResellerService: { description: 'Keeps the reseller service shown on the success page.', input: 'the lookup answer', output: 'resellerService' },
    redirectToResellers: { description: 'Sends the visitor to the localized reseller page.' },
  },
  guards: {
    hasProducts: { description: 'At least one reseller product came back.' },
    isResellerProduct: { description: 'The chosen pid is one of the reseller products.' },
    isKnownGateway: { description: 'The chosen gateway is in the gateway list.' },
    canOrderSignedIn: { description: 'Already signed in by an earlier submit, with a price and a listed gateway: order without signing in again.' },
    formComplete: {
      description: 'E-mail well formed, password given, for a new reseller the confirmation matches, a price and a listed gateway.',
    },
    hasPaymentLink: { description: 'The order came back with a payment link.' },
    canEnterResellerSuccess: { description: 'The success query has a service id and the user is logged in.' },
    isActiveResellerService: { description: 'The reseller service found is Active.' },
  },
  events: {
    'products.load': { description: 'The reseller page opens.' },
    'products.retry': { description: 'The visitor retries loading the reseller products.' },
    'success.check': { description: 'The reseller success page opens with its query (serviceid) and login state.' },
    'plan.select': { description: 'The visitor picks a reseller product.' },
    'reseller.choose': { description: 'The visitor answers "already a reseller?" yes or no.' },
    'email.change': { description: 'The visitor types the e-mail.' },
    'password.change': { description: 'The visitor types the password.' },
    'confirmation.change': { description: 'The new reseller types the password again.' },
    'gateway.select': { description: 'The visitor picks a payment gateway.' },
    'order.submit': { description: 'The visitor orders.' },
  },
};

const repriced = (context: ResellerContext, changes: Partial<ResellerContext>): Partial<ResellerContext> => ({
  ...changes,
  price: resellerPrice({ ...context, ...changes }),
});

/** The reseller order flow and the reseller success guard. */
export const resellerMachine = setup({
  types: {
    input: {} as ResellerInput,
    context: {} as ResellerContext,
    events: {} as ResellerEvent,
    output: {} as ResellerOutput,
  },
  actors: {
    loadResellerProducts: fromPromise<ResellerProductsOutput>(notProvided('loadResellerProducts')),
    resellerAuth: fromPromise<ResellerAuthOutput, ResellerAuthInput>(notProvided('resellerAuth')),
    createOrder: fromPromise<CreateResellerOrderOutput, CreateResellerOrderInput>(notProvided('createOrder')),
    loadResellerProduct: fromPromise<ResellerService, LoadResellerProductInput>(notProvided('loadResellerProduct')),
  },
  actions: {
    storeProducts: assign(({ context }, params: { products: ResellerProduct[] }) =>
      repriced(context, { products: params.products, selectedPid: defaultResellerPid(params.products) }),
    ),
    selectPlan: assign(({ context }, params: { pid: number }) => repriced(context, { selectedPid: params.pid })),
    chooseExisting: assign(({ context }, params: { existing: boolean }) => {
      const changes = repriced(context, { existingReseller: params.existing });
      const answered = { ...context, existingReseller: params.existing };
      // A rule error already shown follows the answer; a new one waits for the password to change or a submit.
      return { ...changes, passwordError: passwordError(answered), passwordRuleError: context.passwordRuleError && passwordRuleError(answered) };
    }),
    setEmail: assign(({ context }, params: { email: string }) => ({
      email: params.email,
      emailError: emailError(params.email),
      passwordRuleError: context.password === '' ? null : passwordRuleError({ ...context, email: params.email }),
    })),
    setPassword: assign(({ context }, params: { password: string }) => ({
      password: params.password,
      passwordError: passwordError({ ...context, password: params.password }),
      passwordRuleError: params.password === '' ? null : passwordRuleError({ ...context, password: params.password }),
    })),
    setConfirmation: assign(({ context }, params: { password: string }) => ({
      confirmPassword: params.password,
      passwordError: passwordError({ ...context, confirmPassword: params.password }),
    })),
    selectGateway: assign((_, params: { gateway: string }) => ({ selectedGateway: params.gateway })),
    revealErrors: assign(({ context }) => ({
      emailError: isValidEmail(context.email) ? null : ('email.invalid' as const),
      passwordError: !context.existingReseller && context.password !== context.confirmPassword ? ('reseller.passwordMismatch' as const) : null,
      passwordRuleError: passwordRuleError(context),
    })),
    clearError: assign({ error: null }),
    storeError: assign((_, params: { error: unknown }) => ({ error: failureMessage(params.error) })),
    storeUser: assign((_, params: { user: ResellerAuthOutput }) => ({
      userid: params.user.userid,
      email: params.user.email,
      password: '',
      confirmPassword: '',
      passwordRuleError: null,
    })),
    storeOrder: assign((_, params: { order: CreateResellerOrderOutput }) => ({
      order: {
        orderid: params.order.orderid,
        invoiceid: params.order.invoiceid,
        serviceid: params.order.serviceids[0] ?? null,
        fraud: params.order.fraud,
      },
      paymentLink: params.order.link,
      lastDate: params.order.link && params.order.deadline ? Date.parse(params.order.deadline) : null,
      duration: params.order.link ? PAYMENT_DEADLINE_MS : null,
    })),
    redirectToPayment: (_, _params: { link: string }) => {},
    goToWaiting: () => {},
    storeServiceId: assign((_, params: { serviceid: number | null }) => ({ serviceid: params.serviceid })),
    storeResellerService: assign((_, params: { service: ResellerService }) => ({ resellerService: params.service })),
    redirectToResellers: () => {},
  },
  guards: resellerGuards,
}).createMachine({
  id: 'reseller',
  description: 'Reseller plans and payment, and the guard of the reseller success page.',
  context: ({ input }) => ({
    currency: input.currency,
    products: [],
    selectedPid: null,
    existingReseller: false,
    email: input.email ?? '',
    password: '',
    confirmPassword: '',
    emailError: null,
    passwordError: null,
    passwordRuleError: null,
    gateways: input.gateways,
    selectedGateway: input.selectedGateway,
    newResellerPid: input.newResellerPid,
    price: null,
    userid: null,
    order: { orderid: null, invoiceid: null, serviceid: null, fraud: false },
    paymentLink: null,
    lastDate: null,
    duration: null,
    error: null,
    serviceid: null,
    resellerService: null,
  }),
  initial: 'idle',
  states: {
    idle: {
      description: 'The page tells which part runs: the reseller order page or the reseller success page.',
      on: {
        'products.load': { target: 'loading', description: 'The reseller page opens: load the products.' },
        'success.check': [
          {
            guard: { type: 'canEnterResellerSuccess', params: ({ event }) => ({ serviceid: event.serviceid, loggedIn: event.loggedIn }) },
            target: 'successGuard',
            actions: { type: 'storeServiceId', params: ({ event }) => ({ serviceid: event.serviceid }) },
            description: 'A logged-in user with a service id: look the reseller service up.',
          },
          { target: '#resellerDenied', description: 'No service id or not logged in: back to the reseller page.' },
        ],
      },
    },
    loading: {
      description: 'Loads the reseller products.',
      invoke: {
        id: 'loadResellerProducts',
        src: 'loadResellerProducts',
        onDone: [
          {
            guard: { type: 'hasProducts', params: ({ event }) => ({ count: event.output.products.length }) },
            target: 'ready',
            actions: { type: 'storeProducts', params: ({ event }) => ({ products: event.output.products }) },
            description: 'Products found: the second is selected (the first if only one).',
          },
          { target: 'empty', description: 'No reseller product is offered.' },
        ],
        onError: {
          target: 'failed',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
          description: 'The products could not be loaded.',
        },
      },
    },
    failed: {
      description: 'The products could not be loaded: message and retry button.',
      on: { 'products.retry': { target: 'loading', actions: 'clearError', description: 'Loads the products again.' } },
    },
    empty: {
      description: 'No reseller product is offered.',
    },
    ready: {
      description: 'Reseller products, "already a reseller?" yes/no, e-mail, password (and confirmation for a new reseller), gateways.',
      on: {
        'plan.select': {
          guard: { type: 'isResellerProduct', params: ({ event }) => ({ pid: event.pid }) },
          actions: { type: 'selectPlan', params: ({ event }) => ({ pid: event.pid }) },
          description: 'Selects a reseller product.',
        },
        'reseller.choose': {
          actions: { type: 'chooseExisting', params: ({ event }) => ({ existing: event.existing }) },
          description: 'Existing reseller (sign in) or new reseller (sign up, adds the new-reseller product).',
        },
        'email.change': {
          actions: { type: 'setEmail', params: ({ event }) => ({ email: event.email }) },
          description: 'Updates the e-mail and its shape check.',
        },
        'password.change': {
          actions: { type: 'setPassword', params: ({ event }) => ({ password: event.password }) },
          description: 'Updates the password.',
        },
        'confirmation.change': {
          actions: { type: 'setConfirmation', params: ({ event }) => ({ password: event.password }) },
          description: 'Updates the confirmation and the mismatch check.',
        },
        'gateway.select': {
          guard: { type: 'isKnownGateway', params: ({ event }) => ({ gateway: event.gateway }) },
          actions: { type: 'selectGateway', params: ({ event }) => ({ gateway: event.gateway }) },
          description: 'Selects the payment gateway.',
        },
        'order.submit': [
          { guard: 'canOrderSignedIn', target: 'ordering', actions: 'clearError', description: 'Signed in already: order again.' },
          { guard: 'formComplete', target: 'authenticating', actions: 'clearError', description: 'The form is complete: sign in or sign up.' },
          { actions: 'revealErrors', description: 'The form is incomplete: show what is wrong.' },
        ],
      },
    },
    authenticating: {
      description: 'Signs the reseller in or up; a second submit is ignored.',
      invoke: {
        id: 'resellerAuth',
        src: 'resellerAuth',
        input: ({ context }) => ({ email: context.email, password: context.password, existingReseller: context.existingReseller }),
        onDone: {
          target: 'ordering',
          actions: { type: 'storeUser', params: ({ event }) => ({ user: event.output }) },
          description: 'Signed in: create the order.',
        },
        onError: {
          target: 'ready',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
          description: 'Sign-in or sign-up refused: the server message is shown, the form is kept.',
        },
      },
    },
    ordering: {
      description: 'Creates the reseller order; a second submit is ignored.',
      invoke: {
        id: 'createOrder',
        src: 'createOrder',
        input: ({ context }) => ({
          pid: orderPids(context),
          paymentmethod: context.selectedGateway,
          amount: context.price ?? 0,
          currency: context.currency,
        }),
        onDone: [
          {
            guard: { type: 'hasPaymentLink', params: ({ event }) => ({ link: event.output.link }) },
            target: 'redirecting',
            actions: { type: 'storeOrder', params: ({ event }) => ({ order: event.output }) },
            description: 'Order created with a payment link: go to the payment page.',
          },
          {
            target: 'placed',
            actions: { type: 'storeOrder', params: ({ event }) => ({ order: event.output }) },
            description: 'Order created without a link: straight to the reseller waiting page.',
          },
        ],
        onError: {
          target: 'ready',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
          description: 'The order was refused: the server message is shown, the choices are kept.',
        },
      },
    },
    redirecting: {
      description: 'The payment page opens; the reseller waiting step takes over.',
      type: 'final',
      entry: { type: 'redirectToPayment', params: ({ context }) => ({ link: context.paymentLink ?? '' }) },
    },
    placed: {
      description: 'The order has no payment link yet: the reseller waiting step takes over (it can make a new link).',
      type: 'final',
      entry: 'goToWaiting',
    },
    successGuard: {
      description: 'The reseller success page: shown only to a logged-in user with an Active reseller service.',
      initial: 'checking',
      states: {
        checking: {
          description: 'Looks the reseller service up.',
          invoke: {
            id: 'loadResellerProduct',
            src: 'loadResellerProduct',
            input: ({ context }) => ({ serviceid: context.serviceid }),
            onDone: [
              {
                guard: { type: 'isActiveResellerService', params: ({ event }) => ({ status: event.output.status }) },
                target: 'allowed',
                actions: { type: 'storeResellerService', params: ({ event }) => ({ service: event.output }) },
                description: 'The reseller service is Active: show the success page.',
              },
              { target: 'denied', description: 'The reseller service is not Active: back to the reseller page.' },
            ],
            onError: { target: 'denied', description: 'The lookup failed: back to the reseller page.' },
          },
        },
        allowed: {
          description: 'The reseller success page is shown.',
          type: 'final',
        },
        denied: {
          id: 'resellerDenied',
          description: 'Redirected to the localized reseller page.',
          type: 'final',
          entry: 'redirectToResellers',
        },
      },
    },
  },
  output: ({ context }) => ({
    order: context.order,
    paymentLink: context.paymentLink,
    lastDate: context.lastDate,
    duration: context.duration,
    selectedGateway: context.selectedGateway,
  }),
});
