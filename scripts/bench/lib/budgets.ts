/**
 * The budgets of issue 17 and DESIGN.md section 9, in the order the report's "Budgets" summary lists them,
 * and the summary built from the figure rows that carry them. Pure, so it has tests of its own.
 */
export const BUDGETS = [
  { id: 'firstScreenRatio', label: 'first-screen JS, ours / floor app (same run)', budget: '≤ 1.10×' },
  { id: 'indexPerformance', label: 'index: Lighthouse performance', budget: '1.00' },
  { id: 'indexAccessibility', label: 'index: Lighthouse accessibility', budget: '1.00' },
  { id: 'indexLcp', label: 'index: LCP', budget: '≤ 0.8 s' },
  { id: 'indexLcpMinusFcp', label: 'index: LCP − FCP', budget: '≤ 100 ms' },
  { id: 'indexTbt', label: 'index: TBT', budget: '≤ 50 ms' },
  { id: 'indexCls', label: 'index: CLS', budget: '0' },
  { id: 'waitingLcp', label: 'waiting page (saved payment): LCP', budget: '≤ 1.0 s' },
  { id: 'shopperIndexLcp', label: 'index, 4× CPU in Chromium: LCP', budget: '≤ 0.8 s' },
  { id: 'shopperWaitingLcp', label: 'waiting, 4× CPU in Chromium: LCP', budget: '≤ 1.0 s' },
  { id: 'shopperSuccessLcp', label: 'success, 4× CPU in Chromium: LCP', budget: '≤ 1.0 s' },
  { id: 'shopperLcpMinusFcp', label: 'each page, 4× CPU in Chromium: LCP − FCP', budget: '≤ 100 ms' },
  { id: 'shopperTbt', label: "each page, 4× CPU in Chromium: TBT", budget: "≤ 50 ms and ≤ 1.5× the floor's" },
  { id: 'shopperCls', label: 'each page, 4× CPU in Chromium: CLS', budget: '0' },
  { id: 'shopperInp', label: 'index, 4× CPU in Chromium: INP of choosing, toggling, typing', budget: '≤ 100 ms' },
  { id: 'catalogueP99', label: 'catalogue reads at 500 req/s: p99', budget: '≤ 5 ms' },
  { id: 'ordersRate', label: 'orders/s, embedded store', budget: '≥ 300 orders/s' },
  { id: 'ordersP99', label: 'order p99, embedded store', budget: '≤ 50 ms' },
  { id: 'ordersExactlyOnce', label: 'orders exactly once (stored = 2xx)', budget: 'equal' },
  { id: 'overloadRefusedP99', label: 'overload, 4× the order knee: refused p99 (503 overloaded)', budget: '≤ 50 ms' },
  { id: 'overloadAcceptedP99', label: 'overload, 4× the order knee: accepted p99', budget: '≤ 10 × unloaded p99' },
  { id: 'overloadCachedReads', label: 'overload, 4× the order knee: getProducts and health served', budget: 'every probe 200' },
  { id: 'startClean', label: 'start after a clean stop (exec → first 200), existing data directory', budget: '≤ 1 s' },
  { id: 'startAfterKill', label: 'start after kill -9 (exec → first 200), existing data directory', budget: '≤ 1.5 s' },
  { id: 'startNew', label: 'start, new data directory', budget: '≤ 2 s' },
  { id: 'startNewMemory', label: 'memory, new data directory (VmHWM)', budget: '≤ 400 MiB' },
  { id: 'flowSender', label: 'flow traffic sender chunk (loaded after hydration)', budget: '≤ 3 kB' },
] as const;

export type BudgetId = (typeof BUDGETS)[number]['id'];

/** A figure and its budget, as the Budgets summary reads it (each of the report's rows, lib/report.ts, is one). */
export interface BudgetedFigure {
  measure: string;
  value: string;
  /** '' when the measure has no budget in DESIGN.md section 9. */
  budget: string;
  /** null when there is no budget to be within. */
  within: boolean | null;
  /** The budget of issue 17 / DESIGN.md section 9 this is the figure of, for the Budgets summary. */
  budgetId?: BudgetId;
}

/** The budget's text as the figure rows show it. */
export function budgetText(id: BudgetId): string {
  return (BUDGETS.find((entry) => entry.id === id) as (typeof BUDGETS)[number]).budget;
}

/**
 * One line per figure row that carries a budget, in BUDGETS' order: [budget, figure, limit, within], the
 * budget named by the row's measure when several rows carry it (one store and another, say). A budget no
 * row carries says 'not measured', so the summary always lists them all.
 */
export function budgetSummary(rows: readonly BudgetedFigure[]): string[][] {
  const lines: string[][] = [];
  for (const entry of BUDGETS) {
    const carrying = rows.filter((row) => row.budgetId === entry.id);
    if (carrying.length === 0) {
      lines.push([entry.label, 'not measured', entry.budget, '—']);
      continue;
    }
    for (const row of carrying) {
      const within = row.within === null ? '—' : row.within ? 'yes' : '**no**';
      lines.push([carrying.length > 1 ? row.measure : entry.label, row.value, row.budget || entry.budget, within]);
    }
  }
  return lines;
}
