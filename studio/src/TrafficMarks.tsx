import type { CSSProperties } from 'react';
import { countInWords, type FlowStateStats, type ShownCount } from '../../src/domain/flow-traffic';
import type { Box, EdgeLayout } from './data';
import { entriesInWords, inpInWords, inpRating, lineWeight, type TrafficOverlay } from './traffic';

/** The edge group's class and line weight under the traffic layer (its paths read the weight from the CSS variable). */
export function trafficEdgeStyle(traffic: TrafficOverlay, transitionId: string): { className: string; style: CSSProperties } {
  const count = traffic.transitions.get(transitionId);
  return {
    className: count === undefined ? 'traffic traffic-none' : 'traffic',
    style: { '--traffic-weight': `${lineWeight(count, traffic.most).toFixed(1)}px` } as CSSProperties,
  };
}

/** "12" or "fewer than 5" over the transition's label; nothing for a transition no shopper took. */
export function TrafficEdgeCount({ edge, count }: { edge: EdgeLayout; count: ShownCount | undefined }) {
  if (count === undefined) return null;
  const text = countInWords(count);
  const width = text.length * 7 + 8;
  return (
    <g className={`traffic-count${typeof count === 'number' ? '' : ' masked'}`}>
      <rect x={edge.label.x} y={edge.label.y - 17} width={width} height={16} rx={8} />
      <text x={edge.label.x + width / 2} y={edge.label.y - 5}>
        {text}
      </text>
    </g>
  );
}

/** Entries, the share of visits that ended there, and INP p75: under a state, or inside a container at its top right. */
export function TrafficStateMark({ box, stats, container }: { box: Box; stats: FlowStateStats | undefined; container: boolean }) {
  if (!stats) return null;
  const lines = [entriesInWords(stats), inpInWords(stats)].filter((line): line is string => line !== null);
  const x = container ? box.x + box.width - 10 : box.x;
  const top = container ? box.y + 18 : box.y + box.height + 15;
  return (
    <g className={`traffic-state inp-${inpRating(stats)}${container ? ' inside' : ''}`}>
      {lines.map((line, index) => (
        <text key={line} x={x} y={top + index * 15} className={index === 1 ? 'traffic-inp' : undefined}>
          {line}
        </text>
      ))}
    </g>
  );
}
