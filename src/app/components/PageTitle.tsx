import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** The page's one h1; it names the document and takes the focus after a navigation (see the router). */
export function PageTitle({ children }: { children: string }) {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${children} · ${t('app.title')}`;
  }, [children, t]);
  return <h1 tabIndex={-1}>{children}</h1>;
}
