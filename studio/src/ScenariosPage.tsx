import { useEffect, useMemo, useState } from 'react';
import type { MachineData, StudioIndex } from './data';
import { loadMachine, useLoaded } from './load';

interface Filters {
  machine: string;
  state: string;
  event: string;
  text: string;
}

const ALL = '';

/** Every generated path of every machine, filtered by machine, a state it passes through, an event it sends and free text. */
export function ScenariosPage({ index, query }: { index: StudioIndex; query: URLSearchParams }) {
  const all = useLoaded(() => Promise.all(index.machines.map((machine) => loadMachine(machine.name))), 'all');
  const [filters, setFilters] = useState<Filters>({ machine: query.get('machine') ?? ALL, state: query.get('state') ?? ALL, event: query.get('event') ?? ALL, text: query.get('q') ?? '' });

  // The filters stay in the address, so "every path that shows credentials" is a link.
  useEffect(() => {
    const params = new URLSearchParams(Object.entries({ machine: filters.machine, state: filters.state, event: filters.event, q: filters.text }).filter(([, value]) => value));
    const hash = `#/scenarios${params.size ? `?${params}` : ''}`;
    if (window.location.hash !== hash) window.history.replaceState(null, '', hash);
  }, [filters]);

  const machines: MachineData[] = useMemo(() => (all.value ?? []).filter((data) => filters.machine === ALL || data.machine === filters.machine), [all.value, filters.machine]);
  const keyOf = useMemo(() => new Map(machines.flatMap((data) => data.states.map((state) => [`${data.machine}:${state.id}`, state.key] as const))), [machines]);
  const stateOptions = useMemo(() => [...new Set(machines.flatMap((data) => data.states.filter((state) => state.parent !== null).map((state) => state.key)))].sort(), [machines]);
  const eventOptions = useMemo(() => {
    const words = new Map<string, string>();
    for (const data of machines) for (const transition of data.transitions) if (!words.has(transition.eventType)) words.set(transition.eventType, transition.event);
    const used = new Set(machines.flatMap((data) => data.scenarios.flatMap((scenario) => scenario.steps.slice(1).map((step) => step.eventType))));
    return [...used].sort().map((type) => ({ type, words: words.get(type) ?? type }));
  }, [machines]);

  if (all.error) return <main><p role="alert">{all.error}</p></main>;
  if (!all.value) return <main><p>Loading the scenarios…</p></main>;

  const text = filters.text.trim().toLowerCase();
  const results = machines.flatMap((data) =>
    data.scenarios
      .filter((scenario) => filters.state === ALL || scenario.steps.some((step) => step.active.some((id) => keyOf.get(`${data.machine}:${id}`) === filters.state)))
      .filter((scenario) => filters.event === ALL || scenario.steps.some((step) => step.eventType === filters.event))
      .filter((scenario) => !text || scenario.words.toLowerCase().includes(text))
      .map((scenario) => ({ machine: data.machine, scenario })),
  );
  const total = machines.reduce((sum, data) => sum + data.scenarios.length, 0);
  const set = (change: Partial<Filters>) => setFilters((current) => ({ ...current, ...change }));

  return (
    <main>
      <h1>Scenarios</h1>
      <p className="intro">Every path the test generator walks, in the words of <code>npm run paths</code>. Choose one to step through it on the diagram.</p>
      <form className="filters" role="search" onSubmit={(event) => event.preventDefault()}>
        <label>
          Machine{' '}
          <select value={filters.machine} onChange={(event) => set({ machine: event.target.value, state: ALL, event: ALL })}>
            <option value={ALL}>all machines</option>
            {index.machines.map(({ name }) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Passes through state{' '}
          <select value={filters.state} onChange={(event) => set({ state: event.target.value })}>
            <option value={ALL}>any state</option>
            {stateOptions.map((key) => (
              <option key={key} value={key}>
                {key}
              </option>
            ))}
          </select>
        </label>
        <label>
          Sends event{' '}
          <select value={filters.event} onChange={(event) => set({ event: event.target.value })}>
            <option value={ALL}>any event</option>
            {eventOptions.map(({ type, words }) => (
              <option key={type} value={type}>
                {words === type ? type : `${words} (${type})`}
              </option>
            ))}
          </select>
        </label>
        <label>
          Words <input type="search" value={filters.text} onChange={(event) => set({ text: event.target.value })} placeholder="e.g. promo" />
        </label>
      </form>
      <p aria-live="polite" className="result-count">
        {results.length} of {total} scenarios
      </p>
      <ul className="scenario-results">
        {results.map(({ machine, scenario }) => (
          <li key={`${machine}-${scenario.number}`}>
            <a href={`#/machine/${machine}/scenario/${scenario.number}`}>
              <span className="scenario-machine">{machine} #{scenario.number}</span> {scenario.words}
            </a>{' '}
            <span className="hint">({scenario.steps.length - 1} step{scenario.steps.length === 2 ? '' : 's'})</span>
          </li>
        ))}
      </ul>
    </main>
  );
}
