import { useTranslation } from 'react-i18next';
import { useApp } from '../hooks';

/**
 * Who sells, with the support, terms, privacy and refund links and a secure-payment hint (issue 16 item 2).
 * The merchant arrives with the session, before the app's first render; the prerendered page (which cannot
 * know it) shows the hint in the same reserved box, the last of the page, so nothing moves when it fills.
 */
export function MerchantFooter() {
  const { t } = useTranslation();
  const { merchant } = useApp().session;
  const links = merchant
    ? [
        merchant.supportEmail && { href: `mailto:${merchant.supportEmail}`, text: t('merchant.supportEmail', { email: merchant.supportEmail }) },
        merchant.supportUrl && { href: merchant.supportUrl, text: t('merchant.support') },
        merchant.termsUrl && { href: merchant.termsUrl, text: t('merchant.terms') },
        merchant.privacyUrl && { href: merchant.privacyUrl, text: t('merchant.privacy') },
        merchant.refundUrl && { href: merchant.refundUrl, text: t('merchant.refunds') },
      ].filter((link) => !!link)
    : [];
  return (
    <div className="merchant-footer" data-merchant-footer>
      {merchant && (
        <p className="merchant-name">
          {merchant.logo && <img src={merchant.logo} alt="" width={32} height={32} />}
          <strong>{t('merchant.soldBy', { name: merchant.name })}</strong>
        </p>
      )}
      <p className="hint">{t('merchant.securePayment')}</p>
      {links.length > 0 && (
        <nav aria-label={t('merchant.label')}>
          <ul>
            {links.map((link) => (
              <li key={link.href}>
                <a href={link.href}>{link.text}</a>
              </li>
            ))}
          </ul>
        </nav>
      )}
    </div>
  );
}
