/** How an order status is shown: Active green, Cancelled grey, anything else amber. */
export type StatusTone = 'success' | 'muted' | 'warning';

export function statusTone(status: string): StatusTone {
  if (status === 'Active') return 'success';
  if (status === 'Cancelled') return 'muted';
  return 'warning';
}
