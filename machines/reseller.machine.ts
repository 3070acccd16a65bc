/**
 * The reseller flow: pick a reseller product, say whether you already are a reseller, sign in or
 * sign up, order and pay; plus the guard of the reseller success page. Its types and first context are
 * in reseller.context.ts, its guards in reseller.guards.ts, what the diagrams say of it in reseller.docs.ts.
 */
import { assign, fromPromise, setup } from 'xstate';
import { PAYMENT_DEADLINE_MS } from '../src/domain/constants';
import { isValidEmail } from '../src/domain/email';
import { failureMessage } from '../src/domain/failure-message';
import {
  defaultResellerPid,
  initialResellerContext,
  orderPids,
  resellerPrice,
  type CreateResellerOrderInput,
  type CreateResellerOrderOutput,
  type LoadResellerProductInput,
  type ResellerAuthInput,
  type ResellerAuthOutput,
  type ResellerContext,
  type ResellerEvent,
  type ResellerInput,
  type ResellerOutput,
  type ResellerProduct,
  type ResellerProductsOutput,
  type ResellerService,
} from './reseller.context';
import { emailError, passwordError, passwordRuleError, resellerGuards } from './reseller.guards';
import type { ProductWords } from './product-words';

const notProvided = (name: string) => () => Promise.reject(new Error(`${name} is not provided`));

/** What a visitor event carries besides its type: the params of the guard and the action that handle it. */
const eventFields = <Event extends ResellerEvent>({ event }: { event: Event }): Omit<Event, 'type'> => {
  const { type: _type, ...fields } = event;
  return fields;
};

const repriced = (context: ResellerContext, changes: Partial<ResellerContext>): Partial<ResellerContext> => ({
  ...changes,
  price: resellerPrice({ ...context, ...changes }),
});

/** The reseller order flow and the reseller success guard. */
export const resellerMachine = setup({
  types: {
    meta: {} as ProductWords,
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
  meta: { product: 'The reseller order page and the check before the reseller success page.' },
  context: ({ input }) => initialResellerContext(input),
  initial: 'idle',
  states: {
    idle: {
      description: 'The page tells which part runs: the reseller order page or the reseller success page.',
      meta: { product: 'The page opens as either the reseller order page or the reseller success page.' },
      on: {
        'products.load': { target: 'loading', description: 'The reseller page opens: load the products.', meta: { product: 'The reseller order page opens and its plans load.' } },
        'success.check': [
          {
            guard: { type: 'canEnterResellerSuccess', params: eventFields },
            target: 'successGuard',
            actions: { type: 'storeServiceId', params: ({ event }) => ({ serviceid: event.serviceid }) },
            description: 'A logged-in user with a service id: look the reseller service up.',
            meta: { product: 'A signed-in client arrives on the success page with a service, which is looked up.' },
          },
          { target: '#resellerDenied', description: 'No service id or not logged in: back to the reseller page.', meta: { product: 'Nobody signed in, or no service named, so the visitor is sent to the reseller page.' } },
        ],
      },
    },
    loading: {
      description: 'Loads the reseller products.',
      meta: { product: 'The visitor waits a moment while the reseller plans load.' },
      invoke: {
        id: 'loadResellerProducts',
        src: 'loadResellerProducts',
        onDone: [
          {
            guard: { type: 'hasProducts', params: ({ event }) => ({ count: event.output.products.length }) },
            target: 'ready',
            actions: { type: 'storeProducts', params: ({ event }) => ({ products: event.output.products }) },
            description: 'Products found: the second is selected (the first if only one).',
            meta: { product: 'Plans arrive and the second is chosen (the only one when there is just one).' },
          },
          { target: 'empty', description: 'No reseller product is offered.', meta: { product: 'No reseller plan is on offer.' } },
        ],
        onError: {
          target: 'failed',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
          description: 'The products could not be loaded.',
          meta: { product: 'The reseller plans could not be loaded.' },
        },
      },
    },
    failed: {
      description: 'The products could not be loaded: message and retry button.',
      meta: { product: 'The plans could not be loaded; the visitor sees a message and a button to try again.' },
      on: { 'products.retry': { target: 'loading', actions: 'clearError', description: 'Loads the products again.', meta: { product: 'The visitor tries again.' } } },
    },
    empty: {
      description: 'No reseller product is offered.',
      meta: { product: 'No reseller plan is on offer.' },
    },
    ready: {
      description: 'Reseller products, "already a reseller?" yes/no, e-mail, password (and confirmation for a new reseller), gateways.',
      meta: { product: 'The reseller form: plans, "already a reseller?", e-mail, password (confirmed when new) and payment methods.' },
      on: {
        'plan.select': {
          guard: { type: 'isResellerProduct', params: eventFields },
          actions: { type: 'selectPlan', params: eventFields },
          description: 'Selects a reseller product.',
          meta: { product: 'The visitor picks a reseller plan.' },
        },
        'reseller.choose': {
          actions: { type: 'chooseExisting', params: eventFields },
          description: 'Existing reseller (sign in) or new reseller (sign up, adds the new-reseller product).',
          meta: { product: 'The visitor says whether they are already a reseller (sign in) or new (sign up, adding the new-reseller plan).' },
        },
        'email.change': {
          actions: { type: 'setEmail', params: eventFields },
          description: 'Updates the e-mail and its shape check.',
          meta: { product: 'The visitor types their e-mail and learns whether it looks valid.' },
        },
        'password.change': {
          actions: { type: 'setPassword', params: eventFields },
          description: 'Updates the password.',
          meta: { product: 'The visitor types a password.' },
        },
        'confirmation.change': {
          actions: { type: 'setConfirmation', params: eventFields },
          description: 'Updates the confirmation and the mismatch check.',
          meta: { product: 'The visitor repeats the password and learns whether both match.' },
        },
        'gateway.select': {
          guard: { type: 'isKnownGateway', params: eventFields },
          actions: { type: 'selectGateway', params: eventFields },
          description: 'Selects the payment gateway.',
          meta: { product: 'The visitor picks a payment method.' },
        },
        'order.submit': [
          { guard: 'canOrderSignedIn', target: 'ordering', actions: 'clearError', description: 'Signed in already: order again.', meta: { product: 'The reseller is signed in already, so the order is placed at once.' } },
          { guard: 'formComplete', target: 'authenticating', actions: 'clearError', description: 'The form is complete: sign in or sign up.', meta: { product: 'The form is complete, so the visitor is signed in or signed up.' } },
          { actions: 'revealErrors', description: 'The form is incomplete: show what is wrong.', meta: { product: 'Something is missing or wrong, so the form shows what to fix.' } },
        ],
      },
    },
    authenticating: {
      description: 'Signs the reseller in or up; a second submit is ignored.',
      meta: { product: 'The visitor waits a moment while they are signed in or up; pressing again does nothing.' },
      invoke: {
        id: 'resellerAuth',
        src: 'resellerAuth',
        input: ({ context }) => ({ email: context.email, password: context.password, existingReseller: context.existingReseller }),
        onDone: {
          target: 'ordering',
          actions: { type: 'storeUser', params: ({ event }) => ({ user: event.output }) },
          description: 'Signed in: create the order.',
          meta: { product: 'The reseller is signed in and the order is placed.' },
        },
        onError: {
          target: 'ready',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
          description: 'Sign-in or sign-up refused: the server message is shown, the form is kept.',
          meta: { product: 'Signing in or up was refused; the visitor sees the reason and keeps what they typed.' },
        },
      },
    },
    ordering: {
      description: 'Creates the reseller order; a second submit is ignored.',
      meta: { product: 'The reseller order is being placed; pressing again does nothing.' },
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
            meta: { product: 'The order is placed: the reseller goes on to the payment page.' },
          },
          {
            target: 'placed',
            actions: { type: 'storeOrder', params: ({ event }) => ({ order: event.output }) },
            description: 'Order created without a link: straight to the reseller waiting page.',
            meta: { product: 'The order is placed without a payment link, so the reseller goes straight to the waiting page.' },
          },
        ],
        onError: {
          target: 'ready',
          actions: { type: 'storeError', params: ({ event }) => ({ error: event.error }) },
          description: 'The order was refused: the server message is shown, the choices are kept.',
          meta: { product: 'The order was refused; the reseller sees the reason and keeps their choices.' },
        },
      },
    },
    redirecting: {
      description: 'The payment page opens; the reseller waiting step takes over.',
      meta: { product: 'The payment page opens; afterwards the reseller waiting page follows the payment.' },
      type: 'final',
      entry: { type: 'redirectToPayment', params: ({ context }) => ({ link: context.paymentLink ?? '' }) },
    },
    placed: {
      description: 'The order has no payment link yet: the reseller waiting step takes over (it can make a new link).',
      meta: { product: 'The order has no payment link yet, so the reseller waiting page opens and can make one.' },
      type: 'final',
      entry: 'goToWaiting',
    },
    successGuard: {
      description: 'The reseller success page: shown only to a logged-in user with an Active reseller service.',
      meta: { product: 'The reseller success page, shown only to a signed-in reseller whose service is active.' },
      initial: 'checking',
      states: {
        checking: {
          description: 'Looks the reseller service up.',
          meta: { product: "The reseller's service is being looked up." },
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
                meta: { product: 'The service is active: the reseller sees the success page.' },
              },
              { target: 'denied', description: 'The reseller service is not Active: back to the reseller page.', meta: { product: 'The service is not active yet, so the visitor goes back to the reseller page.' } },
            ],
            onError: { target: 'denied', description: 'The lookup failed: back to the reseller page.', meta: { product: 'The service could not be looked up, so the visitor goes back to the reseller page.' } },
          },
        },
        allowed: {
          description: 'The reseller success page is shown.',
          meta: { product: 'The reseller sees the success page.' },
          type: 'final',
        },
        denied: {
          id: 'resellerDenied',
          description: 'Redirected to the localized reseller page.',
          meta: { product: 'The visitor is sent to the reseller page in their language.' },
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
