/** The auth machine's paths walked through the header and the login panel of the checkout page. */
import { isUserId } from '../../src/domain/user-id';
import { screen, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { AnyEventObject, StateValue } from 'xstate';
import type { AuthContext, AuthInput, AuthResult } from '../../machines/auth.machine';
import { authModel } from '../../scripts/statecharts/models/auth.model';
import { APP_MESSAGES, SPEC_MESSAGES } from '../facts/messages';
import { apiError } from '../support/fake-api';
import { en, fill } from './texts';
import { describeViewWalk, refusedInputs, shown, type Page } from './walk';

const anonymous = { loggedIn: false, guest: false, userid: null, email: null };

/** A returning client opens the upsell (a page for clients only), so signing out visibly goes home. */
interface AuthPage extends Page {
  input: AuthInput;
  /** The alert the login panel must show after the last link request, from what the walk sent and answered. */
  linkAlert?: string;
}

/** The model's e-mails for a link request that are not addresses (the form says "Please enter a Valid Email."). */
const NOT_ADDRESSES = new Set(['ann']);

const pageOf = (input: AuthInput) => (input.session?.loggedIn ? '/upsell' : '/');

const loginForm = () => screen.getByRole('form', { name: en.login.submit });

/** The login panel sits in a disclosure of the checkout page; it stays open between steps. */
async function openLoginPanel(page: Page): Promise<HTMLElement> {
  if (!screen.queryByRole('form', { name: en.login.submit })) await page.user.click(screen.getByText(en.login.title));
  return shown(loginForm, 'the login panel');
}

/** Replaces what a field holds (a step's value is the whole field, not more keys on top). */
async function typeInto(page: Page, field: HTMLElement, value: string): Promise<void> {
  await page.user.clear(field);
  if (value) await page.user.type(field, value);
}
const signOutButton = () => screen.queryByRole('button', { name: new RegExp(`^(${en.app.signOut}|${en.app.signingOut})$`) });

async function perform(event: AnyEventObject, page: AuthPage): Promise<void> {
  const { api, user } = page;
  switch (event.type) {
    case 'auth.login': {
      const form = await openLoginPanel(page);
      await typeInto(page, within(form).getByRole('textbox', { name: en.login.email }), String(event.email));
      await typeInto(page, within(form).getByLabelText(en.login.password), String(event.password));
      return user.click(within(form).getByRole('button', { name: en.login.submit }));
    }
    case 'auth.requestLink': {
      page.linkAlert = NOT_ADDRESSES.has(String(event.email)) ? SPEC_MESSAGES.invalidEmail : undefined;
      const form = await openLoginPanel(page);
      await typeInto(page, within(form).getByRole('textbox', { name: en.login.email }), String(event.email));
      return user.click(within(form).getByRole('button', { name: en.login.requestLink }));
    }
    case 'xstate.done.actor.requestSignInLink': {
      const request = await api.respond('signInLink', new Response(JSON.stringify({ accepted: true }), { status: 202, headers: { 'content-type': 'application/json' } }));
      expect(request.method).toBe('POST');
      // The link lands back on the page the shopper asked from (the checkout page, under /checkout/).
      expect(new URL(request.url).pathname).toBe('/checkout/api/signInLink');
      expect(((await request.clone().json()) as { redirect: string }).redirect).toMatch(/^\/checkout\/(\?|$)/);
      return;
    }
    case 'xstate.error.actor.requestSignInLink':
      page.linkAlert = APP_MESSAGES.rateLimited;
      await api.respond('signInLink', apiError(429, 'rate_limited', 'Too many attempts'));
      return;
    case 'xstate.done.actor.login': {
      const { userid, email } = event.output as AuthResult;
      await api.respond('auth', { userid, email, loggedIn: true });
      return;
    }
    case 'xstate.error.actor.login':
      await api.respond('auth', apiError(401, 'invalid_credentials', 'Email or Password Invalid'));
      return;
    case 'xstate.done.actor.identifyGuest': {
      const output = event.output as AuthResult;
      await api.respond('authMiddleware', output, isUserId(output.userid) ? {} : { offContract: 'userid 0 (the contract says a guest handle): the branch for a server that answers without a user id' });
      return;
    }
    case 'xstate.error.actor.identifyGuest':
      await api.respond('authMiddleware', apiError(502, 'bad_gateway', 'Bad gateway'));
      return;
    case 'auth.signOut':
      return user.click(screen.getByRole('button', { name: en.app.signOut }));
    case 'auth.edit':
      // The shopper corrects the password: one more character.
      return user.type(within(loginForm()).getByLabelText(en.login.password), 'x');
    case 'xstate.done.actor.signOut':
      await api.respond('signOut', { loggedIn: false });
      return;
    case 'xstate.error.actor.signOut':
      await api.respond('signOut', apiError(502, 'bad_gateway', 'Bad gateway'));
      return;
    default:
      throw new Error(`No way to perform ${event.type} in the header or the login panel`);
  }
}

async function see(value: StateValue, context: AuthContext, page: AuthPage): Promise<void> {
  // Signing out goes home; until then the page stays where the visitor opened it.
  const where = value === 'loggedIn' || value === 'signingOut' ? pageOf(page.input) : '/';
  await shown(() => screen.getByRole('heading', { level: 1, name: where === '/' ? en.checkout.title : en.upsell.title }), `the page at ${where}`);
  expect(page.rendered.app.router.state.location.pathname).toBe(where);
  const header = screen.getByRole('banner');
  switch (value) {
    case 'identifyingGuest':
      // Who orders is not known yet: the order form waits.
      expect(within(screen.getByRole('main')).getByText(en.app.loading)).toBeTruthy();
      expect(screen.queryByText(en.login.title)).toBeNull();
      expect(signOutButton()).toBeNull();
      return;
    case 'loggedOut':
    case 'loggingIn':
    case 'requestingLink':
    case 'linkSent': {
      expect(signOutButton()).toBeNull();
      expect(screen.getByText(en.login.title)).toBeTruthy();
      if (value === 'loggingIn') {
        expect(within(loginForm()).getByRole('button', { name: en.login.submitting }).getAttribute('aria-disabled')).toBe('true');
      } else if (value === 'requestingLink') {
        expect(within(loginForm()).getByRole('button', { name: en.login.requestingLink }).getAttribute('aria-disabled')).toBe('true');
        expect(within(loginForm()).queryByRole('alert')).toBeNull();
      } else if (value === 'linkSent') {
        // The same words whether or not the address has an account, in a polite live region.
        expect(within(loginForm()).getByRole('status').textContent).toBe(APP_MESSAGES.linkSent);
        expect(within(loginForm()).queryByRole('alert')).toBeNull();
      } else if (context.loginError) {
        expect(within(loginForm()).getByRole('alert').textContent).toBe(APP_MESSAGES.invalidCredentials);
        // A refused password says plainly that a new account's address must be confirmed first, next to the link button.
        expect(within(loginForm()).getByText(en.login.confirmFirst)).toBeTruthy();
        expect(within(loginForm()).getByRole('button', { name: en.login.requestLink, description: en.login.confirmFirst })).toBeTruthy();
      } else if (context.linkError) {
        expect(within(loginForm()).queryByText(en.login.confirmFirst)).toBeNull();
        expect(within(loginForm()).getByRole('alert').textContent).toBe(page.linkAlert);
        expect(within(loginForm()).getByRole('status').textContent).toBe('');
      } else if (screen.queryByRole('form', { name: en.login.submit })) {
        // No error, or one a changed field made stale: nothing is said.
        expect(within(loginForm()).queryByRole('alert')).toBeNull();
        expect(within(loginForm()).queryByText(en.login.confirmFirst)).toBeNull();
      }
      // The order form is for a guest: it asks for an e-mail.
      await shown(() => screen.getByRole('textbox', { name: en.checkout.email, description: en.checkout.emailHint }), 'the guest e-mail field');
      return;
    }
    case 'loggedIn':
    case 'signingOut': {
      const user = context.user!;
      if (user.email === '') {
        // A session without an e-mail is logged in, but Sign Out is not offered (spec section 1).
        await shown(() => screen.queryByText(en.login.title) === null, 'no login panel');
        expect(within(header).queryByRole('button', { name: en.app.signOut })).toBeNull();
        return;
      }
      const button = await shown(() => within(header).getByRole('button', { name: value === 'signingOut' ? en.app.signingOut : en.app.signOut }), 'Sign Out');
      expect(button.getAttribute('aria-disabled')).toBe(value === 'signingOut' ? 'true' : null);
      expect(screen.queryByText(en.login.title)).toBeNull();
      if (context.signOutError) expect(within(header).getByRole('alert').textContent).toBe(APP_MESSAGES.requestFailed);
      else expect(within(header).queryByRole('alert')).toBeNull();
      if (where === '/') await shown(() => screen.getByText(fill(en.checkout.orderingAs, { email: user.email })), 'the order placed for the user');
      else await shown(() => screen.getByRole('slider', { name: en.upsell.quantity }), "the client's upsell form");
      return;
    }
    default:
      throw new Error(`No screen known for auth state ${JSON.stringify(value)}`);
  }
}

describeViewWalk<AuthPage>({
  model: authModel,
  open: async (path, base) => {
    const input = path.input as AuthInput;
    const email = input.query?.email;
    const page = await base({
      url: `/checkout${pageOf(input)}${email ? `?email=${encodeURIComponent(email)}` : ''}`,
      api: { answers: { session: input.session ?? anonymous }, hold: { auth: Infinity, authMiddleware: Infinity, signOut: Infinity, signInLink: Infinity } },
    });
    return { ...page, input };
  },
  offView: refusedInputs({
    'auth.signOut': 'Sign Out is shown only to a user with both a user id and an e-mail',
    'auth.login': 'the login button stays disabled until the e-mail is valid and a password is typed',
  }),
  perform: (step, page) => perform(step.event, page),
  see: (state, page) => see(state.value, state.context as AuthContext, page),
  project: (_value, context) => {
    const { loginError, signOutError, linkError, ...rest } = context as AuthContext;
    // A server's message is the API's code in the app and a made-up text in the model: only its presence is compared.
    return { ...rest, loginError: loginError !== null, signOutError: signOutError !== null, linkError: linkError !== null };
  },
});
