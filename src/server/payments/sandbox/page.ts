import { cycle as CYCLE_TEXTS, receipt as RECEIPT_TEXTS } from '../../../i18n/locales/en-en.json';
import type { InvoiceProgress } from '../../billing/port';
import { escapeHtml, serverPage } from '../../html-page';
import { MERCHANT_FOOTER_CSS, type Merchant } from '../../merchant';
import { groupedNumber, TEST_CARDS, type CardEntry, type CardField } from './card';

/** What the page says the payment is for: the invoice's lines as the billing knows them. */
export type SandboxReceipt = Pick<InvoiceProgress, 'lines' | 'promocode' | 'discountCents'>;

/** A hosted payment page's layout: the order on one side, the payment on the other (stacked on a phone), in system colours for both schemes. */
const HOSTED_CSS = [
  'body{display:grid;grid-template-rows:auto 1fr auto;min-height:100vh}',
  'main{width:100%;max-width:56rem;box-sizing:border-box;margin:0 auto;padding:1.5rem 1rem;display:grid;gap:1.5rem 3rem;align-content:start}',
  '@media (min-width:48rem){main{grid-template-columns:1fr 1fr;padding-top:3rem}}',
  '.merchant{display:flex;align-items:center;gap:.75rem;margin:0 0 1rem;font-weight:600}',
  '.merchant img{width:2.5rem;height:2.5rem;object-fit:contain}',
  'h1{font-size:1rem;font-weight:600;margin:0}',
  '.amount{font-size:2.25rem;font-weight:700;margin:.25rem 0 1rem}',
  '.lines{list-style:none;margin:0;padding:0;border-top:1px solid GrayText}',
  '.lines li{display:flex;justify-content:space-between;gap:1rem;padding:.6rem 0;border-bottom:1px solid GrayText}',
  '.no-money{margin:0 0 1.25rem;padding:.75rem 1rem;border-radius:8px;background:#fff3d6;color:#5c3b00;border:1px solid #d9b36a;font-weight:600}',
  '.panel{border:1px solid GrayText;border-radius:12px;padding:1.5rem}',
  '.panel h2{font-size:1.25rem;margin:0 0 1rem}',
  '.field{margin:0 0 1rem}',
  '.field label{display:block;font-weight:600;margin-bottom:.25rem}',
  '.hint{display:block;font-size:.875rem;margin-bottom:.25rem}',
  'input{font:inherit;font-size:1.125rem;width:100%;box-sizing:border-box;padding:.6rem .75rem;border:1px solid GrayText;border-radius:8px;background:Field;color:FieldText}',
  'input:focus-visible{outline:3px solid #1a73e8;outline-offset:1px}',
  'input[aria-invalid="true"]{border:2px solid #b3261e}',
  '.pair{display:grid;grid-template-columns:1fr 1fr;gap:1rem}',
  '.error{color:#b3261e;font-weight:600;margin:.25rem 0 0}',
  '@media (prefers-color-scheme:dark){.error{color:#ffb4ab}input[aria-invalid="true"]{border-color:#ffb4ab}}',
  'button{font:inherit;padding:.75rem 1.25rem;border-radius:8px;border:2px solid currentColor;cursor:pointer;background:ButtonFace;color:ButtonText}',
  'button.pay{width:100%;background:#0a6b2b;color:#fff;border-color:#0a6b2b;font-weight:600;font-size:1.125rem}',
  '.actions{display:flex;flex-wrap:wrap;gap:1rem}',
  '.test-cards{margin-top:1.5rem;font-size:.9375rem}',
  '.test-cards h3{font-size:1rem;margin:0 0 .5rem}',
  '.test-cards ul{margin:0;padding-left:1.25rem}',
  '.test-cards li{margin:.25rem 0}',
  '.test-cards a{color:LinkText}',
  'code{font-size:1em}',
  MERCHANT_FOOTER_CSS,
].join('\n');

/** Money as the provider's page writes it (English, like the providers' pages it stands for). */
export const money = (cents: number, currency: string) => new Intl.NumberFormat('en', { style: 'currency', currency }).format(cents / 100);

const cycleText = (billingcycle: string) => CYCLE_TEXTS[billingcycle.replace(/[-\s]/g, '').toLowerCase() as keyof typeof CYCLE_TEXTS] ?? billingcycle;

/** The invoice's lines as the shopper reads them: plan and cycle, add-ons, promotion. */
function receiptLines(receipt: SandboxReceipt, currency: string): string[] {
  const rows = receipt.lines.flatMap((line) => [
    `<li><span>${escapeHtml(RECEIPT_TEXTS.planLine.replace('{{name}}', line.name).replace('{{cycle}}', cycleText(line.billingcycle)))}</span></li>`,
    ...(line.extraConnections > 0 ? [`<li><span>${escapeHtml((line.extraConnections === 1 ? RECEIPT_TEXTS.extraConnections_one : RECEIPT_TEXTS.extraConnections_other).replace('{{count}}', String(line.extraConnections)))}</span></li>`] : []),
    ...(line.proxyProtection ? [`<li><span>${escapeHtml(RECEIPT_TEXTS.proxyProtection)}</span></li>`] : []),
  ]);
  if (receipt.promocode) rows.push(`<li><span>Promo code ${escapeHtml(receipt.promocode)}</span><span>−${escapeHtml(money(receipt.discountCents, currency))}</span></li>`);
  return rows;
}

/** What every sandbox payment page shares: whom the shopper pays, the amount and its lines, the "no money moves" notice. */
export interface HostedPage {
  title: string;
  merchant: Merchant;
  /** The gateway's name, the page's heading (the shopper chose it in the checkout). */
  gatewayName: string;
  invoiceId: number;
  amount: string;
  receipt: SandboxReceipt;
  currency: string;
  /** The payment side of the page: the card form, the wallet's buttons, or the second step. */
  panel: string;
  demo: boolean;
  footer: string;
}

export function hostedPage({ title, merchant, gatewayName, invoiceId, amount, receipt, currency, panel, demo, footer }: HostedPage): string {
  const logo = merchant.logo ? `<img src="${escapeHtml(merchant.logo)}" alt="" width="40" height="40">` : '';
  const lines = receiptLines(receipt, currency);
  const body = `
<section class="order" aria-label="Order summary">
<p class="merchant">${logo}<span>${escapeHtml(merchant.name)}</span></p>
<h1>${escapeHtml(gatewayName)}</h1>
<p class="amount"><span class="visually-hidden">Amount to pay: </span>${escapeHtml(amount)}</p>
${lines.length ? `<ul class="lines" aria-label="What it pays for">${lines.join('')}</ul>` : ''}
<p>Invoice #${invoiceId}</p>
</section>
<section class="panel" aria-labelledby="panel-heading">
<p class="no-money">Demo — no money moves</p>
${panel}
</section>`;
  return serverPage({ title, site: 'Sandbox payments', css: HOSTED_CSS, body, demo, after: footer });
}

/** A field's error, tied to its input by aria-describedby. */
const errorId = (field: CardField) => `${field}-error`;

function cardField(field: CardField, label: string, value: string, error: string | undefined, attributes: string, hint?: string): string {
  const described = [hint ? `${field}-hint` : '', error ? errorId(field) : ''].filter(Boolean).join(' ');
  return `<div class="field"><label for="${field}">${label}</label>${hint ? `<span class="hint" id="${field}-hint">${hint}</span>` : ''}`
    + `<input id="${field}" name="${field}" value="${escapeHtml(value)}" ${attributes}${described ? ` aria-describedby="${described}"` : ''}${error ? ' aria-invalid="true"' : ''}>`
    + `${error ? `<p class="error" id="${errorId(field)}">${escapeHtml(error)}</p>` : ''}</div>`;
}

/** The expiry the prefill links give: December of next year, which every test card accepts. */
const nextYearsExpiry = (now: Date) => `12 / ${String((now.getUTCFullYear() + 1) % 100).padStart(2, '0')}`;

/** The card form: number, expiry, CVC; the first field in error (else the number) takes the focus. */
export function cardPanel({ action, amount, entry, errors = {}, declinedBefore, now }: { action: string; amount: string; entry: CardEntry; errors?: Partial<Record<CardField, string>>; declinedBefore: boolean; now: Date }): string {
  const focus = (['card', 'expiry', 'cvc'] as const).find((field) => errors[field]) ?? 'card';
  const auto = (field: CardField) => (field === focus ? ' autofocus' : '');
  const tests = TEST_CARDS.map(({ number, says }) =>
    `<li><a href="${escapeHtml(action)}?card=${number}">${groupedNumber(number)}</a>: ${escapeHtml(says)}</li>`).join('');
  return `<h2 id="panel-heading">Pay with card</h2>
${declinedBefore ? '<p>This payment was declined before; you can try again.</p>' : ''}
<form method="post" action="${escapeHtml(action)}" novalidate>
${cardField('card', 'Card number', entry.card, errors.card, `type="text" inputmode="numeric" autocomplete="cc-number" spellcheck="false"${auto('card')}`)}
<div class="pair">
${cardField('expiry', 'Expiry date', entry.expiry, errors.expiry, `type="text" inputmode="numeric" autocomplete="cc-exp"${auto('expiry')}`, 'MM / YY')}
${cardField('cvc', 'Security code', entry.cvc, errors.cvc, `type="text" inputmode="numeric" autocomplete="cc-csc" maxlength="4"${auto('cvc')}`, '3 digits')}
</div>
<button class="pay" type="submit" name="decision" value="card">Pay ${escapeHtml(amount)}</button>
</form>
<div class="test-cards">
<h3>Test cards</h3>
<p>Any future expiry date and any 3 digits work. A link fills the form with its card${'\u00a0'}(expiry ${nextYearsExpiry(now)}, code 123).</p>
<ul>${tests}</ul>
</div>`;
}

/** The prefilled form of a test card link: its number, a future expiry, a code. */
export function prefilledEntry(card: string | undefined, now: Date): CardEntry {
  const test = TEST_CARDS.find(({ number }) => number === card);
  if (!test) return { card: '', expiry: '', cvc: '' };
  return { card: groupedNumber(test.number), expiry: nextYearsExpiry(now), cvc: '123' };
}

/** A crypto wallet's look-alike: pay, pay and confirm later (money seen on the chain), or decline. */
export function walletPanel({ action, amount, declinedBefore }: { action: string; amount: string; declinedBefore: boolean }): string {
  return `<h2 id="panel-heading">Pay from your wallet</h2>
<p>The sandbox wallet sends the amount at once, or shows it as received and confirms it later, as a blockchain does.</p>
${declinedBefore ? '<p>This payment was declined before; you can still pay it.</p>' : ''}
<form method="post" action="${escapeHtml(action)}">
<div class="actions">
<button class="pay" type="submit" name="decision" value="pay" autofocus>Pay ${escapeHtml(amount)}</button>
<button type="submit" name="decision" value="confirm_later">Pay, confirm later</button>
<button type="submit" name="decision" value="decline">Decline</button>
</div></form>`;
}

/** Money seen on the chain, waiting for its confirmation: the demo confirms it when it likes. */
export function confirmingPanel(action: string): string {
  return `<h2 id="panel-heading">Payment received</h2>
<p>The payment was received and is waiting for its confirmation.</p>
<form method="post" action="${escapeHtml(action)}">
<button class="pay" type="submit" name="decision" value="pay" autofocus>Confirm the payment</button>
</form>`;
}

/** The card issuer's second step (3-D Secure look-alike): the shopper confirms, or refuses, the payment. */
export function secondStepPanel({ action, amount, merchant, card }: { action: string; amount: string; merchant: string; card: string }): string {
  return `<h2 id="panel-heading">Confirm your payment</h2>
<p>Your bank asks you to confirm the payment of <strong>${escapeHtml(amount)}</strong> to ${escapeHtml(merchant)} with the card ending in ${escapeHtml(card.slice(-4))}.</p>
<form method="post" action="${escapeHtml(action)}">
<div class="actions">
<button class="pay" type="submit" name="decision" value="pay" autofocus>Confirm the payment</button>
<button type="submit" name="decision" value="decline">Refuse</button>
</div></form>`;
}
