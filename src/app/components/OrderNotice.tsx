import { useTranslation } from 'react-i18next';
import { Notice } from './Notice';

/** The order-creation notice; once the payment link exists, a way to open it by hand. */
export function OrderNotice({ link }: { link: string | null }) {
  const { t } = useTranslation();
  return (
    <Notice>
      <p>{link ? t('creatingOrder.redirecting') : t('creatingOrder.text')}</p>
      {link && (
        <p>
          <a href={link}>{t('creatingOrder.manualLink')}</a>
        </p>
      )}
    </Notice>
  );
}
