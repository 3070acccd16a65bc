import type { AnyStateMachine } from 'xstate';
import { authMachine } from './auth.machine';
import { checkoutMachine } from './checkout.machine';
import { placeOrderMachine } from './place-order.machine';
import { renewalMachine } from './renewal.machine';
import { resellerMachine } from './reseller.machine';
import { serviceMachine } from './service.machine';
import { upsellMachine } from './upsell.machine';
import { waitingMachine } from './waiting.machine';

/** Every machine of the shop, so a reader of names (the server's flow traffic) knows them all. */
export const allMachines: AnyStateMachine[] = [checkoutMachine, placeOrderMachine, waitingMachine, upsellMachine, renewalMachine, resellerMachine, authMachine, serviceMachine];
