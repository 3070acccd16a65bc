import { Fragment, useEffect, useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { components } from '../../api/schema';
import { isCurrency } from '../../domain/currency';
import { unwrap } from '../api';
import { cycleKey, useFormat, useLocaleTag } from '../format';
import { useApp } from '../hooks';

/** The receipt as a status answer gives it, with the answer's total. */
export type ReceiptData = components['schemas']['Receipt'] & { amount: number; currency: string };

interface ReceiptProps {
  receipt: ReceiptData;
  invoiceid: number | null;
  /** Gateway names as this page lists them (they follow the page's language); the receipt's own name otherwise. */
  gateways?: ReadonlyArray<{ module: string; displayname: string }>;
  /** Shown above the rows, inside the block (the success page's "Thank you"). */
  lead?: ReactNode;
}

const RECEIPT_TIME: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZone: 'UTC', timeZoneName: 'short' };

/** What was bought and paid, from the server's invoice: plan, add-ons, promotion, total, invoice, date, payment method. */
export function Receipt({ receipt, invoiceid, gateways, lead }: ReceiptProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const tag = useLocaleTag();
  const headingId = useId();
  const money = (amount: number) => (isCurrency(receipt.currency) ? format.money(amount, receipt.currency) : `${amount.toFixed(2)} ${receipt.currency}`);
  const { paymentmethod } = receipt;
  const gatewayName = paymentmethod && (gateways?.find((gateway) => gateway.module === paymentmethod.module)?.displayname ?? paymentmethod.displayname);
  // A paid invoice is dated by its payment; an unpaid one by when it was made. In UTC, as invoices are: the server's page cannot know the browser's time zone.
  // To the minute: with seconds the line was long enough to wrap on a phone.
  const date = new Intl.DateTimeFormat(tag, RECEIPT_TIME).format(new Date(receipt.datepaid ?? receipt.date));
  return (
    <section className="summary receipt" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('receipt.title')}</h2>
      {lead}
      <dl>
        {receipt.lines.map((line, index) => {
          const addons = [
            ...(line.extraConnections > 0 ? [t('receipt.extraConnections', { count: line.extraConnections })] : []),
            ...(line.proxyProtection ? [t('receipt.proxyProtection')] : []),
          ];
          return (
            <Fragment key={index}>
              <div className="line">
                <dt>{t('receipt.plan')}</dt>
                <dd>{t('receipt.planLine', { name: line.name, cycle: t(`cycle.${cycleKey(line.billingcycle)}`) })}</dd>
              </div>
              {addons.length > 0 && (
                <div className="line">
                  <dt>{t('receipt.addons')}</dt>
                  <dd>{addons.join(', ')}</dd>
                </div>
              )}
            </Fragment>
          );
        })}
        {receipt.promocode && (
          <>
            <div className="line">
              <dt>{t('receipt.promocode')}</dt>
              <dd>{receipt.promocode}</dd>
            </div>
            <div className="line">
              <dt>{t('receipt.discount')}</dt>
              <dd>−{money(receipt.discount)}</dd>
            </div>
          </>
        )}
        <div className="line total">
          <dt>{t('receipt.total')}</dt>
          <dd>{money(receipt.amount)}</dd>
        </div>
        {invoiceid !== null && (
          <div className="line">
            <dt>{t('receipt.invoice')}</dt>
            <dd>#{invoiceid}</dd>
          </div>
        )}
        <div className="line">
          <dt>{t(receipt.datepaid ? 'receipt.datePaid' : 'receipt.date')}</dt>
          <dd>{date}</dd>
        </div>
        {gatewayName && (
          <div className="line">
            <dt>{t('receipt.paymentMethod')}</dt>
            <dd>{gatewayName}</dd>
          </div>
        )}
      </dl>
    </section>
  );
}

/**
 * The success page's receipt with its "Thank you": the invoice as the server reads it now (so a reload
 * shows it again); nothing while it loads, or when it cannot be read (another shopper's invoice).
 */
export function InvoiceReceipt({ invoiceid }: { invoiceid: number }) {
  const { t } = useTranslation();
  const { client, catalogueLocale } = useApp();
  const locale = catalogueLocale();
  const [receipt, setReceipt] = useState<ReceiptData | null>(null);
  useEffect(() => {
    let current = true;
    unwrap(client.GET('/checkout/api/invoiceStatus', { params: { query: { invoiceid: String(invoiceid), locale } } })).then(
      ({ receipt: read, amount, currency }) => current && setReceipt({ ...read, amount, currency }),
      // The credentials below say what went wrong with the session; the receipt is left out.
      () => current && setReceipt(null),
    );
    return () => {
      current = false;
    };
  }, [client, invoiceid, locale]);
  if (!receipt) return null;
  return <Receipt receipt={receipt} invoiceid={invoiceid} lead={<p className="thank-you">{t('receipt.thankYou')}</p>} />;
}
