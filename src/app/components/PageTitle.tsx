import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** The document's title for a page: its h1, then the app's name. */
export const documentTitle = (pageTitle: string, appTitle: string) => `${pageTitle} · ${appTitle}`;

/** The page's one h1; it names the document and takes the focus after a navigation (see the router). */
export function PageTitle({ children }: { children: string }) {
  const { t } = useTranslation();
  useEffect(() => {
    // eslint-disable-next-line no-restricted-globals -- an effect: never runs in the server's render (which writes the title itself).
    document.title = documentTitle(children, t('app.title'));
  }, [children, t]);
  return <h1 tabIndex={-1}>{children}</h1>;
}
