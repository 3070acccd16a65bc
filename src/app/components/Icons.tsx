import { gatewayIcon } from '../../domain/gateway';

/** The brand mark: a screen with a play sign. */
export function Logo() {
  return (
    <svg className="logo-mark" width="28" height="28" viewBox="0 0 28 28" aria-hidden="true" focusable="false">
      <rect x="2" y="5" width="24" height="16" rx="3" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M12 9.5v7l6-3.5z" fill="currentColor" />
      <path d="M9 25h10" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

/** A card icon for card-type gateways, a coin for crypto ones (spec section 9). */
export function GatewayIcon({ type }: { type: string }) {
  return gatewayIcon(type) === 'coin' ? (
    <svg className="gateway-icon" width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <circle cx="12" cy="12" r="9" fill="none" stroke="currentColor" strokeWidth="2" />
      <circle cx="12" cy="12" r="4.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
    </svg>
  ) : (
    <svg className="gateway-icon" width="24" height="24" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <rect x="2.5" y="5.5" width="19" height="13" rx="2" fill="none" stroke="currentColor" strokeWidth="2" />
      <path d="M3 10h18M6 15h4" stroke="currentColor" strokeWidth="2" />
    </svg>
  );
}
