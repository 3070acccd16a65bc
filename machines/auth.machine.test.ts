import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor, type AnyMachineSnapshot } from 'xstate';
import { formatScenario, generatePathsForTest, replayPath, transitionCoverage } from '../scripts/statecharts/graph';
import { authModel, modelClient, modelGuest } from '../scripts/statecharts/models/auth.model';
import { authGuards, authMachine, selectCanSignOut, type AuthContext, type AuthEvent, type AuthInput, type AuthResult } from './auth.machine';

const { paths, error: pathsError } = generatePathsForTest(authModel);

/** What must hold in every snapshot of every path. */
function assertAuthInvariants(snapshot: AnyMachineSnapshot): void {
  const context = snapshot.context as AuthContext;
  if (snapshot.matches('loggedIn')) expect(context.user).not.toBeNull();
  if (snapshot.matches('loggedOut') || snapshot.matches('requestingLink') || snapshot.matches('linkSent')) expect(context.user).toBeNull();
  if (context.redirectTarget !== null) expect(context.redirectTarget).toMatch(/^\/(?!\/)/);
  expect(JSON.stringify(context)).not.toContain('secret');
}

describe('auth machine: generated paths', () => {
  it('generates the expected number of paths (a changed statechart changes this)', () => {
    expect(pathsError).toBeNull();
    expect(paths.length).toBe(authModel.expectedPaths);
  });

  it('walks the expected number of transition pairs, of the expected number reachable (a changed target changes these)', () => {
    expect(transitionCoverage(authModel, paths).transitionPairs).toEqual(authModel.expectedPairs);
  });

  it('walks every transition and guard outcome of the machine, or lists it unreachable with a reason', () => {
    const coverage = transitionCoverage(authModel, paths);
    expect(coverage.transitions.missing).toEqual([]);
    expect(coverage.guardOutcomes.missing).toEqual([]);
    expect(coverage.transitions.walked + coverage.guardOutcomes.walked + coverage.unreachable.length).toBe(coverage.transitions.total + coverage.guardOutcomes.total);
    // Counted in the machine file: every on/always/after/onDone/onError entry, each guarded branch; two outcomes per guard.
    expect([coverage.transitions.total, coverage.guardOutcomes.total]).toEqual([20, 16]);
  });

  it.each(paths.map((path) => [formatScenario(authModel, path), path] as const))('%s', (_scenario, path) => {
    replayPath(authModel, path, (snapshot, step) => {
      expect(snapshot.value).toEqual(step.state.value);
      expect(JSON.parse(JSON.stringify(snapshot.context))).toEqual(step.state.context);
      assertAuthInvariants(snapshot);
    });
  });
});

interface Fakes {
  login?: AuthResult | Error;
  link?: Error;
  guest?: AuthResult | Error;
  signOut?: Error;
}

const settle = <T,>(value: T | Error) => (value instanceof Error ? Promise.reject(value) : Promise.resolve(value));

function startAuth(input: AuthInput, fakes: Fakes = {}) {
  const login = vi.fn(({ input: credentials }: { input: { email: string; password: string } }) => settle(fakes.login ?? { ...modelClient, email: credentials.email }));
  const identifyGuest = vi.fn(({ input: request }: { input: { email: string } }) => settle(fakes.guest ?? { ...modelGuest, email: request.email }));
  const requestSignInLink = vi.fn((_args: { input: { email: string; redirect: string } }) => settle<{ accepted: true }>(fakes.link ?? { accepted: true }));
  const clearSession = vi.fn();
  const goHome = vi.fn();
  const machine = authMachine.provide({
    actors: {
      login: fromPromise(login),
      identifyGuest: fromPromise(identifyGuest),
      signOut: fromPromise(() => settle<{ loggedIn: false }>(fakes.signOut ?? { loggedIn: false })),
      requestSignInLink: fromPromise(requestSignInLink),
    },
    actions: { clearSession: () => clearSession(), goHome: () => goHome() },
  });
  const actor = createActor(machine, { input }).start();
  return { actor, login, identifyGuest, requestSignInLink, clearSession, goHome };
}

const atRest = (snapshot: AnyMachineSnapshot) => snapshot.matches('loggedIn') || snapshot.matches('loggedOut');

describe('auth machine: behaviour', () => {
  it('logs in with e-mail and password, without keeping the password', async () => {
    const { actor, login } = startAuth({});
    actor.send({ type: 'auth.login', email: ' client@example.com ', password: 'secret' });
    await waitFor(actor, (snapshot) => snapshot.matches('loggedIn'));
    expect(login).toHaveBeenCalledWith(expect.objectContaining({ input: { email: 'client@example.com', password: 'secret' } }));
    expect(actor.getSnapshot().context.user).toEqual({ userid: 42, email: 'client@example.com', guest: false });
    expect(JSON.stringify(actor.getSnapshot().context)).not.toContain('secret');
  });

  it("shows the server's message when the login is refused", async () => {
    const { actor } = startAuth({}, { login: new Error('Email or Password Invalid') });
    actor.send({ type: 'auth.login', email: 'client@example.com', password: 'wrong' });
    await waitFor(actor, (snapshot) => snapshot.matches('loggedOut') && snapshot.context.loginError !== null);
    expect(actor.getSnapshot().context.loginError).toBe('Email or Password Invalid');
  });

  it('forgets "Email or Password Invalid" as soon as a field changes (issue 16), and a link error too', async () => {
    const { actor } = startAuth({}, { login: new Error('Email or Password Invalid') });
    actor.send({ type: 'auth.login', email: 'client@example.com', password: 'wrong' });
    await waitFor(actor, (snapshot) => snapshot.context.loginError !== null);
    actor.send({ type: 'auth.edit' });
    expect(actor.getSnapshot().matches('loggedOut')).toBe(true);
    expect(actor.getSnapshot().context.loginError).toBeNull();
    actor.send({ type: 'auth.requestLink', email: 'ann', redirect: '/checkout/' });
    expect(actor.getSnapshot().context.linkError).toBe('email.invalid');
    actor.send({ type: 'auth.edit' });
    expect(actor.getSnapshot().context.linkError).toBeNull();
  });

  it('does not call the server without a password or with a malformed e-mail', () => {
    const { actor, login } = startAuth({});
    actor.send({ type: 'auth.login', email: 'client@example.com', password: '' });
    actor.send({ type: 'auth.login', email: 'client', password: 'secret' });
    expect(actor.getSnapshot().value).toBe('loggedOut');
    expect(login).not.toHaveBeenCalled();
  });

  it('asks for a sign-in link for the typed e-mail, landing on the given page, and confirms it', async () => {
    const { actor, requestSignInLink } = startAuth({});
    actor.send({ type: 'auth.requestLink', email: ' ann@example.com ', redirect: '/checkout/success?serviceid=12' });
    expect(actor.getSnapshot().value).toBe('requestingLink');
    await waitFor(actor, (snapshot) => snapshot.matches('linkSent'));
    expect(requestSignInLink).toHaveBeenCalledTimes(1);
    expect(requestSignInLink).toHaveBeenCalledWith(expect.objectContaining({ input: { email: 'ann@example.com', redirect: '/checkout/success?serviceid=12' } }));
    expect(actor.getSnapshot().context).toMatchObject({ user: null, linkError: null });
  });

  it('does not ask for a link without an e-mail of a valid shape, and says why', () => {
    const { actor, requestSignInLink } = startAuth({});
    actor.send({ type: 'auth.requestLink', email: 'ann', redirect: '/checkout/' });
    expect(actor.getSnapshot().value).toBe('loggedOut');
    expect(actor.getSnapshot().context.linkError).toBe('email.invalid');
    expect(requestSignInLink).not.toHaveBeenCalled();
  });

  it("shows the failure's message when the link request fails, and may ask again", async () => {
    const { actor, requestSignInLink } = startAuth({}, { link: new Error('api.rate_limited') });
    actor.send({ type: 'auth.requestLink', email: 'ann@example.com', redirect: '/checkout/' });
    await waitFor(actor, (snapshot) => snapshot.matches('loggedOut') && snapshot.context.linkError !== null);
    expect(actor.getSnapshot().context.linkError).toBe('api.rate_limited');
    actor.send({ type: 'auth.requestLink', email: 'ann@example.com', redirect: '/checkout/' });
    expect(actor.getSnapshot().value).toBe('requestingLink');
    expect(actor.getSnapshot().context.linkError).toBeNull();
    expect(requestSignInLink).toHaveBeenCalledTimes(2);
  });

  it('logs in with a password after a link was sent', async () => {
    const { actor } = startAuth({});
    actor.send({ type: 'auth.requestLink', email: 'client@example.com', redirect: '/checkout/' });
    await waitFor(actor, (snapshot) => snapshot.matches('linkSent'));
    actor.send({ type: 'auth.login', email: 'client@example.com', password: 'secret' });
    await waitFor(actor, (snapshot) => snapshot.matches('loggedIn'));
    expect(actor.getSnapshot().context.user).toEqual({ userid: 42, email: 'client@example.com', guest: false });
  });

  it('logs a guest in automatically from the email query', async () => {
    const { actor, identifyGuest } = startAuth({ query: { email: 'ann@example.com' } });
    await waitFor(actor, atRest);
    expect(identifyGuest).toHaveBeenCalledWith(expect.objectContaining({ input: { email: 'ann@example.com' } }));
    expect(actor.getSnapshot().context.user).toEqual({ userid: modelGuest.userid, email: 'ann@example.com', guest: true });
  });

  it('ignores an email query of the wrong shape', () => {
    const { actor, identifyGuest } = startAuth({ query: { email: 'ann' } });
    expect(actor.getSnapshot().value).toBe('loggedOut');
    expect(identifyGuest).not.toHaveBeenCalled();
  });

  it('stays logged out silently when the automatic login fails', async () => {
    const { actor } = startAuth({ query: { email: 'ann@example.com' } }, { guest: new Error('Bad gateway') });
    await waitFor(actor, atRest);
    expect(actor.getSnapshot().value).toBe('loggedOut');
    expect(actor.getSnapshot().context.loginError).toBeNull();
  });

  it('keeps a known session and does not identify the query e-mail over it', () => {
    const { actor, identifyGuest } = startAuth({
      session: { loggedIn: true, guest: false, userid: 42, email: 'client@example.com' },
      query: { email: 'ann@example.com' },
    });
    expect(actor.getSnapshot().value).toBe('loggedIn');
    expect(identifyGuest).not.toHaveBeenCalled();
  });

  it('restores a guest this browser identified by e-mail as a guest user, after a reload', () => {
    const { actor } = startAuth({ session: { loggedIn: false, guest: true, userid: modelGuest.userid, email: 'ann@example.com' } });
    expect(actor.getSnapshot().value).toBe('loggedIn');
    expect(actor.getSnapshot().context.user).toEqual({ userid: modelGuest.userid, email: 'ann@example.com', guest: true });
  });

  it('starts logged out when the server knows no one', () => {
    const { actor } = startAuth({ session: { loggedIn: false, guest: false, userid: null, email: null } });
    expect(actor.getSnapshot().value).toBe('loggedOut');
  });

  it('signs out: clears the session data, forgets the user and goes home', async () => {
    const { actor, clearSession, goHome } = startAuth({ session: { loggedIn: true, guest: false, userid: 42, email: 'client@example.com' }, redirectTarget: '/upsell' });
    actor.send({ type: 'auth.signOut' });
    await waitFor(actor, (snapshot) => snapshot.matches('loggedOut'));
    expect(clearSession).toHaveBeenCalledTimes(1);
    expect(goHome).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().context).toMatchObject({ user: null, redirectTarget: null });
  });

  it("stays logged in with the server's message when sign out fails", async () => {
    const { actor, clearSession } = startAuth({ session: { loggedIn: true, guest: false, userid: 42, email: 'client@example.com' } }, { signOut: new Error('Bad gateway') });
    actor.send({ type: 'auth.signOut' });
    await waitFor(actor, (snapshot) => snapshot.matches('loggedIn') && snapshot.context.signOutError !== null);
    expect(actor.getSnapshot().context.signOutError).toBe('Bad gateway');
    expect(clearSession).not.toHaveBeenCalled();
  });

  it('offers Sign Out only when logged in with both a user id and an e-mail', () => {
    expect(selectCanSignOut(startAuth({}).actor.getSnapshot())).toBe(false);
    const withEmail = startAuth({ session: { loggedIn: true, guest: false, userid: 42, email: 'client@example.com' } });
    expect(selectCanSignOut(withEmail.actor.getSnapshot())).toBe(true);
    const withoutEmail = startAuth({ session: { loggedIn: true, guest: false, userid: 42, email: null } });
    expect(withoutEmail.actor.getSnapshot().value).toBe('loggedIn');
    expect(selectCanSignOut(withoutEmail.actor.getSnapshot())).toBe(false);
    withoutEmail.actor.send({ type: 'auth.signOut' });
    expect(withoutEmail.actor.getSnapshot().value).toBe('loggedIn');
  });

  it.each([
    ['/upsell', '/upsell'],
    ['/de-de/resellers/success', '/de-de/resellers/success'],
    ['//evil.example', null],
    ['https://evil.example/', null],
    ['/path?x=1', null],
    ['upsell', null],
  ])('saves the redirect target %s only when it is a safe in-app path', (target, saved) => {
    const { actor } = startAuth({ redirectTarget: target });
    expect(actor.getSnapshot().context.redirectTarget).toBe(saved);
  });
});

describe('auth guards', () => {
  const context = (extra: Partial<AuthContext> = {}): AuthContext => ({ user: null, queryEmail: null, loginError: null, signOutError: null, linkError: null, redirectTarget: null, ...extra });
  const call = (guard: (args: { context: AuthContext; event: AuthEvent }) => boolean, extra: Partial<AuthContext>, event: AuthEvent = { type: 'auth.signOut' }) =>
    guard({ context: context(extra), event });

  it('hasSession', () => {
    expect(call(authGuards.hasSession, { user: { userid: 1, email: 'a@b.co', guest: false } })).toBe(true);
    expect(call(authGuards.hasSession, {})).toBe(false);
  });

  it('hasEmailQuery', () => {
    expect(call(authGuards.hasEmailQuery, { queryEmail: 'ann@example.com' })).toBe(true);
    expect(call(authGuards.hasEmailQuery, {})).toBe(false);
  });

  it('hasCredentials needs an e-mail of a valid shape and a password', () => {
    expect(call(authGuards.hasCredentials, {}, { type: 'auth.login', email: 'a@b.co', password: 'x' })).toBe(true);
    expect(call(authGuards.hasCredentials, {}, { type: 'auth.login', email: 'a@b.co', password: '' })).toBe(false);
    expect(call(authGuards.hasCredentials, {}, { type: 'auth.login', email: 'a@b', password: 'x' })).toBe(false);
    expect(call(authGuards.hasCredentials, {}, { type: 'auth.signOut' })).toBe(false);
  });

  it('hasLinkEmail needs an e-mail of a valid shape', () => {
    expect(call(authGuards.hasLinkEmail, {}, { type: 'auth.requestLink', email: ' a@b.co ', redirect: '/checkout/' })).toBe(true);
    expect(call(authGuards.hasLinkEmail, {}, { type: 'auth.requestLink', email: 'a@b', redirect: '/checkout/' })).toBe(false);
    expect(call(authGuards.hasLinkEmail, {}, { type: 'auth.requestLink', email: '', redirect: '/checkout/' })).toBe(false);
    expect(call(authGuards.hasLinkEmail, {}, { type: 'auth.login', email: 'a@b.co', password: 'x' })).toBe(false);
  });

  it('hasUserId needs a positive client id or a guest handle of the contract\'s shape', () => {
    expect(authGuards.hasUserId({ context: context(), event: { type: 'auth.signOut' } }, { result: modelGuest })).toBe(true);
    expect(authGuards.hasUserId({ context: context(), event: { type: 'auth.signOut' } }, { result: modelClient })).toBe(true);
    for (const userid of [0, -1, 1.5, '', '57', 'g_short', 'g_4nq0c2ZkVwQ8mX1bTf7sL!']) {
      expect(authGuards.hasUserId({ context: context(), event: { type: 'auth.signOut' } }, { result: { userid, email: 'a@b.co' } }), String(userid)).toBe(false);
    }
  });

  it('canSignOut needs both a user id and an e-mail', () => {
    expect(call(authGuards.canSignOut, { user: { userid: 42, email: 'client@example.com', guest: false } })).toBe(true);
    expect(call(authGuards.canSignOut, { user: { userid: 42, email: '', guest: false } })).toBe(false);
    expect(call(authGuards.canSignOut, { user: { userid: 0, email: 'client@example.com', guest: false } })).toBe(false);
    expect(call(authGuards.canSignOut, {})).toBe(false);
  });
});
