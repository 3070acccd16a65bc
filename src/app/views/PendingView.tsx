import type { ReactNode } from 'react';
import { Logo } from '../components/Icons';

/** Shown while a route loads for longer than the minimum loading time (translations may not be loaded yet: no text). */
export function PendingView() {
  return (
    <section className="page" aria-busy="true">
      <div className="skeleton-title" />
      <div className="skeleton-block tall" />
    </section>
  );
}

/** The page while the app starts: the same header index.html shows, so nothing flickers or moves. */
export function StartingView() {
  return (
    <Shell>
      <PendingView />
    </Shell>
  );
}

/** The header and main of a page the server sends before (or without) the app. */
export function Shell({ children }: { children: ReactNode }) {
  return (
    <>
      <header className="site-header">
        <div className="bar">
          <Brand />
        </div>
      </header>
      <main id="main">{children}</main>
    </>
  );
}

/** The shop's mark as the header shows it before the app (and the merchant's name) is there. */
export function Brand() {
  return (
    <span className="brand">
      <Logo />
      <span>TV Checkout</span>
    </span>
  );
}
