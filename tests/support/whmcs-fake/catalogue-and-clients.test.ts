/**
 * The fake's read actions and clients, against the reference's facts (integrations.md §1-2) and the demo
 * catalogue (src/server/catalogue/demo.yaml): literal values, not what the fake computes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callWhmcs, type Json } from './call';
import { createWhmcsFake, type WhmcsFake } from './server';

let whmcs: WhmcsFake;
const call = (action: string, params: Record<string, string> = {}) => callWhmcs(whmcs, action, params);

beforeAll(async () => {
  whmcs = await createWhmcsFake();
});
afterAll(() => whmcs.close());

describe('envelope', () => {
  it('answers every action in any letter case with result success', async () => {
    for (const action of ['GetCurrencies', 'getcurrencies', 'GETCURRENCIES']) {
      const answer = await call(action);
      expect(answer.status).toBe(200);
      expect(answer.body.result).toBe('success');
    }
  });

  it('answers an unknown action with Command Not Found', async () => {
    expect((await call('GetEverything')).body).toEqual({ result: 'error', message: 'Command Not Found' });
    // Names an object has of itself in JavaScript are no actions either.
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect((await call(name)).body).toEqual({ result: 'error', message: 'Command Not Found' });
    }
  });

  it('answers XML, not JSON, without responsetype=json', async () => {
    const answer = await call('GetCurrencies', { responsetype: 'xml' });
    expect(answer.text.startsWith('<?xml')).toBe(true);
    expect(answer.text).toContain('<result><![CDATA[success]]></result>');
  });
});

describe('GetProducts', () => {
  it('lists products by pid list with numeric ids, money strings, -1.00 for a disabled cycle', async () => {
    const { body } = await call('GetProducts', { pid: '1,3' });
    expect(body.totalresults).toBe(2);
    const [monthly, lifetime] = body.products.product as Json[];
    expect(monthly).toMatchObject({ pid: 1, gid: 1, name: '1 Month', paytype: 'recurring' });
    expect(monthly?.pricing.EUR).toMatchObject({ monthly: '12.99', quarterly: '-1.00', semiannually: '-1.00', msetupfee: '0.00' });
    expect(monthly?.pricing.GBP).toMatchObject({ monthly: '10.99', annually: '-1.00' });
    // One Time keeps its price in monthly.
    expect(lifetime).toMatchObject({ pid: 3, paytype: 'onetime' });
    expect(lifetime?.pricing.EUR.monthly).toBe('199.00');
    expect(lifetime?.pricing.GBP.monthly).toBe('169.00');
  });

  it('gives each product its Username/Password custom fields (order-form fields only) and options 2 and 4', async () => {
    const { body } = await call('GetProducts', { pid: '2' });
    const product = body.products.product[0] as Json;
    expect(product.customfields.customfield.map((field: Json) => [field.id, field.name])).toEqual([[11, 'Username'], [12, 'Password']]);
    const options = product.configoptions.configoption as Json[];
    expect(options.map((option) => option.id)).toEqual([2, 4]);
    const extra = options[0] as Json;
    expect(['1', '2', '3', '4']).toContain(extra.type);
    const sub = extra.options.option[0] as Json;
    expect(sub.pricing.EUR.semiannually).toBe('20.00');
    expect(sub.pricing.GBP.triennially).toBe('78.00');
    expect((options[1] as Json).options.option[0].pricing.EUR.monthly).toBe('2.50');
  });

  it('filters by group: gid 2 is the reseller group, pids 10-13', async () => {
    const { body } = await call('GetProducts', { gid: '2' });
    expect(body.products.product.map((product: Json) => product.pid)).toEqual([10, 11, 12, 13]);
    expect(body.products.product[0].customfields.customfield.map((field: Json) => field.id)).toEqual([21, 22]);
  });
});

describe('GetPromotions', () => {
  it('answers the raw row of an exact code, with 0000-00-00 for no date', async () => {
    const { body } = await call('GetPromotions', { code: 'WELCOME10' });
    expect(body.totalresults).toBe(1);
    const row = body.promotions.promotion[0] as Json;
    for (const field of ['id', 'code', 'type', 'recurring', 'value', 'cycles', 'appliesto', 'requires', 'requiresexisting', 'startdate', 'expirationdate', 'maxuses', 'uses', 'lifetimepromo', 'applyonce', 'newsignups', 'existingclient', 'onceperclient', 'recurfor', 'upgrades', 'upgradeconfig', 'notes']) {
      expect(row).toHaveProperty(field);
    }
    expect(row).toMatchObject({ code: 'WELCOME10', type: 'Percentage', appliesto: '1,2,3', startdate: '0000-00-00', expirationdate: '0000-00-00', cycles: '' });
    expect(Number(row.value)).toBe(10);
  });

  it('holds every promotion of demo.yaml as a raw row', async () => {
    const { body } = await call('GetPromotions');
    const rows = Object.fromEntries((body.promotions.promotion as Json[]).map((row) => [row.code, row]));
    expect(Object.keys(rows).sort()).toEqual(['EXPIRED15', 'FUTURE25', 'HALFYEAR20', 'LOYAL15', 'SAVE5', 'USEDUP50', 'WELCOME10']);
    expect(rows.SAVE5).toMatchObject({ type: 'Fixed Amount', appliesto: '1,2,3', startdate: '2024-01-01', expirationdate: '2099-12-31' });
    expect(Number(rows.SAVE5?.value)).toBe(5);
    expect(rows.HALFYEAR20).toMatchObject({ appliesto: '2', startdate: '2024-01-01', expirationdate: '0000-00-00' });
    expect(rows.FUTURE25).toMatchObject({ startdate: '2099-01-01' });
  });

  it('keeps the stored cycle names, hyphen included', async () => {
    const { body } = await call('GetPromotions', { code: 'HALFYEAR20' });
    expect(body.promotions.promotion[0].cycles).toBe('Semi-Annually');
  });

  it('answers an unknown code (and a mere prefix) with success, totalresults 0 and no promotions key', async () => {
    for (const code of ['NOPE', 'WELCOME']) {
      const { body } = await call('GetPromotions', { code });
      expect(body).toEqual({ result: 'success', totalresults: 0 });
    }
  });

  it('does not check validity: an expired and a used-up code are listed as they are', async () => {
    expect((await call('GetPromotions', { code: 'EXPIRED15' })).body.promotions.promotion[0].expirationdate).toBe('2020-12-31');
    expect((await call('GetPromotions', { code: 'USEDUP50' })).body.promotions.promotion[0]).toMatchObject({ maxuses: 1, uses: 1 });
  });
});

describe('GetCurrencies and GetPaymentMethods', () => {
  it('lists EUR (default, rate 1) and GBP at 0.85', async () => {
    const { body } = await call('GetCurrencies');
    const currencies = body.currencies.currency as Json[];
    expect(currencies.map((currency) => [currency.code, Number(currency.rate)])).toEqual([['EUR', 1], ['GBP', 0.85]]);
  });

  it('lists {module, displayname} for the sandbox gateways and a module the checkout does not offer', async () => {
    const { body } = await call('GetPaymentMethods');
    const methods = body.paymentmethods.paymentmethod as Json[];
    expect(methods).toEqual(expect.arrayContaining([
      { module: 'sandbox', displayname: 'Card' }, { module: 'sandboxcrypto', displayname: 'Bitcoin' },
    ]));
    expect(methods.some((method) => method.module === 'banktransfer')).toBe(true);
  });
});

describe('GetClients: a prefix LIKE with _ and % as wildcards', () => {
  const emails = (body: Json) => ((body.clients?.client ?? []) as Json[]).map((client) => client.email);

  it('matches a prefix of the address, not only the whole address', async () => {
    expect(emails((await call('GetClients', { search: 'demo@tvcheckout.test' })).body)).toEqual(['demo@tvcheckout.test']);
    expect(emails((await call('GetClients', { search: 'demo@tv' })).body)).toEqual(['demo@tvcheckout.test']);
  });

  it('lets _ match any one character and % any run', async () => {
    expect(emails((await call('GetClients', { search: 'd_mo@' })).body)).toEqual(['demo@tvcheckout.test']);
    expect(emails((await call('GetClients', { search: '%@tvcheckout.test' })).body)).toEqual(['demo@tvcheckout.test', 'reseller@tvcheckout.test']);
  });

  it('takes a backslash-escaped _ literally', async () => {
    expect((await call('GetClients', { search: 'd\\_mo@' })).body).toEqual({ result: 'success', totalresults: 0, startnumber: 0, numreturned: 0 });
  });

  it('lists id, names, email, groupid and status; the reseller is in client group 1', async () => {
    const { body } = await call('GetClients', { search: 'reseller@' });
    expect(body.clients.client[0]).toMatchObject({ email: 'reseller@tvcheckout.test', groupid: 1, status: 'Active' });
    expect(Object.keys(body.clients.client[0]).sort()).toEqual(['companyname', 'datecreated', 'email', 'firstname', 'groupid', 'id', 'lastname', 'status']);
  });
});

describe('clients and users', () => {
  it('GetClientsDetails finds a client by email or id, with its users; Client Not Found otherwise', async () => {
    const byEmail = (await call('GetClientsDetails', { email: 'demo@tvcheckout.test' })).body;
    expect(byEmail.result).toBe('success');
    expect(byEmail.client).toMatchObject({ id: 1, email: 'demo@tvcheckout.test', currency_code: 'EUR', status: 'Active' });
    expect(byEmail.client.users.user[0]).toMatchObject({ email: 'demo@tvcheckout.test' });
    expect(byEmail.email).toBe('demo@tvcheckout.test');
    expect((await call('GetClientsDetails', { clientid: '2' })).body.client.groupid).toBe(1);
    expect((await call('GetClientsDetails', { email: 'nobody@tvcheckout.test' })).body).toEqual({ result: 'error', message: 'Client Not Found' });
    expect((await call('GetClientsDetails', { email: 'demo@tvcheckout' })).body.message).toBe('Client Not Found');
  });

  it('ValidateLogin answers the USER id, not the client id; wrong password: Email or Password Invalid', async () => {
    const { body } = await call('ValidateLogin', { email: 'demo@tvcheckout.test', password2: 'demo-password-1' });
    expect(body.result).toBe('success');
    expect(body).toHaveProperty('passwordhash');
    expect(body).toHaveProperty('twoFactorEnabled');
    const details = (await call('GetClientsDetails', { email: 'demo@tvcheckout.test' })).body;
    expect(Number(body.userid)).toBe(details.client.users.user[0].id);
    expect(Number(body.userid)).not.toBe(details.client.id);
    expect((await call('ValidateLogin', { email: 'demo@tvcheckout.test', password2: 'wrong' })).body).toEqual({ result: 'error', message: 'Email or Password Invalid' });
    expect((await call('ValidateLogin', { email: 'nobody@tvcheckout.test', password2: 'x' })).body.message).toBe('Email or Password Invalid');
  });

  it('AddClient with skipvalidation needs only email and password; a second one with that email is refused', async () => {
    const added = (await call('AddClient', { email: 'new.guest@example.test', firstname: 'New', lastname: 'Guest', password2: 'p4ss-word!', skipvalidation: '1' })).body;
    expect(added.result).toBe('success');
    expect(Number(added.clientid)).toBeGreaterThan(2);
    const login = (await call('ValidateLogin', { email: 'new.guest@example.test', password2: 'p4ss-word!' })).body;
    expect(login.result).toBe('success');
    expect(Number(login.userid)).not.toBe(Number(added.clientid));
    expect((await call('AddClient', { email: 'new.guest@example.test', password2: 'other', skipvalidation: '1' })).body)
      .toEqual({ result: 'error', message: 'A user already exists with that email address' });
  });

  it('GetUsers finds users by prefix, each with the clients it reaches', async () => {
    const { body } = await call('GetUsers', { search: 'reseller@' });
    expect(body.totalresults).toBe(1);
    const [user] = body.users as Json[];
    expect(user).toMatchObject({ email: 'reseller@tvcheckout.test' });
    expect(user?.clients).toEqual([{ id: 2, isOwner: true }]);
    expect(user?.id).not.toBe(2);
  });

  it('CreateSsoToken answers access_token and a redirect_url to oauth/singlesignon.php carrying it', async () => {
    const { body } = await call('CreateSsoToken', { client_id: '1', destination: 'clientarea:services' });
    expect(body.result).toBe('success');
    expect(body.redirect_url).toContain(`/oauth/singlesignon.php?access_token=${body.access_token}`);
  });

  it('AddClient without skipvalidation requires the address fields', async () => {
    const { body } = await call('AddClient', { email: 'strict@example.test', firstname: 'S', lastname: 'T', password2: 'p' });
    expect(body).toEqual({ result: 'error', message: 'You did not enter your  address line 1' });
  });
});
