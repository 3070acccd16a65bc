import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { localeParam, useLocale } from '../locale';

/** A page with nothing to show for this visit: says why, and links home. */
export function NothingToShow({ message }: { message: string }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <>
      <p>{message}</p>
      <p>
        <Link to="/{-$locale}" params={{ locale: localeParam(locale) }} className="button">
          {t('app.backHome')}
        </Link>
      </p>
    </>
  );
}
