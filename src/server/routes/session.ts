import { currencyForCountry } from '../../domain/currency';
import type { BillingPort, Client } from '../billing/port';
import { newPasswordProblem, MIN_PASSWORD_LENGTH } from '../../domain/password';
import { badRequest, HttpError } from '../http-error';
import { hashPassword, verifyPassword } from '../secrets';
import { endSession, guestHandle, reachesClient, readSession, requireLogin, startSession } from '../session';
import { shopperLocale } from '../mail/locale';
import { visitorOf } from '../visitor';
import type { Handlers, RouteDeps } from './types';

const invalidLogin = () => new HttpError(401, 'invalid_credentials', 'Email or Password Invalid');

/** The refusals of a new account's password (the contract's minLength refuses a short one first, for the same rule). */
const PASSWORD_REFUSALS = {
  tooShort: () => badRequest(`Choose a password of at least ${MIN_PASSWORD_LENGTH} characters.`, 'password_too_short'),
  isEmail: () => badRequest('Choose a password that is not your e-mail address.', 'password_is_email'),
};

/** A password opens a client: the checkout's own hash once the address is proved, or else the billing system's own check (WHMCS ValidateLogin). */
async function passwordOpens(billing: BillingPort, client: Client | null, password: string): Promise<boolean> {
  if (client && !client.passwordHash && billing.validateLogin) return billing.validateLogin(client.email, password);
  return (await verifyPassword(password, client?.passwordHash ?? null)) && Boolean(client?.emailVerified);
}

/** Sign-in, guest identification by e-mail, reseller sign-in or sign-up, and what the session is. */
export function sessionRoutes({ billing, config }: RouteDeps): Handlers<'auth' | 'authMiddleware' | 'resellerAuth' | 'isReseller' | 'getCurrency' | 'signOut' | 'getSession'> {
  return {
    async auth(request, reply) {
      await request.server.signInThrottle.attempt(request.body.email, reply);
      const client = await billing.clientByEmail(request.body.email);
      // A password opens an account only once its address is proved, so a sign-up with someone else's address opens nothing.
      if (!(await passwordOpens(billing, client, request.body.password)) || !client) throw invalidLogin();
      await request.server.signInThrottle.succeeded(request.body.email);
      await startSession(request, reply, { clientId: client.id, kind: 'password' });
      return { userid: client.id, email: client.email, loggedIn: true };
    },

    async authMiddleware(request, reply) {
      const current = await readSession(request);
      // A new client's currency is its country's (WHMCS bills each client in one currency).
      const client = await billing.guestClient(request.body.email, currencyForCountry(visitorOf(request, config).country));
      // The same client's session stays as it is; anything else begins a guest session scoped to the orders placed in it.
      const session = current?.clientId === client.id ? current : await startSession(request, reply, { clientId: client.id, kind: 'guest' });
      // The session's opaque handle, never the client's id: a known address answers exactly as a new one.
      return { userid: guestHandle(session), email: client.email };
    },

    async resellerAuth(request, reply) {
      const { email, password, existingReseller } = request.body;
      // A reseller's sign-in shares the account's budget of failed sign-ins with auth.
      if (existingReseller) await request.server.signInThrottle.attempt(email, reply);
      // A sign-up's password is checked before anything is read, written or mailed, so the refusal tells nothing of the address.
      const problem = existingReseller ? null : newPasswordProblem(password, email);
      if (problem) throw PASSWORD_REFUSALS[problem]();
      const existing = await billing.clientByEmail(email);
      if (existingReseller) {
        if (!(await passwordOpens(billing, existing, password)) || !existing) throw invalidLogin();
        await request.server.signInThrottle.succeeded(email);
        await startSession(request, reply, { clientId: existing.id, kind: 'password' });
        return { userid: existing.id, email: existing.email, reseller: existing.reseller };
      }
      // A sign-up answers alike whether or not the address has an account, so the answer tells nothing: a known
      // address keeps its password, and its owner is mailed a sign-in link saying someone tried.
      const client = existing ?? await billing.createClient({ email, passwordHash: await hashPassword(password), reseller: false, currency: currencyForCountry(visitorOf(request, config).country) }) ?? await billing.clientByEmail(email);
      if (!client) throw new Error('The signed-up client was not found');
      // Either way the session reaches only what it orders here, until the address is proved by the link mailed to it.
      const session = await startSession(request, reply, { clientId: client.id, kind: 'signup' });
      await request.server.signInLinks.request(email, '/checkout/resellers', shopperLocale(request, visitorOf(request, config).country), existing ? 'sign-up-taken' : 'sign-up');
      // The session's handle, not the id of an account the address may already have.
      return { userid: guestHandle(session), email: client.email, reseller: false };
    },

    async isReseller(request) {
      const session = await requireLogin(request);
      const client = await billing.clientById(session.clientId);
      return { reseller: client?.reseller ?? false };
    },

    async getCurrency(request) {
      const { country } = visitorOf(request, config);
      return { country, currency: currencyForCountry(country) };
    },

    async signOut(request, reply) {
      await endSession(request, reply);
      return { loggedIn: false as const };
    },

    async getSession(request) {
      const session = await readSession(request);
      return {
        loggedIn: session?.kind === 'login',
        guest: session?.kind === 'guest',
        // A guest or an unproved sign-up is told its session's handle, not whose account the address belongs to.
        userid: !session ? null : reachesClient(session) ? session.clientId : guestHandle(session),
        email: session?.email ?? null,
      };
    },
  };
}
