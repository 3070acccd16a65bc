/// <reference types="vite/client" />
import { StrictMode, useEffect, useMemo, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { LAYERS, type LayerName, type MachineData, type StudioIndex } from './data';
import { LivePanel } from './LivePanel';
import { loadIndex, loadMachine, useLoaded } from './load';
import { FunnelPage } from './FunnelPage';
import { LAYER_TITLES, layerFigures, MachinePage, walkedByNoLayer, type MachinePlace } from './MachinePage';
import { ScenariosPage } from './ScenariosPage';
import './styles.css';

// The live view's WebSocket client, when present, plugs in through studio/src/live-bus.ts.
import.meta.glob('./live/*.ts', { eager: true });

type Route = { page: 'overview' } | { page: 'machine'; machine: string; scenario: number | null; place: MachinePlace } | { page: 'scenarios'; query: URLSearchParams } | { page: 'live' } | { page: 'funnel' };

function parseRoute(hash: string): Route {
  const [path = '', query = ''] = hash.replace(/^#/, '').split('?');
  const parts = path.split('/').filter(Boolean);
  if (parts[0] === 'machine' && parts[1]) {
    const params = new URLSearchParams(query);
    // The product view is the default; the engineer view is asked for by name.
    const place: MachinePlace = { mode: params.get('view') === 'engineer' ? 'engineer' : 'product', part: params.get('part') };
    return { page: 'machine', machine: parts[1], scenario: parts[2] === 'scenario' && parts[3] ? Number(parts[3]) : null, place };
  }
  if (parts[0] === 'scenarios') return { page: 'scenarios', query: new URLSearchParams(query) };
  if (parts[0] === 'live') return { page: 'live' };
  if (parts[0] === 'funnel') return { page: 'funnel' };
  return { page: 'overview' };
}

function useRoute(): Route {
  const [hash, setHash] = useState(window.location.hash);
  useEffect(() => {
    const onChange = () => setHash(window.location.hash);
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return useMemo(() => parseRoute(hash), [hash]);
}

const ratio = (walked: number, total: number) => `${walked}/${total}`;

function Overview({ index }: { index: StudioIndex }) {
  const all = useLoaded(() => Promise.all(index.machines.map((machine) => loadMachine(machine.name))), 'all');
  return (
    <main>
      <h1>Flow studio</h1>
      <p className="intro">
        The checkout's flows as the code runs them: every machine in <code>machines/</code> drawn from its definition, with what each test layer walked painted on it, every generated
        path as a scenario to step through, and the API reference. Product owners review the flows here; testers see what is walked and what is not, and step through a scenario state by
        state. Built {new Date(index.builtAt).toLocaleString()}.
      </p>
      <div className="table-scroll">
      <table className="figures">
        <thead>
          <tr>
            <th scope="col">machine</th>
            <th scope="col">states</th>
            <th scope="col">paths</th>
            <th scope="col">transitions walked by the paths</th>
            <th scope="col">guard outcomes</th>
            <th scope="col">pairs walked / reachable</th>
            {LAYERS.map((layer) => (
              <th scope="col" key={layer}>
                {LAYER_TITLES[layer]}: transitions
              </th>
            ))}
            <th scope="col">walked by no layer</th>
          </tr>
        </thead>
        <tbody>
          {index.machines.map(({ name, figures }, row) => {
            const data: MachineData | undefined = all.value?.[row];
            return (
              <tr key={name}>
                <th scope="row">
                  <a href={`#/machine/${name}`}>{name}</a>
                </th>
                <td>{figures.states}</td>
                <td>{figures.paths}</td>
                <td>{ratio(figures.transitions.walked, figures.transitions.total)}</td>
                <td>{ratio(figures.guardOutcomes.walked, figures.guardOutcomes.total)}</td>
                <td>{ratio(figures.transitionPairs.walked, figures.transitionPairs.total)}</td>
                {LAYERS.map((layer) => {
                  const recorded = data?.layers.find((candidate) => candidate.layer === layer);
                  return <td key={layer}>{data ? (recorded ? ratio(layerFigures(data, recorded).transitions.walked, data.transitions.length) : 'not recorded') : '…'}</td>;
                })}
                <td>{data ? walkedByNoLayer(data).length : '…'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      </div>
      <p className="hint">
        The first columns are <code>npm run paths -- --json</code>. A layer is "not recorded" until <code>npm test</code> has written <code>coverage/statecharts/&lt;layer&gt;/</code> and the
        studio was built again.
      </p>
    </main>
  );
}

function Nav({ index, route }: { index: StudioIndex; route: Route }) {
  const current = (active: boolean) => (active ? 'page' : undefined);
  return (
    <nav aria-label="Studio">
      <a href="#/" className="brand" aria-current={current(route.page === 'overview')}>
        Flow studio
      </a>
      {index.machines.map(({ name }) => (
        <a key={name} href={`#/machine/${name}`} aria-current={current(route.page === 'machine' && route.machine === name)}>
          {name}
        </a>
      ))}
      <a href="#/scenarios" aria-current={current(route.page === 'scenarios')}>
        Scenarios
      </a>
      <a href="#/live" aria-current={current(route.page === 'live')}>
        Live
      </a>
      <a href="#/funnel" aria-current={current(route.page === 'funnel')}>
        Funnel
      </a>
      <a href="api.html">API reference</a>
    </nav>
  );
}

function MachineRoute({ name, scenario, place, layer, setLayer }: { name: string; scenario: number | null; place: MachinePlace; layer: LayerName; setLayer: (layer: LayerName) => void }) {
  const loaded = useLoaded(() => loadMachine(name), name);
  if (loaded.error) return <main><p role="alert">No machine called {name}: {loaded.error}</p></main>;
  if (!loaded.value) return <main><p>Loading {name}…</p></main>;
  return <MachinePage data={loaded.value} scenarioNumber={scenario} place={place} layerName={layer} setLayerName={setLayer} />;
}

function App() {
  const route = useRoute();
  const index = useLoaded(loadIndex, 'index');
  const [layer, setLayer] = useState<LayerName>('machine-tests');
  useEffect(() => {
    const title = route.page === 'machine' ? `${route.machine}${route.scenario ? ` · scenario ${route.scenario}` : ''}` : route.page === 'overview' ? 'overview' : route.page;
    document.title = `${title} — TV Checkout flow studio`;
  }, [route]);
  if (index.error) return <p role="alert">The studio's data is missing ({index.error}): run npm run studio:build.</p>;
  if (!index.value) return <p>Loading…</p>;
  return (
    <>
      <Nav index={index.value} route={route} />
      {route.page === 'overview' && <Overview index={index.value} />}
      {route.page === 'machine' && <MachineRoute name={route.machine} scenario={route.scenario} place={route.place} layer={layer} setLayer={setLayer} />}
      {route.page === 'scenarios' && <ScenariosPage index={index.value} query={route.query} />}
      {route.page === 'funnel' && <FunnelPage />}
      {route.page === 'live' && (
        <main>
          <h1>Live</h1>
          <p className="intro">The running app's actors, as it sends them when started with INSPECT=on: their current states (also highlighted on each machine's diagram) and the events as they come.</p>
          <LivePanel />
        </main>
      )}
    </>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
