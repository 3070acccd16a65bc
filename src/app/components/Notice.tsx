import type { ReactNode } from 'react';

/** A busy notice with a spinner, e.g. while the order is created. */
export function Notice({ children }: { children: ReactNode }) {
  return (
    <div className="notice" role="status">
      <span className="spinner" aria-hidden="true" />
      <div>{children}</div>
    </div>
  );
}
