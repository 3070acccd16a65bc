/** The checkout's page as its view walk drives and reads it: where the walk runs, and the controls both its actions and its checks find. */
import { screen, within } from '@testing-library/react';
import type { StateValue } from 'xstate';
import type { CheckoutContext } from '../../machines/checkout.machine';
import { modelGateways, modelProducts } from '../../scripts/statecharts/models/checkout.model';
import type { FactCurrency } from '../facts/catalogue';
import { en } from './texts';
import type { Page } from './walk';

/** Where the walk runs: the form of a visit, or the landing page of an automatic-order link. */
export interface CheckoutPage extends Page {
  route: '/' | '/creatingOrder';
  /** The code the walk's last Remove click took off, until the field changes (the status says so). */
  removedCode?: string | null;
  /** The currency the walk's currency answer gave the visitor (GB: GBP; another country or a failed call: EUR). */
  currency: FactCurrency;
}

export const planRadio = (pid: number) => within(screen.getByRole('group', { name: en.checkout.plans })).getByRole('radio', { name: new RegExp(`^${modelProducts.find((product) => product.pid === pid)!.name} `) });
export const emailField = () => screen.getByRole('textbox', { name: en.checkout.email, description: (text) => text.startsWith(en.checkout.emailHint) }) as HTMLInputElement;
export const discountField = () => screen.getByRole('textbox', { name: en.checkout.discount }) as HTMLInputElement;
/** "Remind me if I don't finish": a plain checkbox (not a switch), described by its hint. */
export const reminderBox = () => screen.getByRole('checkbox', { name: en.checkout.remind, description: en.checkout.remindHint });
/** Clicks on "Remind me if I don't finish" per walked page: the box starts ticked (issue 12) and each click flips it. */
export const reminderClicks = new WeakMap<CheckoutPage, number>();
export const gatewayName = (module: string) => modelGateways.find((gateway) => gateway.module === module)!.displayname;

/** The top-level state of a state value. */
export const top = (value: StateValue) => (typeof value === 'string' ? value : Object.keys(value)[0]!);

/** A signed-in client (a numeric user id), as opposed to a guest identified by e-mail. */
export const isClient = (context: CheckoutContext) => context.user !== null && typeof context.user.userid === 'number';
