import type { CSSProperties } from 'react';
import type { FlowStateStats } from '../../src/domain/flow-traffic';
import type { Box, EdgeLayout } from './data';
import type { DiagramOverlay } from './DiagramDrawing';
import type { Drawing, DrawnBox, DrawnEdge } from './drawing';
import { PRODUCT_SMALLEST_FONT } from './metrics';
import { entriesInWords, inpInWords, inpRating, knownPart, lineWeight, sumOfCounts, summedInWords, type SummedCount, type TrafficOverlay } from './traffic';

/** The engineer view's traffic labels; the product view's match its smallest label, so they read at 12 px at fit. */
const ENGINEER_TRAFFIC_FONT = 12;

/** "12", "fewer than 5" or "at least 12" over the edge's label; nothing for an edge no shopper took. */
function TrafficEdgeCount({ edge, count, font }: { edge: EdgeLayout; count: SummedCount; font: number }) {
  const text = summedInWords(count);
  const width = text.length * font * 0.6 + 8;
  return (
    <g className={`traffic-count${typeof count === 'number' ? '' : ' masked'}`}>
      <rect x={edge.label.x} y={edge.label.y - font - 5} width={width} height={font + 4} rx={(font + 4) / 2} />
      <text x={edge.label.x + width / 2} y={edge.label.y - 5}>
        {text}
      </text>
    </g>
  );
}

/** Entries, the share of visits that ended there, and INP p75: under a box, or inside a container at its top right. */
function TrafficStateMark({ box, stats, container, font }: { box: Box; stats: FlowStateStats; container: boolean; font: number }) {
  const lines = [entriesInWords(stats), inpInWords(stats)].filter((line): line is string => line !== null);
  const x = container ? box.x + box.width - 10 : box.x;
  const top = container ? box.y + font + 6 : box.y + box.height + font + 3;
  return (
    <g className={`traffic-state inp-${inpRating(stats)}${container ? ' inside' : ''}`}>
      {lines.map((line, index) => (
        <text key={line} x={x} y={top + index * (font + 3)} className={index === 1 ? 'traffic-inp' : undefined}>
          {line}
        </text>
      ))}
    </g>
  );
}

/**
 * The traffic as the diagram's overlay, in either view: an edge carries the sum of its transitions' counts (several
 * per edge in the product view); a box carries its own state's entries, endings and INP, which for a shut box count
 * every visit into any state inside it (entering a state enters its parents), so the states inside are not added.
 */
export function trafficMarks(traffic: TrafficOverlay, drawing: Drawing): DiagramOverlay {
  const counts = new Map(drawing.edges.map((edge) => [edge.id, sumOfCounts(edge.transitions.flatMap((id) => traffic.transitions.get(id) ?? []))]));
  const most = Math.max(1, ...[...counts.values()].map(knownPart));
  const font = drawing.mode === 'product' ? PRODUCT_SMALLEST_FONT : ENGINEER_TRAFFIC_FONT;
  return {
    edgeClass: (edge: DrawnEdge) => (counts.get(edge.id) === undefined ? 'traffic traffic-none' : 'traffic'),
    edgeStyle: (edge: DrawnEdge) => ({ '--traffic-weight': `${lineWeight(counts.get(edge.id), most).toFixed(1)}px` }) as CSSProperties,
    edge: (edge: DrawnEdge) => {
      const count = counts.get(edge.id);
      return count === undefined ? null : <TrafficEdgeCount edge={edge.layout} count={count} font={font} />;
    },
    box: (drawn: DrawnBox) => {
      // A box where the view is left stands for a state drawn elsewhere: its figures belong there.
      const stats = drawn.kind === 'exit' ? undefined : traffic.states.get(drawn.state.id);
      return stats ? <TrafficStateMark box={drawn.box} stats={stats} container={drawn.container} font={font} /> : null;
    },
  };
}
