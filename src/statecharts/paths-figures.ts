/** The JSON figures of one machine (`npm run paths -- --json`): written by the paths script, read by the flow studio. */
export interface MachinePathsFigures {
  machine: string;
  states: number;
  paths: number;
  transitions: { walked: number; total: number };
  guardOutcomes: { walked: number; total: number };
  transitionPairs: { walked: number; total: number };
  unreachable: { transition: string; reason: string }[];
}
