import { describe, expect, it } from 'vitest';
import { BUDGETS, budgetSummary, budgetText } from './budgets';
import type { Row } from './report';

const row = (fields: Partial<Row>): Row => ({ section: 's', measure: 'm', value: 'v', budget: '', within: null, how: 'h', ...fields });

describe('bench budgets', () => {
  it('lists the budgets of issue 17 with their limits', () => {
    expect(budgetText('indexPerformance')).toBe('1.00');
    expect(budgetText('indexLcp')).toBe('≤ 0.8 s');
    expect(budgetText('indexLcpMinusFcp')).toBe('≤ 100 ms');
    expect(budgetText('indexTbt')).toBe('≤ 50 ms');
    expect(budgetText('waitingLcp')).toBe('≤ 1.0 s');
    expect(budgetText('firstScreenRatio')).toBe('≤ 1.10×');
    expect(budgetText('catalogueP99')).toBe('≤ 5 ms');
    expect(budgetText('ordersRate')).toBe('≥ 300 orders/s');
    expect(budgetText('ordersP99')).toBe('≤ 50 ms');
    expect(budgetText('startClean')).toBe('≤ 1 s');
    expect(budgetText('startAfterKill')).toBe('≤ 1.5 s');
    expect(budgetText('startNew')).toBe('≤ 2 s');
    expect(budgetText('startNewMemory')).toBe('≤ 400 MiB');
    expect(budgetText('overloadRefusedP99')).toBe('≤ 50 ms');
    expect(budgetText('overloadAcceptedP99')).toBe('≤ 10 × unloaded p99');
    expect(budgetText('flowSender')).toBe('≤ 3 kB');
    // Issue 30: the pages a shopper sees, on a slowed CPU, beside the floor app.
    expect(budgetText('shopperIndexLcp')).toBe('≤ 0.8 s');
    expect(budgetText('shopperWaitingLcp')).toBe('≤ 1.0 s');
    expect(budgetText('shopperSuccessLcp')).toBe('≤ 1.0 s');
    expect(budgetText('shopperLcpMinusFcp')).toBe('≤ 100 ms');
    expect(budgetText('shopperTbt')).toBe("≤ 50 ms and ≤ 1.5× the floor's");
    expect(budgetText('shopperInp')).toBe('≤ 100 ms');
    expect(budgetText('shopperCls')).toBe('0');
    expect(BUDGETS).toHaveLength(27);
  });

  it('gives each budget its figure and verdict in the budgets\' order, and says which were not measured', () => {
    const rows = [
      row({ measure: 'index: LCP', value: '0.75 s', budget: '≤ 0.8 s', within: true, budgetId: 'indexLcp' }),
      row({ measure: 'no budget', value: '3', within: null }),
      row({ measure: 'first screen ratio', value: '1.12×', budget: '≤ 1.10×', within: false, budgetId: 'firstScreenRatio' }),
    ];
    const lines = budgetSummary(rows);
    expect(lines).toHaveLength(27);
    expect(lines[0]).toEqual(['first-screen JS, ours / floor app (same run)', '1.12×', '≤ 1.10×', '**no**']);
    expect(lines[1]).toEqual(['index: Lighthouse performance', 'not measured', '1.00', '—']);
    expect(lines[3]).toEqual(['index: LCP', '0.75 s', '≤ 0.8 s', 'yes']);
  });

  it('names each row when several carry one budget', () => {
    const rows = [
      row({ measure: 'getProducts at 500 req/s', value: 'p99 4.00 ms', budget: 'p99 ≤ 5 ms', within: true, budgetId: 'catalogueP99' }),
      row({ measure: 'getPromotion at 500 req/s', value: 'p99 6.00 ms', budget: 'p99 ≤ 5 ms', within: false, budgetId: 'catalogueP99' }),
    ];
    const lines = budgetSummary(rows);
    expect(lines).toHaveLength(28);
    expect(lines.slice(15, 17)).toEqual([
      ['getProducts at 500 req/s', 'p99 4.00 ms', 'p99 ≤ 5 ms', 'yes'],
      ['getPromotion at 500 req/s', 'p99 6.00 ms', 'p99 ≤ 5 ms', '**no**'],
    ]);
  });
});
