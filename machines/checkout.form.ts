/**
 * The checkout's form (its `ready` state): the regions side by side for the plan, the add-ons, the promo code,
 * the e-mail, the gateway, the reminder, and the banner of an order this browser left unpaid.
 */
import { assign, raise } from 'xstate';
import { acceptPromotion } from '../src/domain/promotion';
import { errorMessage, todayOf } from './checkout.context';
import { refusalOf } from './checkout.order';
import { checkoutSetup } from './checkout.setup';

// Every e-mail state answers typing the same way, so the three share one transition list.
const emailChange = [
  { guard: 'isEmptyEmail', target: 'empty', description: 'Cleared the e-mail.', actions: 'storeEmail' },
  { guard: 'isValidEmail', target: 'valid', description: 'Typed a valid e-mail.', actions: 'storeEmail' },
  { target: 'invalid', description: "Typed an invalid e-mail: 'Please enter a Valid Email.'", actions: 'storeEmail' },
] as const;

/** The regions of the form, in the order the diagram draws them. */
export const formRegions = {
  plan: checkoutSetup.createStateConfig({
    description: 'The selected plan.',
    initial: 'selected',
    states: {
      selected: {
        description: 'One of the three plans is selected.',
        on: {
          'plan.select': {
            guard: 'isOfferedPlan',
            description: 'Select another plan, recompute the total and re-check the promo code.',
            actions: [assign({ selectedPid: ({ event }) => event.pid }), 'recomputeQuote', raise({ type: 'promo.recheck' })],
          },
        },
      },
    },
  }),
  addons: checkoutSetup.createStateConfig({
    description: 'Extra connection and proxy protection toggles.',
    type: 'parallel',
    states: {
      extraConnection: {
        description: 'The extra connection toggle.',
        initial: 'deciding',
        states: {
          deciding: {
            description: 'Shows the toggle as chosen before (pre-fill or earlier choice).',
            always: [{ guard: 'extraConnectionChosen', target: 'on', description: 'Chosen before.' }, { target: 'off', description: 'Not chosen.' }],
          },
          off: {
            description: 'No extra connection.',
            on: {
              'extraConnection.toggle': {
                target: 'on',
                description: 'Add the extra connection and recompute the total.',
                actions: [assign({ extraConnection: true }), 'recomputeQuote'],
              },
            },
          },
          on: {
            description: 'Extra connection added.',
            on: {
              'extraConnection.toggle': {
                target: 'off',
                description: 'Remove the extra connection and recompute the total.',
                actions: [assign({ extraConnection: false }), 'recomputeQuote'],
              },
            },
          },
        },
      },
      proxyProtection: {
        description: 'The proxy protection toggle.',
        initial: 'deciding',
        states: {
          deciding: {
            description: 'Shows the toggle as chosen before (pre-fill or earlier choice).',
            always: [{ guard: 'proxyProtectionChosen', target: 'on', description: 'Chosen before.' }, { target: 'off', description: 'Not chosen.' }],
          },
          off: {
            description: 'No proxy protection.',
            on: {
              'proxyProtection.toggle': {
                target: 'on',
                description: 'Add proxy protection and recompute the total.',
                actions: [assign({ proxyProtection: true }), 'recomputeQuote'],
              },
            },
          },
          on: {
            description: 'Proxy protection added.',
            on: {
              'proxyProtection.toggle': {
                target: 'off',
                description: 'Remove proxy protection and recompute the total.',
                actions: [assign({ proxyProtection: false }), 'recomputeQuote'],
              },
            },
          },
        },
      },
    },
  }),
  promo: checkoutSetup.createStateConfig({
    description: 'The discount box.',
    initial: 'deciding',
    states: {
      deciding: {
        description: 'Shows the promo as it was: applied, refused, a pre-filled code to check, or empty.',
        always: [
          { guard: 'hasAppliedPromotion', target: 'applied', description: 'A promotion is applied.' },
          { guard: 'hasPromoError', target: 'rejected', description: 'The code was refused.' },
          { guard: 'hasPendingPromoCheck', target: 'checking', description: 'Check the pre-filled code.' },
          { target: 'idle', description: 'Nothing to show.' },
        ],
      },
      idle: {
        description: 'No promotion applied; the code can be typed.',
        on: {
          'promo.change': { description: 'Type the code.', actions: assign({ promoCode: ({ event }) => event.code }) },
          'promo.apply': { guard: 'hasPromoCode', target: 'checking', description: 'Check the typed code.' },
        },
      },
      checking: {
        description: 'Looking the code up.',
        entry: assign({ promoCheckPending: false, promoError: null }),
        invoke: {
          id: 'lookupPromotion',
          src: 'lookupPromotion',
          input: ({ context }) => ({ code: context.promoCode.trim() }),
          onDone: [
            {
              guard: { type: 'promotionAccepted', params: ({ event }) => ({ lookup: event.output }) },
              target: 'applied',
              description: 'The code applies to the selected plan: apply the discount.',
              actions: [
                assign(({ context, event }) => {
                  const verdict = acceptPromotion(event.output, context.selectedPid!, todayOf(context));
                  return { promoLookup: event.output, promotion: 'promotion' in verdict ? verdict.promotion : null };
                }),
                'recomputeQuote',
              ],
            },
            {
              target: 'rejected',
              description: "Refused: 'This Coupon is not available for this product.' (or not started, expired, used up).",
              actions: [assign(({ context, event }) => ({ promoLookup: event.output, promotion: null, promoError: refusalOf(context, event.output) })), 'recomputeQuote'],
            },
          ],
          onError: {
            target: 'rejected',
            description: "The lookup failed: show the server's message.",
            actions: [assign(({ event }) => ({ promoLookup: null, promotion: null, promoError: { serverMessage: errorMessage(event.error) } })), 'recomputeQuote'],
          },
        },
        on: { 'order.submit': { description: 'Ignored until the code is checked.' } },
      },
      applied: {
        description: 'The discount is applied; it can be removed.',
        on: {
          'promo.remove': {
            target: 'idle',
            description: 'Remove the code: the total goes back to the undiscounted one.',
            actions: [assign({ promoCode: '', promoLookup: null, promotion: null }), 'recomputeQuote'],
          },
          'promo.change': {
            target: 'idle',
            description: 'Editing the code removes the discount.',
            actions: [assign(({ event }) => ({ promoCode: event.code, promoLookup: null, promotion: null })), 'recomputeQuote'],
          },
          'promo.recheck': [
            {
              guard: 'lookupFitsSelectedPlan',
              description: 'The new plan keeps the discount; recompute the total.',
              actions: 'recomputeQuote',
            },
            {
              target: 'rejected',
              description: 'The new plan is not listed: remove the discount.',
              actions: [assign(({ context }) => ({ promotion: null, promoError: refusalOf(context, context.promoLookup!) })), 'recomputeQuote'],
            },
          ],
        },
      },
      rejected: {
        description: 'The code was refused; the message key or server message is shown.',
        on: {
          'promo.change': {
            target: 'idle',
            description: 'Editing the code clears the message.',
            actions: assign({ promoCode: ({ event }) => event.code, promoLookup: null, promoError: null }),
          },
          'promo.apply': { guard: 'hasPromoCode', target: 'checking', description: 'Check the code again.' },
          'promo.recheck': {
            guard: 'lookupFitsSelectedPlan',
            target: 'applied',
            description: 'The new plan is listed: apply the discount.',
            actions: [
              assign(({ context }) => {
                const verdict = acceptPromotion(context.promoLookup!, context.selectedPid!, todayOf(context));
                return { promotion: 'promotion' in verdict ? verdict.promotion : null, promoError: null };
              }),
              'recomputeQuote',
            ],
          },
        },
      },
    },
  }),
  email: checkoutSetup.createStateConfig({
    description: "The guest's e-mail.",
    initial: 'deciding',
    states: {
      deciding: {
        description: 'Shows the pre-filled or earlier e-mail.',
        always: [
          { guard: 'emailRequired', target: 'required', description: 'The automatic order stopped for its missing e-mail: ask for it at once.', actions: 'requireEmail' },
          { guard: 'isEmptyEmail', target: 'empty', description: 'No e-mail yet.' },
          { guard: 'isValidEmail', target: 'valid', description: 'A valid e-mail.' },
          { target: 'invalid', description: 'An invalid e-mail.', actions: assign({ emailError: 'email.invalid' }) },
        ],
      },
      empty: {
        description: 'No e-mail typed.',
        on: {
          'email.change': emailChange,
          'order.submit': { guard: 'isGuest', target: 'required', description: "Submitted without an e-mail: say 'Please enter a Valid Email.'", actions: 'requireEmail' },
        },
      },
      required: { description: "Submitted without an e-mail: 'Please enter a Valid Email.' is shown until it is typed.", on: { 'email.change': emailChange } },
      invalid: { description: "The e-mail has the wrong shape; 'email.invalid' is shown.", on: { 'email.change': emailChange } },
      valid: { description: 'The e-mail has the shape text@text.text.', on: { 'email.change': emailChange } },
    },
  }),
  gateway: checkoutSetup.createStateConfig({
    description: 'The payment method.',
    initial: 'selected',
    states: {
      selected: {
        description: 'A gateway (the default at first) is selected.',
        on: {
          'gateway.select': { guard: 'isOfferedGateway', description: 'Select another gateway.', actions: assign({ selectedGateway: ({ event }) => event.module }) },
        },
      },
    },
  }),
  reminder: checkoutSetup.createStateConfig({
    description: '"Remind me if I don\'t finish": one mail if the order is still unpaid after a while.',
    initial: 'restore',
    states: {
      restore: {
        description: 'Shows the checkbox as it was (ticked at first).',
        always: [{ guard: 'remindChosen', target: 'on', description: 'Ticked.' }, { target: 'off', description: 'Unticked.' }],
      },
      on: {
        description: 'A reminder is wanted.',
        on: { 'remind.toggle': { target: 'off', description: 'Untick: no reminder.', actions: assign({ remind: false }) } },
      },
      off: {
        description: 'No reminder.',
        on: { 'remind.toggle': { target: 'on', description: 'Tick again.', actions: assign({ remind: true }) } },
      },
    },
  }),
  unpaidOrder: checkoutSetup.createStateConfig({
    description: 'The banner of an order this browser left unpaid: continue to its payment, or cancel it.',
    initial: 'deciding',
    states: {
      deciding: {
        description: 'Shows the banner while the saved order is unpaid.',
        always: [{ guard: 'hasUnpaidOrder', target: 'shown', description: 'An unpaid order.' }, { target: 'none', description: 'None.' }],
      },
      none: { description: 'No unpaid order: no banner.' },
      shown: {
        description: '"You have an unpaid order #N": continue to payment, or cancel it.',
        on: {
          'unpaidOrder.continue': { target: '#checkout.resumingOrder', description: 'Continue to its payment.' },
          'unpaidOrder.cancel': { target: 'confirmingCancel', description: 'Asks once whether to cancel it.', actions: assign({ unpaidOrderError: null }) },
        },
      },
      confirmingCancel: {
        description: 'Cancel order #N? The shopper confirms or keeps the order; nothing is cancelled yet.',
        on: {
          'unpaidOrder.confirmCancel': { target: 'cancelling', description: 'Confirmed: cancel it on the server.' },
          'unpaidOrder.keep': { target: 'shown', description: 'The order is kept.' },
        },
      },
      cancelling: {
        description: 'Cancelling the unpaid order.',
        invoke: {
          id: 'cancelUnpaidOrder',
          src: 'cancelUnpaidOrder',
          input: ({ context }) => ({ orderid: context.unpaidOrder!.orderid }),
          onDone: {
            target: 'none',
            description: 'Cancelled: the banner goes, and so does the saved payment.',
            actions: [{ type: 'forgetSavedOrder', params: ({ context }) => ({ orderid: context.unpaidOrder!.orderid }) }, assign({ unpaidOrder: null })],
          },
          onError: { target: 'shown', description: "Not cancelled: the banner stays with the server's message.", actions: assign({ unpaidOrderError: ({ event }) => errorMessage(event.error) }) },
        },
      },
    },
  }),
};
