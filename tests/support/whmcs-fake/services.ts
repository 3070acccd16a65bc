/** Services: the module commands (create, terminate, custom) and a client's services as GetClientsProducts lists them. */
import { decodeSerializedBase64, type PhpArray, type PhpValue } from './php-serialize';
import { DEMO_SERVER_HOSTNAME, type ServiceRow } from './seed';
import type { FakeStore } from './store';
import { ApiError, listParam, money, phpTruthy, toCents, type Actions, type Params } from './values';

export function fakeServices(store: FakeStore) {
  const { state, findService, productOf } = store;
  let moduleCreateFailure: { message: string; left: number } | null = null;
  const moduleCreate = (service: ServiceRow) => {
    if (moduleCreateFailure && moduleCreateFailure.left > 0) {
      moduleCreateFailure.left -= 1;
      throw new ApiError(moduleCreateFailure.message);
    }
    const product = productOf(service.pid);
    const field = (name: string) => product?.customfields.find((candidate) => candidate.name === name)?.id;
    const usernameField = field('Username');
    const passwordField = field('Password');
    // The panel module takes the credentials from the order's custom fields when the service has none.
    if (!service.username && usernameField !== undefined) service.username = service.customfields[usernameField] ?? '';
    if (!service.password && passwordField !== undefined) service.password = service.customfields[passwordField] ?? '';
    service.serverhostname ||= DEMO_SERVER_HOSTNAME;
    service.serverip ||= '192.0.2.10';
    service.status = 'Active';
  };
  const serviceAnswer = (service: ServiceRow) => {
    const product = productOf(service.pid);
    const group = state.productGroups.find((candidate) => candidate.gid === product?.gid);
    const order = state.orders.find((candidate) => candidate.id === service.orderid);
    const method = state.paymentMethods.find((candidate) => candidate.module === service.paymentmethod);
    return {
      id: String(service.id), qty: '1', clientid: String(service.clientid), orderid: String(service.orderid), ordernumber: String(order?.ordernum ?? ''),
      pid: String(service.pid), regdate: service.regdate, name: product?.name ?? '', translated_name: product?.name ?? '',
      groupname: group?.name ?? '', translated_groupname: group?.name ?? '', domain: service.domain, dedicatedip: '',
      serverid: service.serverhostname ? '1' : '0', servername: service.serverhostname ? 'Panel' : '', serverip: service.serverip, serverhostname: service.serverhostname,
      suspensionreason: service.suspensionreason, firstpaymentamount: service.firstpaymentamount, recurringamount: service.recurringamount,
      paymentmethod: service.paymentmethod, paymentmethodname: method?.displayname ?? service.paymentmethod, billingcycle: service.billingcycle,
      nextduedate: service.nextduedate, status: service.status, username: service.username, password: service.password,
      subscriptionid: '', promoid: String(service.promoid), overideautosuspend: '', overidesuspenduntil: '0000-00-00', ns1: '', ns2: '',
      assignedips: '', notes: service.notes, diskusage: '0', disklimit: '0', bwusage: '0', bwlimit: '0', lastupdate: '0000-00-00 00:00:00',
      customfields: {
        customfield: (product?.customfields ?? []).map((field) => ({ id: field.id, name: field.name, translated_name: field.name, value: service.customfields[field.id] ?? '' })),
      },
      configoptions: {
        configoption: (product?.configoptionIds ?? []).flatMap((id) => {
          const option = state.configOptions.find((candidate) => candidate.id === id);
          if (!option) return [];
          const chosen = service.configoptions[id];
          const type = { '1': 'dropdown', '2': 'radio', '3': 'yesno', '4': 'quantity' }[option.type];
          const value = option.type === '3' || option.type === '4'
            ? String(chosen?.qty ?? 0)
            : (option.options.find((sub) => sub.id === chosen?.optionid)?.name ?? '');
          return [{ id: String(option.id), option: option.name, type, value }];
        }),
      },
    };
  };
  /** `{cid: optionid}` or `{cid: {optionid, qty}}` (UpdateClientProduct); the plain form leaves qty 0, as WHMCS does. */
  const applyServiceConfigOptions = (service: ServiceRow, decoded: PhpArray) => {
    for (const [cid, value] of decoded) {
      if (value instanceof Map) service.configoptions[Number(cid)] = { optionid: Number(value.get('optionid') ?? 0), qty: Number(value.get('qty') ?? 0) };
      else service.configoptions[Number(cid)] = { optionid: Number(value ?? 0), qty: 0 };
    }
  };
  const applyCustomFields = (service: ServiceRow, decoded: PhpArray) => {
    const fields = productOf(service.pid)?.customfields ?? [];
    for (const [key, value] of decoded) {
      const field = fields.find((candidate) => candidate.id === Number(key) || candidate.name === String(key));
      if (field) service.customfields[field.id] = phpString(value);
    }
  };
  const phpString = (value: PhpValue): string => (value === null || value === false ? '' : value === true ? '1' : value instanceof Map ? 'Array' : String(value));
  const requireModuleService = (params: Params): ServiceRow => {
    const id = params.serviceid ?? params.accountid;
    if (!id) throw new ApiError('Service ID is required');
    const service = findService(id);
    if (!service) throw new ApiError('Service ID not found');
    if (!productOf(service.pid)?.module) throw new ApiError('Service not assigned to a module');
    return service;
  };

  const actions: Actions = {
    getclientsproducts(params) {
      const matching = state.services.filter((service) =>
        (!params.clientid || String(service.clientid) === params.clientid.trim()) && (!params.serviceid || String(service.id) === params.serviceid.trim())
        && (!params.pid || String(service.pid) === params.pid.trim())
        && (!params.username2 || service.username === params.username2));
      const start = Number(params.limitstart ?? 0) || 0;
      // The docs say 25 by default; 8.7 returns every service when limitnum is left out (reference §2).
      const page = params.limitnum ? matching.slice(start, start + (Number(params.limitnum) || 0)) : matching.slice(start);
      return {
        result: 'success', clientid: params.clientid ?? null, serviceid: params.serviceid ?? null, pid: params.pid ?? null, domain: params.domain ?? null,
        totalresults: String(matching.length), startnumber: start, numreturned: page.length,
        products: page.length ? { product: page.map(serviceAnswer) } : '',
      };
    },
    updateclientproduct(params) {
      const service = findService(params.serviceid);
      if (!service) throw new ApiError('Service ID Not Found');
      if (params.customfields) {
        const decoded = decodeSerializedBase64(params.customfields);
        if (decoded) applyCustomFields(service, decoded);
      }
      if (params.configoptions) {
        const decoded = decodeSerializedBase64(params.configoptions);
        if (decoded) applyServiceConfigOptions(service, decoded);
      }
      if (params.notes !== undefined) service.notes = params.notes;
      if (params.status) service.status = params.status as ServiceRow['status'];
      if (params.serviceusername !== undefined) service.username = params.serviceusername;
      if (params.servicepassword !== undefined) service.password = params.servicepassword;
      if (params.nextduedate) service.nextduedate = params.nextduedate;
      if (params.recurringamount !== undefined && !phpTruthy(params.autorecalc)) service.recurringamount = money(toCents(params.recurringamount));
      for (const field of listParam(params, 'unset')) {
        if (field === 'notes') service.notes = '';
        if (field === 'serviceusername') service.username = '';
        if (field === 'servicepassword') service.password = '';
      }
      return { result: 'success', serviceid: String(service.id) };
    },
    modulecreate(params) {
      moduleCreate(requireModuleService(params));
      return { result: 'success' };
    },
    moduleterminate(params) {
      requireModuleService(params).status = 'Terminated';
      return { result: 'success' };
    },
    modulecustom(params) {
      const service = requireModuleService(params);
      // The panel module defines one custom function, restart; WHMCS answers its own text for any other.
      if (params.func_name !== 'restart') throw new ApiError('Function Not Found');
      if (service.status !== 'Active') throw new ApiError('Service is not active');
      return { result: 'success' };
    },
  };
  /** Makes the provisioning module fail the next `times` module creates with this message. */
  const failModuleCreate = (message: string, times: number) => {
    moduleCreateFailure = { message, left: times };
  };
  return { moduleCreate, applyCustomFields, failModuleCreate, actions };
}

export type FakeServices = ReturnType<typeof fakeServices>;
