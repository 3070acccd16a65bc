/** Clients and their users: sign-up, sign-in, lookups and single sign-on. */
import { randomBytes } from 'node:crypto';
import type { ClientRow } from './seed';
import type { FakeStore } from './store';
import { ApiError, phpTruthy, sqlLike, type Actions } from './values';

export function clientActions(store: FakeStore): Actions {
  const { state, today, nextId, currencyById, defaultCurrency, findClient } = store;
  let nextUserId = Math.max(500, ...state.users.map((user) => user.id)) + 1;

  const clientAnswer = (client: ClientRow) => {
    const currency = currencyById(client.currency);
    const users = state.users.filter((user) => user.clientIds.includes(client.id));
    return {
      client_id: client.id, owner_user_id: client.ownerUserId, userid: client.id, id: client.id, uuid: client.uuid,
      firstname: client.firstname, lastname: client.lastname, fullname: `${client.firstname} ${client.lastname}`.trim(), companyname: client.companyname,
      email: client.email, address1: client.address1, address2: '', city: client.city, fullstate: client.state, state: client.state,
      postcode: client.postcode, countrycode: client.country, country: client.country, phonenumber: client.phonenumber, tax_id: '',
      billingcid: 0, notes: client.notes, currency: client.currency, defaultgateway: '', groupid: client.groupid, status: client.status, credit: '0.00',
      taxexempt: false, language: '', email_verified: false, lastlogin: '', currency_code: currency?.code ?? '',
      customfields: [],
      users: { user: users.map((user) => ({ id: user.id, name: `${user.firstname} ${user.lastname}`.trim(), email: user.email, is_owner: user.id === client.ownerUserId })) },
    };
  };

  return {
    getclients(params) {
      const pattern = params.search ? sqlLike(`${params.search}%`) : null;
      const matching = state.clients.filter((client) =>
        (!pattern || [client.email, client.firstname, client.lastname, client.companyname, `${client.firstname} ${client.lastname}`].some((text) => pattern.test(text)))
        && (!params.status || client.status.toLowerCase() === params.status.toLowerCase()));
      const start = Number(params.limitstart ?? 0) || 0;
      const page = matching.slice(start, start + (Number(params.limitnum ?? 25) || 25));
      return {
        result: 'success', totalresults: matching.length, startnumber: start, numreturned: page.length,
        ...(page.length ? {
          clients: { client: page.map((client) => ({ id: client.id, firstname: client.firstname, lastname: client.lastname, companyname: client.companyname, email: client.email, datecreated: client.datecreated, groupid: client.groupid, status: client.status })) },
        } : {}),
      };
    },
    getclientsdetails(params) {
      const client = params.clientid
        ? findClient(params.clientid)
        : params.email ? state.clients.find((candidate) => candidate.email.toLowerCase() === params.email?.trim().toLowerCase()) : undefined;
      if (!client) throw new ApiError('Client Not Found');
      const details = clientAnswer(client);
      // The client's fields are also repeated at the top level (deprecated).
      return { result: 'success', ...details, client: details };
    },
    getusers(params) {
      const pattern = params.search ? sqlLike(`${params.search}%`) : null;
      const matching = state.users.filter((user) => !pattern || [user.email, user.firstname, user.lastname, `${user.firstname} ${user.lastname}`].some((text) => pattern.test(text)))
        .sort((a, b) => (params.sorting?.toUpperCase() === 'DESC' ? b.id - a.id : a.id - b.id));
      const start = Number(params.limitstart ?? 0) || 0;
      const page = matching.slice(start, start + (Number(params.limitnum ?? 25) || 25));
      // Unlike most list actions, `users` is a plain array (8.1+ docs).
      return {
        result: 'success', totalresults: matching.length, startnumber: start, numreturned: page.length,
        users: page.map((user) => ({
          id: user.id, firstname: user.firstname, lastname: user.lastname, email: user.email, datecreated: '2024-01-15 10:00:00', validationdata: '',
          clients: user.clientIds.map((id) => ({ id, isOwner: state.clients.find((client) => client.id === id)?.ownerUserId === user.id })),
        })),
      };
    },
    createssotoken(params) {
      const client = params.client_id ? findClient(params.client_id) : undefined;
      if (params.client_id && !client) throw new ApiError('Client ID Not Found');
      if (params.user_id && !state.users.some((user) => String(user.id) === params.user_id)) throw new ApiError('User ID Not Found');
      const token = randomBytes(20).toString('hex');
      return { result: 'success', access_token: token, redirect_url: `https://whmcs.example.test/oauth/singlesignon.php?access_token=${token}` };
    },
    addclient(params) {
      const skip = phpTruthy(params.skipvalidation);
      const email = (params.email ?? '').trim();
      const ownerId = params.owner_user_id ? Number(params.owner_user_id) : null;
      const owner = ownerId !== null ? state.users.find((user) => user.id === ownerId) : undefined;
      if (ownerId !== null && !owner) throw new ApiError('Invalid Owner User ID');
      if (!skip) {
        if (!params.firstname) throw new ApiError('You did not enter your first name');
        if (!params.lastname) throw new ApiError('You did not enter your last name');
      }
      if (!email) throw new ApiError('You did not enter your email address');
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw new ApiError('The email address you entered was not valid');
      if (!skip) {
        const required: [string, string][] = [['address1', 'You did not enter your  address line 1'], ['city', 'You did not enter your city'], ['state', 'You did not enter your state'], ['postcode', 'You did not enter your postcode'], ['country', 'Valid country required'], ['phonenumber', 'You did not enter your phone number']];
        for (const [field, message] of required) if (!params[field]) throw new ApiError(message);
      }
      if (!owner) {
        if (state.users.some((user) => user.email.toLowerCase() === email.toLowerCase())) throw new ApiError('A user already exists with that email address');
        // password2 is required for a new user even with skipvalidation (docs); this message is the fake's own.
        if (!params.password2) throw new ApiError('A password is required for the new user');
      }
      if (state.clients.some((client) => client.email.toLowerCase() === email.toLowerCase())) throw new ApiError('The email address entered is not available for use.');
      const clientId = nextId(state.clients);
      let userId = owner?.id;
      if (!owner) {
        userId = nextUserId++;
        state.users.push({ id: userId, firstname: params.firstname ?? '', lastname: params.lastname ?? '', email, password: params.password2 ?? '', clientIds: [clientId] });
      } else owner.clientIds.push(clientId);
      const currency = params.currency ? Number(params.currency) : defaultCurrency()?.id ?? 1;
      state.clients.push({
        id: clientId, uuid: `00000000-0000-4000-8000-${String(clientId).padStart(12, '0')}`, ownerUserId: userId as number,
        firstname: params.firstname ?? '', lastname: params.lastname ?? '', companyname: params.companyname ?? '', email,
        address1: params.address1 ?? '', city: params.city ?? '', state: params.state ?? '', postcode: params.postcode ?? '', country: params.country ?? '',
        phonenumber: params.phonenumber ?? '', currency, groupid: Number(params.groupid ?? 0) || 0, status: 'Active', datecreated: today(), notes: params.notes ?? '',
      });
      return { result: 'success', clientid: clientId, owner_id: userId };
    },
    validatelogin(params) {
      const user = state.users.find((candidate) => candidate.email.toLowerCase() === (params.email ?? '').trim().toLowerCase());
      if (!user || !params.password2 || user.password !== params.password2) throw new ApiError('Email or Password Invalid');
      return { result: 'success', userid: String(user.id), passwordhash: `$2y$10$fake.${Buffer.from(user.email).toString('hex').slice(0, 40)}`, twoFactorEnabled: 'false' };
    },
  };
}
