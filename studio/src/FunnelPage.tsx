import { useState } from 'react';
import { countInWords, FUNNEL_STEPS, type FlowFunnel, type FunnelStep, type ShownCount } from '../../src/domain/flow-traffic';
import { Choice } from './Choice';
import { NO_SERVER_MESSAGE, percent, RANGE_OPTIONS, useFlowStats, type TrafficDays } from './traffic';

const ALL = '*';
const PERIODS = [
  { value: 'day', words: 'day' },
  { value: 'week', words: 'week' },
];

/** "1 of 3 (33 %)": a step's count as a share of the first step's, when both are shown as numbers. */
export function shareInWords(count: ShownCount | undefined, first: ShownCount | undefined): string {
  if (count === undefined) return '0';
  if (typeof count !== 'number' || typeof first !== 'number' || first === 0) return countInWords(count);
  return `${count} of ${first} (${percent(count / first)})`;
}

function FunnelTable({ funnel, from, to }: { funnel: FlowFunnel; from: string; to: string }) {
  const periods = [...new Set(funnel.rows.map((row) => row.period))].sort();
  if (!periods.length) return <p role="status">No traffic yet between {from} and {to}.</p>;
  const counts = new Map(funnel.rows.map((row) => [`${row.period} ${row.step}`, row.count]));
  const count = (period: string, step: FunnelStep) => counts.get(`${period} ${step}`);
  const first = FUNNEL_STEPS[0].step;
  return (
    <div className="table-scroll">
      <table className="figures funnel-table">
        <caption className="hint">
          Shoppers who reached each step, per {funnel.by === 'day' ? 'UTC day' : 'ISO week (its Monday)'}, from {from} to {to}; after the first step, the share of those shown the shop page.
        </caption>
        <thead>
          <tr>
            <th scope="col">{funnel.by === 'day' ? 'day' : 'week of'}</th>
            {FUNNEL_STEPS.map(({ step, title }) => (
              <th scope="col" key={step}>
                {title}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {periods.map((period) => (
            <tr key={period} data-period={period}>
              <th scope="row">{period}</th>
              {FUNNEL_STEPS.map(({ step }) => {
                const shown = count(period, step);
                const start = count(period, first);
                const share = typeof shown === 'number' && typeof start === 'number' && start > 0 ? shown / start : null;
                return (
                  <td key={step} data-step={step}>
                    {step === first ? countInWords(shown ?? 0) : shareInWords(shown, start)}
                    {share !== null && <span className="funnel-bar" style={{ width: `${Math.max(2, share * 100)}%` }} aria-hidden="true" />}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** #/funnel: the shop page → order → payment page → paid → login details, by day or week, locale and gateway. */
export function FunnelPage() {
  const [days, setDays] = useState<TrafficDays>(7);
  const [by, setBy] = useState<'day' | 'week'>('day');
  const [locale, setLocale] = useState(ALL);
  const [gateway, setGateway] = useState(ALL);
  const result = useFlowStats({ days, by, locale: locale === ALL ? null : locale, gateway: gateway === ALL ? null : gateway });
  const funnel = result?.status === 'ready' ? result.stats.funnel : null;
  // The choices the shop's traffic has, keeping the current one while the next answer loads.
  const locales = [...new Set([...(funnel?.locales ?? []), ...(locale === ALL ? [] : [locale])])];
  const gateways = [...new Set([...(funnel?.gateways ?? []), ...(gateway === ALL ? [] : [gateway])])];
  return (
    <main>
      <h1>Funnel</h1>
      <p className="intro">How far shoppers get, counted from the real traffic of the shop the studio reads: each step is a state of the machines a shopper entered. Counts too small to show read "fewer than" the shop's threshold and give no share.</p>
      <div className="filters">
        <Choice label="Days" value={String(days)} options={RANGE_OPTIONS} onChange={(value) => setDays(Number(value) as TrafficDays)} />
        <Choice label="By" value={by} options={PERIODS} onChange={(value) => setBy(value as 'day' | 'week')} />
        <Choice label="Locale" value={locale} options={[{ value: ALL, words: 'all locales' }, ...locales.map((code) => ({ value: code, words: code }))]} onChange={setLocale} />
        <Choice
          label="Gateway"
          value={gateway}
          options={[{ value: ALL, words: 'all gateways' }, ...gateways.map((module) => ({ value: module, words: module || 'none chosen yet' }))]}
          onChange={setGateway}
        />
      </div>
      {result?.status === 'loading' && <p role="status">Loading traffic…</p>}
      {result?.status === 'no-server' && <p role="alert">{NO_SERVER_MESSAGE}</p>}
      {result?.status === 'error' && <p role="alert">No traffic: {result.message}</p>}
      {result?.status === 'ready' && <FunnelTable funnel={result.stats.funnel} from={result.stats.from} to={result.stats.to} />}
    </main>
  );
}
