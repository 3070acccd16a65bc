import { useTranslation } from 'react-i18next';
import { statusKey } from '../status';

/** A service's status as a badge: green when Active, amber otherwise (a status this app does not name shows as it came). */
export function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const key = statusKey(status);
  return <span className={`badge ${status === 'Active' ? 'success' : 'warning'}`}>{key ? t(`status.${key}`) : status}</span>;
}
