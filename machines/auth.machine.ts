/**
 * Who the visitor is: logged out, logging in, logged in (a client, or a guest identified by the
 * `email` query), signing out; a logged-out visitor may ask for a one-time sign-in link by e-mail.
 */
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { isValidEmail } from '../src/domain/email';
import { isSafeRedirectTarget } from '../src/domain/redirect';
import { isUserId, type UserId } from '../src/domain/user-id';
import type { AuthResponse, GuestAuthResponse, Session } from '../src/api/client';
import type { ProductWords } from './product-words';

/** The user of the session; a guest was identified by e-mail and can only order. */
export interface AuthUser {
  /** A client's id, or a guest's opaque handle. */
  userid: UserId;
  email: string;
  guest: boolean;
}

/** The session as the server last told it (GET /api/session), if any. */
export type AuthSession = Session;

export interface AuthInput {
  session?: AuthSession | null;
  /** Query parameters on entry: `email` identifies a guest automatically. */
  query?: { email?: string };
  /** A redirect target saved before login; kept only when it is a safe in-app path. */
  redirectTarget?: string | null;
}

export interface AuthContext {
  user: AuthUser | null;
  /** The e-mail of the `email` query, waiting for the automatic login. */
  queryEmail: string | null;
  /** The server's message of the last failed login (e.g. 'Email or Password Invalid'). */
  loginError: string | null;
  /** The server's message of the last failed sign out. */
  signOutError: string | null;
  /** Why the last sign-in link request failed: 'email.invalid' or the server's message. */
  linkError: string | null;
  redirectTarget: string | null;
}

export type AuthEvent =
  | { type: 'auth.login'; email: string; password: string }
  /** "E-mail me a sign-in link": `redirect` is the page the link lands on (the server keeps only paths under /checkout/). */
  | { type: 'auth.requestLink'; email: string; redirect: string }
  | { type: 'auth.signOut' }
  /** The e-mail or the password was changed while an error is shown: the error is about what was there before. */
  | { type: 'auth.edit' };

/** What the login and identifyGuest actors return: a client's id (auth), or a guest's opaque handle (authMiddleware). */
export type AuthResult = Pick<AuthResponse | GuestAuthResponse, 'userid' | 'email'>;

type GuardArgs = { context: AuthContext; event: AuthEvent };

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error !== null && 'message' in error) return String((error as { message: unknown }).message);
  return String(error);
}

/** Sign Out is offered only to a logged-in user with both a user id and an e-mail (spec section 1). */
export function hasSignOutIdentity(user: AuthUser | null): boolean {
  return user !== null && isUserId(user.userid) && user.email !== '';
}

/** Every guard of the auth machine, exported for unit tests. */
export const authGuards = {
  hasSession: ({ context }: GuardArgs) => context.user !== null,
  hasEmailQuery: ({ context }: GuardArgs) => context.queryEmail !== null,
  hasCredentials: ({ event }: GuardArgs) => event.type === 'auth.login' && isValidEmail(event.email) && event.password !== '',
  hasLinkEmail: ({ event }: GuardArgs) => event.type === 'auth.requestLink' && isValidEmail(event.email.trim()),
  hasUserId: (_args: GuardArgs, params: { result: AuthResult }) => isUserId(params.result.userid),
  canSignOut: ({ context }: GuardArgs) => hasSignOutIdentity(context.user),
};

const notProvided = (name: string) => () => Promise.reject(new Error(`${name} not provided`));

/** Documentation of every actor, action and guard; printed in docs/statecharts/auth.md. */
export const authMachineDocs = {
  actors: {
    login: { input: '{ email: string; password: string }', output: 'AuthResult { userid, email } (POST /api/auth); rejects with the server message', description: 'Logs a client in; the session cookie is set by the server.' },
    identifyGuest: { input: '{ email: string }', output: 'AuthResult { userid (an opaque guest handle), email } (POST /api/authMiddleware)', description: 'Identifies a guest from the `email` query; the guest can only order.' },
    signOut: { input: 'none', output: '{ loggedIn: false } (POST /api/signOut)', description: 'Ends the session on the server and clears its cookie.' },
    requestSignInLink: {
      input: '{ email: string; redirect: string }',
      output: '{ accepted: true } (POST /api/signInLink, 202 whether or not the address is known)',
      description: 'Asks the server to mail a one-time sign-in link (one use, 15 minutes) landing on the current page.',
    },
  },
  actions: {
    clearSession: {
      input: 'none',
      output: 'none',
      description: 'Clears what spec section 4 lists: the user, the waiting date, the discount, the client product, payment and order data, and the user fields (persisted stores).',
    },
    goHome: { input: 'none', output: 'none', description: 'Navigates to the home page.' },
  },
  guards: {
    hasSession: { description: 'The server already knows the user (session restored).' },
    hasEmailQuery: { description: 'The URL has an `email` query of a valid shape.' },
    hasCredentials: { description: 'The login has an e-mail of a valid shape and a password.' },
    hasLinkEmail: { description: 'The sign-in link request has an e-mail of a valid shape.' },
    hasUserId: { description: 'The server returned a user: a positive client id, or a guest\'s opaque handle.' },
    canSignOut: { description: 'Logged in with both a user id and an e-mail: Sign Out is shown.' },
  },
} as const;

/** The user a restored session stands for: a login, or a guest this browser identified by e-mail. */
function userOfSession(session: AuthSession | null | undefined): AuthUser | null {
  if (!session || !(session.loggedIn || session.guest) || !isUserId(session.userid)) return null;
  return { userid: session.userid, email: session.email ?? '', guest: session.guest };
}

export const authMachine = setup({
  types: {
    meta: {} as ProductWords,
    context: {} as AuthContext,
    events: {} as AuthEvent,
    input: {} as AuthInput,
  },
  actors: {
    login: fromPromise<AuthResult, { email: string; password: string }>(notProvided('login')),
    identifyGuest: fromPromise<AuthResult, { email: string }>(notProvided('identifyGuest')),
    signOut: fromPromise<{ loggedIn: false }>(notProvided('signOut')),
    requestSignInLink: fromPromise<{ accepted: true }, { email: string; redirect: string }>(notProvided('requestSignInLink')),
  },
  actions: {
    clearSession: () => {},
    goHome: () => {},
  },
  guards: authGuards,
}).createMachine({
  id: 'auth',
  description: 'Logged out, logging in, logged in; automatic login from the `email` query; sign out; a sign-in link by e-mail.',
  meta: { product: 'Signing in and out: with a password, with a link sent by e-mail, or at once from a link that carries the e-mail.' },
  context: ({ input }) => {
    const queryEmail = input.query?.email?.trim() ?? '';
    return {
      user: userOfSession(input.session),
      queryEmail: isValidEmail(queryEmail) ? queryEmail : null,
      loginError: null,
      signOutError: null,
      linkError: null,
      // Kept only when it is a safe in-app path; nothing redirects automatically (spec sections 4 and 5).
      redirectTarget: isSafeRedirectTarget(input.redirectTarget) ? input.redirectTarget : null,
    };
  },
  initial: 'starting',
  states: {
    starting: {
      description: 'Picks the start: a known session, an automatic login from the `email` query, or logged out.',
      meta: { product: 'On arrival we look whether the shopper is already signed in or came through a link carrying their e-mail.' },
      always: [
        { guard: 'hasSession', target: 'loggedIn', description: 'The session is known.', meta: { product: 'The shopper is still signed in from an earlier visit.' } },
        { guard: 'hasEmailQuery', target: 'identifyingGuest', description: 'Log the guest in from the `email` query.', meta: { product: "The link carries the shopper's e-mail, so we sign them in as a guest without asking anything." } },
        { target: 'loggedOut', description: 'Nobody is logged in.', meta: { product: 'Nobody is signed in, so the sign-in panel is offered.' } },
      ],
    },
    loggedOut: {
      description: 'The login panel is shown.',
      meta: { product: 'The shopper sees the sign-in panel: e-mail and password, or a sign-in link sent by e-mail.' },
      on: {
        'auth.edit': { description: 'A field changed: the refusal ("Email or Password Invalid") or the link error no longer applies.', meta: { product: 'The shopper edits a field, so the earlier error message goes away.' }, actions: assign({ loginError: null, linkError: null }) },
        'auth.login': { guard: 'hasCredentials', target: 'loggingIn', description: 'Log in with e-mail and password.', meta: { product: 'The shopper has typed an e-mail and a password and asks to sign in.' }, actions: assign({ loginError: null, linkError: null }) },
        'auth.requestLink': [
          { guard: 'hasLinkEmail', target: 'requestingLink', description: 'E-mail me a sign-in link.', meta: { product: 'The shopper asks us to e-mail a sign-in link to the address they typed.' }, actions: assign({ loginError: null, linkError: null }) },
          { target: 'loggedOut', description: 'No valid e-mail typed: say so, send nothing.', meta: { product: 'The typed address is not an e-mail address: the shopper is told so and nothing is sent.' }, actions: assign({ loginError: null, linkError: 'email.invalid' }) },
        ],
      },
    },
    requestingLink: {
      description: 'Asking the server to mail a sign-in link; the panel says it is sending.',
      meta: { product: 'The panel shows that the sign-in link is being sent.' },
      invoke: {
        id: 'requestSignInLink',
        src: 'requestSignInLink',
        input: ({ event }) => (event.type === 'auth.requestLink' ? { email: event.email.trim(), redirect: event.redirect } : { email: '', redirect: '' }),
        onDone: { target: 'linkSent', description: 'Accepted: say a link was mailed if the address has an account.', meta: { product: 'The panel says a link is on its way if the address belongs to an account.' } },
        onError: {
          target: 'loggedOut',
          description: 'The request failed (network, 429, 5xx): show why; the shopper may try again.',
          meta: { product: 'The link could not be sent; the shopper sees why and may try again.' },
          actions: assign({ linkError: ({ event }) => errorMessage(event.error) }),
        },
      },
    },
    linkSent: {
      description: 'The panel confirms the request (the same words for any address); the shopper may log in or ask again.',
      meta: { product: 'The shopper is told a sign-in link was sent; they may still sign in with a password or ask again.' },
      on: {
        'auth.login': { guard: 'hasCredentials', target: 'loggingIn', description: 'Log in with e-mail and password.', meta: { product: 'The shopper has typed an e-mail and a password and asks to sign in.' }, actions: assign({ loginError: null, linkError: null }) },
        'auth.requestLink': [
          { guard: 'hasLinkEmail', target: 'requestingLink', description: 'E-mail me a sign-in link.', meta: { product: 'The shopper asks us to e-mail a sign-in link to the address they typed.' }, actions: assign({ loginError: null, linkError: null }) },
          { target: 'loggedOut', description: 'No valid e-mail typed: say so, send nothing.', meta: { product: 'The typed address is not an e-mail address: the shopper is told so and nothing is sent.' }, actions: assign({ loginError: null, linkError: 'email.invalid' }) },
        ],
      },
    },
    loggingIn: {
      description: 'Checking e-mail and password.',
      meta: { product: 'The shopper waits a moment while their e-mail and password are checked.' },
      invoke: {
        id: 'login',
        src: 'login',
        input: ({ event }) => (event.type === 'auth.login' ? { email: event.email.trim(), password: event.password } : { email: '', password: '' }),
        onDone: {
          target: 'loggedIn',
          description: 'Logged in: keep the user.',
          meta: { product: 'The password was right: the shopper is signed in.' },
          actions: assign({ user: ({ event }) => ({ userid: event.output.userid, email: event.output.email, guest: false }), loginError: null }),
        },
        onError: {
          target: 'loggedOut',
          description: "Refused: show the server's message.",
          meta: { product: 'The e-mail or password was not accepted; the shopper sees the message and can try again.' },
          actions: assign({ loginError: ({ event }) => errorMessage(event.error) }),
        },
      },
    },
    identifyingGuest: {
      description: 'Automatic login of a guest from the `email` query.',
      meta: { product: 'The shopper is signed in as a guest from the e-mail address in their link.' },
      invoke: {
        id: 'identifyGuest',
        src: 'identifyGuest',
        input: ({ context }) => ({ email: context.queryEmail ?? '' }),
        onDone: [
          {
            guard: { type: 'hasUserId', params: ({ event }) => ({ result: event.output }) },
            target: 'loggedIn',
            description: 'The guest is identified.',
            meta: { product: 'The guest is recognised and signed in without typing anything.' },
            actions: assign({ user: ({ event }) => ({ userid: event.output.userid, email: event.output.email, guest: true }), queryEmail: null }),
          },
          { target: 'loggedOut', description: 'No user id: stay logged out silently.', meta: { product: 'The guest could not be recognised; they simply stay signed out, with no error shown.' }, actions: assign({ queryEmail: null }) },
        ],
        onError: { target: 'loggedOut', description: 'Identification failed: stay logged out silently.', meta: { product: 'Signing the guest in failed; they simply stay signed out, with no error shown.' }, actions: assign({ queryEmail: null }) },
      },
    },
    loggedIn: {
      description: 'A client or an identified guest; Sign Out is shown when the user has an id and an e-mail.',
      meta: { product: 'The shopper is signed in, as a client or as a guest; Sign Out is offered when their account allows it.' },
      on: {
        'auth.signOut': { guard: 'canSignOut', target: 'signingOut', description: 'Sign out.', meta: { product: 'The shopper presses Sign Out.' }, actions: assign({ signOutError: null }) },
      },
    },
    signingOut: {
      description: 'Ending the session on the server.',
      meta: { product: 'The shopper waits a moment while we end their session.' },
      invoke: {
        id: 'signOut',
        src: 'signOut',
        onDone: {
          target: 'loggedOut',
          description: 'Signed out: clear everything spec section 4 lists and go home.',
          meta: { product: 'The shopper is signed out, everything remembered about their order is forgotten, and the home page opens.' },
          actions: ['clearSession', assign({ user: null, loginError: null, redirectTarget: null }), 'goHome'],
        },
        onError: {
          target: 'loggedIn',
          description: "The server could not end the session: stay logged in and show its message.",
          meta: { product: 'Signing out failed: the shopper stays signed in and sees the reason.' },
          actions: assign({ signOutError: ({ event }) => errorMessage(event.error) }),
        },
      },
    },
  },
});

/** True when the Sign Out button is shown: logged in with both a user id and an e-mail. */
export function selectCanSignOut(snapshot: SnapshotFrom<typeof authMachine>): boolean {
  return snapshot.matches('loggedIn') && hasSignOutIdentity(snapshot.context.user);
}
