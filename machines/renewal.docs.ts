/** What the diagrams (docs/statecharts/renewal.md) and the studio say of each actor, action, guard and event of the renewal machine. */
export const renewalMachineDocs = {
  actors: {
    loadRenewal: {
      description: "Loads the service's renewal: due date, whether it renews, its open renewal invoice (getRenewal).",
      input: '{ serviceid }',
      output: '{ serviceid, name, billingcycle, status, nextduedate, renewable, invoice: { invoiceid, status, amount, currency, periodStart, periodEnd } | null, invoiceDate }',
    },
    createPaymentLink: {
      description: 'Makes the payment link of the renewal invoice: offshore for a card gateway, coinbase for a crypto one (the same call as the waiting page).',
      input: "{ invoiceid, paymentmethod, amount, currency } and the gateway's type",
      output: '{ invoiceid, paymentmethod, link, deadline }',
    },
  },
  actions: {
    storeRenewal: {
      description: "Keeps the renewal; the gateway stays the chosen one if it takes the invoice's currency, else the default (or the first) that does.",
      input: 'the renewal',
      output: 'renewal, selectedGateway',
    },
    selectGateway: { description: 'Selects the payment gateway.', input: 'gateway', output: 'selectedGateway' },
    clearError: { description: 'Hides the last message.', output: 'error' },
    storeError: { description: 'Keeps the server message of a failed call (or of the refusal that reloads the renewal) to show it.', input: 'the actor error', output: 'error' },
    storeLink: { description: 'Keeps the payment link and its one-day deadline.', input: 'link, deadline', output: 'paymentLink, lastDate, duration' },
    redirectToPayment: { description: "Saves the payment for the waiting page (flow 'renewal') and sends the client to the gateway's page.", input: '{ link }' },
  },
  guards: {
    isSignedOut: { description: 'The load was refused for the session: not signed in (401 unauthenticated) or another account (403 forbidden).' },
    isLifetime: { description: 'The service is a lifetime (One Time) plan: it never falls due.' },
    isClosed: { description: 'The service cannot be renewed (terminated, cancelled, under review or not active yet).' },
    hasOpenInvoice: { description: 'A renewal invoice of the service is open (Unpaid).' },
    isPayableGateway: { description: "The chosen gateway is listed and takes the invoice's currency." },
    canPay: { description: "An invoice is open and the selected gateway takes its currency." },
    invoicePaid: { description: 'The server refused the link: the invoice is already paid (409 invoice_paid).' },
    priceChanged: { description: 'The server refused the link: the invoice holds another amount now (409 price_changed).' },
  },
  events: {
    'gateway.select': { description: 'The client picks a payment gateway.' },
    'renewal.pay': { description: 'The client pays the renewal invoice.' },
    'renewal.retry': { description: 'The client retries loading the renewal.' },
  },
};
