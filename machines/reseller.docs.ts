/** What the diagrams (docs/statecharts/reseller.md) and the studio say of each actor, action, guard and event of the reseller machine. */
export const resellerMachineDocs = {
  actors: {
    loadResellerProducts: {
      description: 'Loads the reseller products (getResellersProducts).',
      input: 'none',
      output: '{ totalresults, products: [{ pid, name, billingcycle, pricing, … }] }',
    },
    resellerAuth: {
      description: 'Signs an existing reseller in, or signs a new one up (resellerAuth).',
      input: '{ email, password, existingReseller }',
      output: '{ userid, email, reseller }',
    },
    createOrder: {
      description: 'Creates the reseller order (order with a pid list); a new reseller also orders the new-reseller product.',
      input: '{ pid: number[], paymentmethod, amount, currency }',
      output: '{ orderid, invoiceid, serviceids, fraud, status, amount, currency, link, deadline }',
    },
    loadResellerProduct: {
      description: 'Looks up the reseller service of the success page (getResellerProducts).',
      input: '{ serviceid }',
      output: '{ serviceid, pid, name, status, reseller: { name, status } }',
    },
  },
  actions: {
    storeProducts: {
      description: 'Keeps the reseller products, selects the second (the first if only one) and prices the order.',
      input: 'products',
      output: 'products, selectedPid, price',
    },
    selectPlan: { description: 'Selects another reseller product and reprices.', input: 'pid', output: 'selectedPid, price' },
    chooseExisting: {
      description: 'Records the yes/no answer to "already a reseller?" and reprices (a new reseller adds a product).',
      input: 'existing',
      output: 'existingReseller, price, passwordError, passwordRuleError',
    },
    setEmail: {
      description: "Keeps the e-mail, flags a wrong shape ('email.invalid') and a new reseller's password that is the e-mail.",
      input: 'email',
      output: 'email, emailError, passwordRuleError',
    },
    setPassword: {
      description: "Keeps the password, checks a new reseller's against the rule ('reseller.passwordTooShort', 'reseller.passwordIsEmail') and the confirmation.",
      input: 'password',
      output: 'password, passwordError, passwordRuleError',
    },
    setConfirmation: {
      description: "Keeps the confirmation and flags a mismatch ('reseller.passwordMismatch').",
      input: 'password',
      output: 'confirmPassword, passwordError',
    },
    selectGateway: { description: 'Selects the payment gateway.', input: 'gateway', output: 'selectedGateway' },
    revealErrors: { description: 'A refused submit shows what is wrong with the e-mail and the password.', output: 'emailError, passwordError, passwordRuleError' },
    clearError: { description: 'Hides the last server message.', output: 'error' },
    storeError: { description: 'Keeps the server message of a failed call to show it.', input: 'the actor error', output: 'error' },
    storeUser: {
      description: 'Keeps the signed-in user and forgets the typed passwords.',
      input: 'userid, email',
      output: 'userid, email, password, confirmPassword, passwordRuleError',
    },
    storeOrder: {
      description: 'Keeps order id, invoice id, service id, fraud flag, the payment link and its one-day deadline.',
      input: 'the order answer',
      output: 'order, paymentLink, lastDate, duration',
    },
    redirectToPayment: { description: "Sends the reseller to the gateway's payment page; the reseller waiting step follows.", input: '{ link }' },
    goToWaiting: { description: 'Goes to the reseller waiting page when the order came back without a payment link.' },
    storeServiceId: { description: 'Keeps the service id of the reseller success page.', input: 'serviceid', output: 'serviceid' },
    storeResellerService: { description: 'Keeps the reseller service shown on the success page.', input: 'the lookup answer', output: 'resellerService' },
    redirectToResellers: { description: 'Sends the visitor to the localized reseller page.' },
  },
  guards: {
    hasProducts: { description: 'At least one reseller product came back.' },
    isResellerProduct: { description: 'The chosen pid is one of the reseller products.' },
    isKnownGateway: { description: 'The chosen gateway is in the gateway list.' },
    canOrderSignedIn: { description: 'Already signed in by an earlier submit, with a price and a listed gateway: order without signing in again.' },
    formComplete: {
      description: 'E-mail well formed, password given, for a new reseller the confirmation matches, a price and a listed gateway.',
    },
    hasPaymentLink: { description: 'The order came back with a payment link.' },
    canEnterResellerSuccess: { description: 'The success query has a service id and the user is logged in.' },
    isActiveResellerService: { description: 'The reseller service found is Active.' },
  },
  events: {
    'products.load': { description: 'The reseller page opens.' },
    'products.retry': { description: 'The visitor retries loading the reseller products.' },
    'success.check': { description: 'The reseller success page opens with its query (serviceid) and login state.' },
    'plan.select': { description: 'The visitor picks a reseller product.' },
    'reseller.choose': { description: 'The visitor answers "already a reseller?" yes or no.' },
    'email.change': { description: 'The visitor types the e-mail.' },
    'password.change': { description: 'The visitor types the password.' },
    'confirmation.change': { description: 'The new reseller types the password again.' },
    'gateway.select': { description: 'The visitor picks a payment gateway.' },
    'order.submit': { description: 'The visitor orders.' },
  },
};
