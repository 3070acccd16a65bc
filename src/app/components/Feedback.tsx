import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** An error the shopper must notice: announced at once. */
export function Alert({ children }: { children: ReactNode }) {
  return (
    <p className="alert" role="alert">
      {children}
    </p>
  );
}

/** A placeholder the size of what it stands for (no layout shift), announced politely. */
export function Loading({ lines = 3 }: { lines?: number }) {
  const { t } = useTranslation();
  return (
    <div className="skeleton" role="status">
      <span className="visually-hidden">{t('app.loading')}</span>
      {Array.from({ length: lines }, (_, index) => (
        <div key={index} className="skeleton-block" />
      ))}
    </div>
  );
}
