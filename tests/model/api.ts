/**
 * The fake API of the model walks: tests/support/fake-api.ts with a hand on each call an actor of
 * the walked machine makes. A held call waits until the walk answers it with the actor result the
 * path's step names; every answer is checked against openapi.yaml, so what the views are fed is
 * what the server may really say.
 */
import { fakeApi, type Operation } from '../support/fake-api';
import { contractError } from './contract';
import { settle } from './settle';

/** A 200 JSON body, or a Response (errors: `apiError(status, code, message)`). */
export type Answer = unknown;

interface HeldCall {
  request: Request;
  answer: (value: Answer) => void;
}

/** An answer the contract never gives, sent on purpose; the reason is the test's explanation. */
export interface OffContract {
  operation: Operation;
  reason: string;
}

export interface ControlledApiOptions {
  /** Answers of the calls that are not held (instead of fake-api's demo data). */
  answers?: Partial<Record<Operation, Answer>>;
  /** Answers of the first calls of an operation, in order, before any is held (e.g. a route loader's call). */
  first?: Partial<Record<Operation, Answer[]>>;
  /** How many calls of each operation (after `first`) are held until the walk answers them (Infinity: every call). */
  hold?: Partial<Record<Operation, number>>;
}

/** A fake fetch whose held calls the walk answers one by one. */
export function controlledApi({ answers = {}, first = {}, hold = {} }: ControlledApiOptions = {}) {
  const held = new Map<Operation, HeldCall[]>();
  const holdsLeft = new Map<Operation, number>(Object.entries(hold) as [Operation, number][]);
  const scripted = new Map<Operation, Answer[]>(Object.entries(first).map(([operation, list]) => [operation as Operation, [...(list ?? [])]]));
  const violations: string[] = [];
  const offContract: OffContract[] = [];
  const allowedOffContract = new Set<Operation>();
  const calls: Request[] = [];

  const operationOf = (request: Request) => new URL(request.url).pathname.replace(/^\/checkout\/(api|aff)\//, '') as Operation;
  const toResponse = (value: Answer) =>
    value instanceof Response ? value.clone() : new Response(JSON.stringify(value), { status: 200, headers: { 'content-type': 'application/json' } });

  /** Checks an answer against openapi.yaml (declared status, body schema); a mismatch is kept as a violation. */
  async function checked(request: Request, response: Response): Promise<Response> {
    const operation = operationOf(request);
    // A 5xx comes from what stands in front of the API (proxy, gateway): the contract describes the API's own answers.
    if (response.status >= 500) return response;
    const error = contractError(request.method, new URL(request.url).pathname, response.status, await response.clone().json());
    if (error && allowedOffContract.has(operation)) allowedOffContract.delete(operation);
    else if (error) violations.push(error);
    return response;
  }

  const base = fakeApi(answers);

  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    const operation = operationOf(request);
    const left = holdsLeft.get(operation) ?? 0;
    calls.push(request);
    const script = scripted.get(operation);
    if (script?.length) return checked(request, toResponse(script.shift()));
    if (left <= 0) return checked(request, await base.fetch(request));
    holdsLeft.set(operation, left - 1);
    const value = await new Promise<Answer>((answer) => held.set(operation, [...(held.get(operation) ?? []), { request, answer }]));
    return checked(request, toResponse(value));
  };

  return {
    fetch: fetch as typeof globalThis.fetch,
    /** Every request made, in order. */
    calls,
    /** Answers that did not match openapi.yaml (and were not declared with `offContract`). */
    violations,
    /** Answers sent off-contract on purpose, with the reason. */
    offContract,
    /** Calls of an operation waiting for an answer. */
    waiting: (operation: Operation) => held.get(operation)?.length ?? 0,
    /**
     * Answers the oldest held call of the operation (waiting for the app to make it): the actor result
     * of a path's step, delivered as the response of the call that actor makes.
     */
    async respond(operation: Operation, value: Answer | ((request: Request) => Promise<Answer>), options: { offContract?: string } = {}): Promise<Request> {
      await settle(() => (held.get(operation)?.length ?? 0) > 0, `a ${operation} call to answer`);
      const [call, ...rest] = held.get(operation)!;
      if (typeof value === 'function') value = await (value as (request: Request) => Promise<Answer>)(call!.request.clone());
      held.set(operation, rest);
      if (options.offContract) {
        allowedOffContract.add(operation);
        offContract.push({ operation, reason: options.offContract });
      }
      call!.answer(toResponse(value));
      return call!.request;
    },
  };
}

export type ControlledApi = ReturnType<typeof controlledApi>;

type Cycles = Partial<Record<'monthly' | 'quarterly' | 'semiannually' | 'annually' | 'biennially' | 'triennially', number>>;
const NOT_SOLD: Required<Cycles> = { monthly: -1, quarterly: -1, semiannually: -1, annually: -1, biennially: -1, triennially: -1 };

/** A model's pricing table as the contract writes it: both currencies, every cycle (-1: not sold). */
export function contractPricing(table: Partial<Record<'EUR' | 'GBP', Cycles>>) {
  return { EUR: { ...NOT_SOLD, ...table.EUR }, GBP: { ...NOT_SOLD, ...table.GBP } };
}

/** A gateway list as GET /api/getGateway answers it. */
export function contractGateways(gateways: { module: string; displayname: string; type: string; currencies?: readonly string[] }[], defaultGateway: string) {
  // A model gateway that names no currencies takes the catalogue's two, as the sandbox gateways do.
  return { paymentmethods: { paymentmethod: gateways.map((gateway) => ({ ...gateway, currencies: [...(gateway.currencies ?? ['EUR', 'GBP'])] })) }, defaultGateway };
}
