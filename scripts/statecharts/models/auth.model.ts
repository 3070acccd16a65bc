import { isUserId } from '../../../src/domain/user-id';
import { fromPromise, type AnyEventObject, type AnyMachineSnapshot } from 'xstate';
import { authMachine, authMachineDocs, type AuthInput, type AuthResult } from '../../../machines/auth.machine';
import type { MachineModel } from '../graph';

export const modelClient: AuthResult = { userid: 42, email: 'client@example.com' };
export const modelGuest: AuthResult = { userid: 'g_Model0Guest0Handle0001', email: 'ann@example.com' };

/** A plain visit, a link with an `email` query, and a client whose session is still open (with and without an e-mail). */
export const authModelInputs: { name: string; input: AuthInput }[] = [
  { name: 'visit', input: {} },
  { name: 'link with e-mail', input: { query: { email: 'ann@example.com' } } },
  { name: 'returning client', input: { session: { loggedIn: true, guest: false, userid: 42, email: 'client@example.com' } } },
  // A session the server knows without an e-mail: logged in, but Sign Out is not offered.
  { name: 'returning client without e-mail', input: { session: { loggedIn: true, guest: false, userid: 42, email: null } } },
];

const never = () => new Promise<never>(() => {});

/** The real machine with actors that never settle and actions that do nothing. */
const machine = authMachine.provide({
  actors: {
    login: fromPromise<AuthResult, { email: string; password: string }>(never),
    identifyGuest: fromPromise<AuthResult, { email: string }>(never),
    signOut: fromPromise<{ loggedIn: false }>(never),
    requestSignInLink: fromPromise<{ accepted: true }, { email: string; redirect: string }>(never),
  },
  actions: { clearSession: () => {}, goHome: () => {} },
});

const done = (id: string, output: unknown): AnyEventObject => ({ type: `xstate.done.actor.${id}`, output });
const failed = (id: string, message: string): AnyEventObject => ({ type: `xstate.error.actor.${id}`, error: new Error(message) });

function events(snapshot: AnyMachineSnapshot): AnyEventObject[] {
  if (snapshot.matches('loggedOut') || snapshot.matches('linkSent')) {
    const context = snapshot.context as { loginError: string | null; linkError: string | null };
    // The panel sends a change only while it shows an error.
    const edit = snapshot.matches('loggedOut') && (context.loginError !== null || context.linkError !== null) ? [{ type: 'auth.edit' }] : [];
    return [
      ...edit,
      { type: 'auth.login', email: 'client@example.com', password: 'secret' },
      { type: 'auth.login', email: 'client@example.com', password: '' },
      { type: 'auth.requestLink', email: 'ann@example.com', redirect: '/checkout/' },
      { type: 'auth.requestLink', email: 'ann', redirect: '/checkout/' },
    ];
  }
  if (snapshot.matches('requestingLink')) return [done('requestSignInLink', { accepted: true }), failed('requestSignInLink', 'Too many attempts')];
  if (snapshot.matches('loggingIn')) return [done('login', modelClient), failed('login', 'Email or Password Invalid')];
  if (snapshot.matches('identifyingGuest')) return [done('identifyGuest', modelGuest), done('identifyGuest', { userid: 0, email: '' }), failed('identifyGuest', 'Bad gateway')];
  if (snapshot.matches('loggedIn')) return [{ type: 'auth.signOut' }];
  if (snapshot.matches('signingOut')) return [done('signOut', { loggedIn: false }), failed('signOut', 'Bad gateway')];
  return [];
}

function describeEvent(event: AnyEventObject): string {
  switch (event.type) {
    case 'auth.login':
      return event.password ? `log in as ${String(event.email)}` : 'log in without password';
    case 'auth.signOut':
      return 'sign out';
    case 'auth.edit':
      return 'change a field of the refused login';
    case 'auth.requestLink':
      return `ask for a sign-in link for "${String(event.email)}"`;
    case 'xstate.done.actor.requestSignInLink':
      return 'link request accepted';
    case 'xstate.error.actor.requestSignInLink':
      return 'link request fails';
    case 'xstate.done.actor.login':
      return 'login accepted';
    case 'xstate.error.actor.login':
      return `login refused ("${(event.error as Error).message}")`;
    case 'xstate.done.actor.identifyGuest':
      return isUserId((event.output as AuthResult).userid) ? 'guest identified' : 'guest identified without user id';
    case 'xstate.error.actor.identifyGuest':
      return 'guest identification fails';
    case 'xstate.done.actor.signOut':
      return 'session ended';
    case 'xstate.error.actor.signOut':
      return 'sign out fails';
    default:
      return event.type;
  }
}

export const authModel: MachineModel = {
  name: 'auth',
  machine,
  inputs: authModelInputs,
  events,
  describeEvent,
  expectedPaths: 15,
  expectedPairs: { walked: 17, total: 50 },
  docs: authMachineDocs,
};
