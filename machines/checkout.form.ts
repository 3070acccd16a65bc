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
  { guard: 'isEmptyEmail', target: 'empty', description: 'Cleared the e-mail.', meta: { product: 'The shopper clears the e-mail field.' }, actions: 'storeEmail' },
  { guard: 'isValidEmail', target: 'valid', description: 'Typed a valid e-mail.', meta: { product: 'The shopper has typed an e-mail address we can send the receipt to.' }, actions: 'storeEmail' },
  { target: 'invalid', description: "Typed an invalid e-mail: 'Please enter a Valid Email.'", meta: { product: 'The shopper types something that is not an e-mail address and is asked for a valid one.' }, actions: 'storeEmail' },
] as const;

/** The regions of the form, in the order the diagram draws them. */
export const formRegions = {
  plan: checkoutSetup.createStateConfig({
    description: 'The selected plan.',
    meta: { product: 'The plan the shopper is buying.' },
    initial: 'selected',
    states: {
      selected: {
        description: 'One of the three plans is selected.',
        meta: { product: 'One of the three plans is chosen and its price is in the total.' },
        on: {
          'plan.select': {
            guard: 'isOfferedPlan',
            description: 'Select another plan, recompute the total and re-check the promo code.',
            meta: { product: 'The shopper picks another plan; the total and any discount follow at once.' },
            actions: [assign({ selectedPid: ({ event }) => event.pid }), 'recomputeQuote', raise({ type: 'promo.recheck' })],
          },
        },
      },
    },
  }),
  addons: checkoutSetup.createStateConfig({
    description: 'Extra connection and proxy protection toggles.',
    meta: { product: 'The extras the shopper can add: an extra connection and proxy protection.' },
    type: 'parallel',
    states: {
      extraConnection: {
        description: 'The extra connection toggle.',
        meta: { product: 'The switch for an extra connection.' },
        initial: 'deciding',
        states: {
          deciding: {
            description: 'Shows the toggle as chosen before (pre-fill or earlier choice).',
            meta: { product: 'The switch appears as the shopper left it earlier, or as their link preset it.' },
            always: [{ guard: 'extraConnectionChosen', target: 'on', description: 'Chosen before.', meta: { product: 'It was added before, so the switch shows as on.' } }, { target: 'off', description: 'Not chosen.', meta: { product: 'It was not added before, so the switch shows as off.' } }],
          },
          off: {
            description: 'No extra connection.',
            meta: { product: 'No extra connection is added.' },
            on: {
              'extraConnection.toggle': {
                target: 'on',
                description: 'Add the extra connection and recompute the total.',
                meta: { product: 'The shopper adds an extra connection and the total goes up.' },
                actions: [assign({ extraConnection: true }), 'recomputeQuote'],
              },
            },
          },
          on: {
            description: 'Extra connection added.',
            meta: { product: 'An extra connection is added and counted in the total.' },
            on: {
              'extraConnection.toggle': {
                target: 'off',
                description: 'Remove the extra connection and recompute the total.',
                meta: { product: 'The shopper removes the extra connection and the total goes down.' },
                actions: [assign({ extraConnection: false }), 'recomputeQuote'],
              },
            },
          },
        },
      },
      proxyProtection: {
        description: 'The proxy protection toggle.',
        meta: { product: 'The switch for proxy protection.' },
        initial: 'deciding',
        states: {
          deciding: {
            description: 'Shows the toggle as chosen before (pre-fill or earlier choice).',
            meta: { product: 'The switch appears as the shopper left it earlier, or as their link preset it.' },
            always: [{ guard: 'proxyProtectionChosen', target: 'on', description: 'Chosen before.', meta: { product: 'It was added before, so the switch shows as on.' } }, { target: 'off', description: 'Not chosen.', meta: { product: 'It was not added before, so the switch shows as off.' } }],
          },
          off: {
            description: 'No proxy protection.',
            meta: { product: 'No proxy protection is added.' },
            on: {
              'proxyProtection.toggle': {
                target: 'on',
                description: 'Add proxy protection and recompute the total.',
                meta: { product: 'The shopper adds proxy protection and the total goes up.' },
                actions: [assign({ proxyProtection: true }), 'recomputeQuote'],
              },
            },
          },
          on: {
            description: 'Proxy protection added.',
            meta: { product: 'Proxy protection is added and counted in the total.' },
            on: {
              'proxyProtection.toggle': {
                target: 'off',
                description: 'Remove proxy protection and recompute the total.',
                meta: { product: 'The shopper removes proxy protection and the total goes down.' },
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
    meta: { product: 'The box where the shopper can enter a discount code.' },
    initial: 'deciding',
    states: {
      deciding: {
        description: 'Shows the promo as it was: applied, refused, a pre-filled code to check, or empty.',
        meta: { product: 'The discount box appears as the shopper left it, or checks a code their link brought.' },
        always: [
          { guard: 'hasAppliedPromotion', target: 'applied', description: 'A promotion is applied.', meta: { product: 'A discount was already applied, so it still shows.' } },
          { guard: 'hasPromoError', target: 'rejected', description: 'The code was refused.', meta: { product: 'The code was already refused, so the message still shows.' } },
          { guard: 'hasPendingPromoCheck', target: 'checking', description: 'Check the pre-filled code.', meta: { product: 'The link brought a discount code, so it is checked straight away.' } },
          { target: 'idle', description: 'Nothing to show.', meta: { product: 'No code yet: the box is empty.' } },
        ],
      },
      idle: {
        description: 'No promotion applied; the code can be typed.',
        meta: { product: 'No discount applied; the shopper can type a code.' },
        on: {
          'promo.change': { description: 'Type the code.', meta: { product: 'The shopper types a discount code.' }, actions: assign({ promoCode: ({ event }) => event.code }) },
          'promo.apply': { guard: 'hasPromoCode', target: 'checking', description: 'Check the typed code.', meta: { product: 'The shopper asks to apply the code they typed.' } },
        },
      },
      checking: {
        description: 'Looking the code up.',
        meta: { product: 'The shopper waits a moment while the discount code is checked.' },
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
              meta: { product: 'The code is valid for the chosen plan: the discount is applied and the total drops.' },
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
              meta: { product: 'The code does not apply (wrong plan, not started, expired or used up); the shopper is told why.' },
              actions: [assign(({ context, event }) => ({ promoLookup: event.output, promotion: null, promoError: refusalOf(context, event.output) })), 'recomputeQuote'],
            },
          ],
          onError: {
            target: 'rejected',
            description: "The lookup failed: show the server's message.",
            meta: { product: 'The code could not be checked; the shopper sees the reason.' },
            actions: [assign(({ event }) => ({ promoLookup: null, promotion: null, promoError: { serverMessage: errorMessage(event.error) } })), 'recomputeQuote'],
          },
        },
        on: { 'order.submit': { description: 'Ignored until the code is checked.', meta: { product: 'Pressing the order button does nothing until the discount code has been checked.' } } },
      },
      applied: {
        description: 'The discount is applied; it can be removed.',
        meta: { product: 'The discount is applied and shown in the total; the shopper can remove it.' },
        on: {
          'promo.remove': {
            target: 'idle',
            description: 'Remove the code: the total goes back to the undiscounted one.',
            meta: { product: 'The shopper removes the discount and the total goes back to the full price.' },
            actions: [assign({ promoCode: '', promoLookup: null, promotion: null }), 'recomputeQuote'],
          },
          'promo.change': {
            target: 'idle',
            description: 'Editing the code removes the discount.',
            meta: { product: 'The shopper edits the code, so the discount is taken off until it is applied again.' },
            actions: [assign(({ event }) => ({ promoCode: event.code, promoLookup: null, promotion: null })), 'recomputeQuote'],
          },
          'promo.recheck': [
            {
              guard: 'lookupFitsSelectedPlan',
              description: 'The new plan keeps the discount; recompute the total.',
              meta: { product: 'The shopper changed plan and the discount still applies to it; the total is updated.' },
              actions: 'recomputeQuote',
            },
            {
              target: 'rejected',
              description: 'The new plan is not listed: remove the discount.',
              meta: { product: 'The shopper changed to a plan the code does not cover, so the discount is removed with a message.' },
              actions: [assign(({ context }) => ({ promotion: null, promoError: refusalOf(context, context.promoLookup!) })), 'recomputeQuote'],
            },
          ],
        },
      },
      rejected: {
        description: 'The code was refused; the message key or server message is shown.',
        meta: { product: 'The code was refused and the shopper sees why.' },
        on: {
          'promo.change': {
            target: 'idle',
            description: 'Editing the code clears the message.',
            meta: { product: 'The shopper edits the code, so the message goes away.' },
            actions: assign({ promoCode: ({ event }) => event.code, promoLookup: null, promoError: null }),
          },
          'promo.apply': { guard: 'hasPromoCode', target: 'checking', description: 'Check the code again.', meta: { product: 'The shopper tries the code again.' } },
          'promo.recheck': {
            guard: 'lookupFitsSelectedPlan',
            target: 'applied',
            description: 'The new plan is listed: apply the discount.',
            meta: { product: 'The shopper changed to a plan the code covers, so the discount is applied after all.' },
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
    meta: { product: 'The e-mail address where the shopper gets the receipt and their login details.' },
    initial: 'deciding',
    states: {
      deciding: {
        description: 'Shows the pre-filled or earlier e-mail.',
        meta: { product: 'The e-mail field appears as the shopper left it, or as their link filled it in.' },
        always: [
          { guard: 'emailRequired', target: 'required', description: 'The automatic order stopped for its missing e-mail: ask for it at once.', meta: { product: "The link's order stopped for want of an e-mail, so the shopper is asked for one at once." }, actions: 'requireEmail' },
          { guard: 'isEmptyEmail', target: 'empty', description: 'No e-mail yet.', meta: { product: 'No e-mail yet: the field is empty.' } },
          { guard: 'isValidEmail', target: 'valid', description: 'A valid e-mail.', meta: { product: 'The e-mail already given is a valid address.' } },
          { target: 'invalid', description: 'An invalid e-mail.', meta: { product: 'The e-mail already given is not a valid address, so the shopper is asked to fix it.' }, actions: assign({ emailError: 'email.invalid' }) },
        ],
      },
      empty: {
        description: 'No e-mail typed.',
        meta: { product: 'The shopper has not typed an e-mail yet.' },
        on: {
          'email.change': emailChange,
          'order.submit': { guard: 'isGuest', target: 'required', description: "Submitted without an e-mail: say 'Please enter a Valid Email.'", meta: { product: 'The shopper ordered without an e-mail and is asked for a valid one.' }, actions: 'requireEmail' },
        },
      },
      required: { description: "Submitted without an e-mail: 'Please enter a Valid Email.' is shown until it is typed.", meta: { product: 'The shopper is asked for a valid e-mail until they type one.' }, on: { 'email.change': emailChange } },
      invalid: { description: "The e-mail has the wrong shape; 'email.invalid' is shown.", meta: { product: 'What the shopper typed is not an e-mail address; they are asked for a valid one.' }, on: { 'email.change': emailChange } },
      valid: { description: 'The e-mail has the shape text@text.text.', meta: { product: 'The shopper has typed an e-mail address we can send the receipt to.' }, on: { 'email.change': emailChange } },
    },
  }),
  gateway: checkoutSetup.createStateConfig({
    description: 'The payment method.',
    meta: { product: 'How the shopper will pay.' },
    initial: 'selected',
    states: {
      selected: {
        description: 'A gateway (the default at first) is selected.',
        meta: { product: "A payment method is chosen (the shop's usual one at first)." },
        on: {
          'gateway.select': { guard: 'isOfferedGateway', description: 'Select another gateway.', meta: { product: 'The shopper picks another payment method.' }, actions: assign({ selectedGateway: ({ event }) => event.module }) },
        },
      },
    },
  }),
  reminder: checkoutSetup.createStateConfig({
    description: '"Remind me if I don\'t finish": one mail if the order is still unpaid after a while.',
    meta: { product: 'The "remind me if I don\'t finish" box: one e-mail if the order is still unpaid after a while.' },
    initial: 'restore',
    states: {
      restore: {
        description: 'Shows the checkbox as it was (ticked at first).',
        meta: { product: 'The reminder box appears as the shopper left it (ticked at first).' },
        always: [{ guard: 'remindChosen', target: 'on', description: 'Ticked.', meta: { product: 'The shopper wanted a reminder, so the box shows ticked.' } }, { target: 'off', description: 'Unticked.', meta: { product: 'The shopper did not want a reminder, so the box shows unticked.' } }],
      },
      on: {
        description: 'A reminder is wanted.',
        meta: { product: 'The shopper will get a reminder e-mail if they leave the order unpaid.' },
        on: { 'remind.toggle': { target: 'off', description: 'Untick: no reminder.', meta: { product: 'The shopper unticks the box: no reminder will be sent.' }, actions: assign({ remind: false }) } },
      },
      off: {
        description: 'No reminder.',
        meta: { product: 'No reminder will be sent.' },
        on: { 'remind.toggle': { target: 'on', description: 'Tick again.', meta: { product: 'The shopper ticks the box again: a reminder will be sent if they do not finish.' }, actions: assign({ remind: true }) } },
      },
    },
  }),
  unpaidOrder: checkoutSetup.createStateConfig({
    description: 'The banner of an order this browser left unpaid: continue to its payment, or cancel it.',
    meta: { product: 'The banner of an order the shopper left unpaid in this browser: pay it now, or cancel it.' },
    initial: 'deciding',
    states: {
      deciding: {
        description: 'Shows the banner while the saved order is unpaid.',
        meta: { product: 'The banner shows only while the earlier order is still unpaid.' },
        always: [{ guard: 'hasUnpaidOrder', target: 'shown', description: 'An unpaid order.', meta: { product: 'The shopper left an order unpaid, so the banner offers it.' } }, { target: 'none', description: 'None.', meta: { product: 'There is no unpaid order, so no banner.' } }],
      },
      none: { description: 'No unpaid order: no banner.', meta: { product: 'No unpaid order: no banner.' } },
      shown: {
        description: '"You have an unpaid order #N": continue to payment, or cancel it.',
        meta: { product: '"You have an unpaid order": the shopper can go on to pay it, or cancel it.' },
        on: {
          'unpaidOrder.continue': { target: '#checkout.resumingOrder', description: 'Continue to its payment.', meta: { product: 'The shopper chooses to pay the earlier order.' } },
          'unpaidOrder.cancel': { target: 'confirmingCancel', description: 'Asks once whether to cancel it.', meta: { product: 'The shopper chooses to cancel it and is asked to confirm.' }, actions: assign({ unpaidOrderError: null }) },
        },
      },
      confirmingCancel: {
        description: 'Cancel order #N? The shopper confirms or keeps the order; nothing is cancelled yet.',
        meta: { product: 'The shopper is asked whether to cancel the earlier order; nothing is cancelled yet.' },
        on: {
          'unpaidOrder.confirmCancel': { target: 'cancelling', description: 'Confirmed: cancel it on the server.', meta: { product: 'The shopper confirms: the earlier order is cancelled.' } },
          'unpaidOrder.keep': { target: 'shown', description: 'The order is kept.', meta: { product: 'The shopper changes their mind and keeps the order.' } },
        },
      },
      cancelling: {
        description: 'Cancelling the unpaid order.',
        meta: { product: 'The shopper waits a moment while the earlier order is cancelled.' },
        invoke: {
          id: 'cancelUnpaidOrder',
          src: 'cancelUnpaidOrder',
          input: ({ context }) => ({ orderid: context.unpaidOrder!.orderid }),
          onDone: {
            target: 'none',
            description: 'Cancelled: the banner goes, and so does the saved payment.',
            meta: { product: 'The earlier order is cancelled and the banner goes away.' },
            actions: [{ type: 'forgetSavedOrder', params: ({ context }) => ({ orderid: context.unpaidOrder!.orderid }) }, assign({ unpaidOrder: null })],
          },
          onError: { target: 'shown', description: "Not cancelled: the banner stays with the server's message.", meta: { product: 'The order could not be cancelled; the banner stays and shows why.' }, actions: assign({ unpaidOrderError: ({ event }) => errorMessage(event.error) }) },
        },
      },
    },
  }),
};
