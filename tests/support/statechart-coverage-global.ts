/**
 * Global setup of the unit project: clears the machine-tests layer's parts before the run and merges
 * them into coverage/statecharts/machine-tests/<machine>.json after it.
 */
import { mergeLayer, startLayer } from '../../scripts/statecharts/coverage-files';

export default function setup() {
  startLayer('machine-tests');
  return () => {
    mergeLayer('machine-tests');
  };
}
