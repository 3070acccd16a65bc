import { useTranslation } from 'react-i18next';
import { useFormat } from '../format';

/** "Renews on <day>" for a service with a due date, in the locale's date format; nothing for a lifetime one. */
export function RenewsOn({ date, className }: { date: string | null; className?: string }) {
  const { t } = useTranslation();
  const { day } = useFormat();
  if (!date) return null;
  return <p className={className}>{t('renew.renewsOn', { date: day(date) })}</p>;
}
