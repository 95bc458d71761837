import { describe, expect, it } from 'vitest';
import { type FlowModel, flowPathsOf } from './flow-paths';
import {
  coverageLine,
  type FlowHarness,
  measuredCoverage,
  type PathRun,
  runFlowPath,
  uncovered,
} from './flow-runner';

/**
 * One Vitest suite per flow model: a test per generated path, run against the machine with fake
 * effects, then the coverage of the runs (printed) that fails on any state or transition not reached.
 */
export function modelSuite(model: FlowModel, harness: FlowHarness): void {
  const paths = flowPathsOf(model);
  const runs: PathRun[] = [];
  describe(`${model.name} machine: generated paths`, () => {
    it.each(paths.map((path, i) => [i + 1, path.title, path] as const))(
      '%i. %s',
      async (_n, _title, path) => {
        runs.push(await runFlowPath(model, path, harness));
      },
    );

    it('the paths reach every state and every transition of the machine', () => {
      expect(runs).toHaveLength(paths.length);
      const coverage = measuredCoverage(model, runs);
      console.log(coverageLine(model, paths.length, coverage));
      expect(uncovered(model, coverage)).toEqual([]);
    });
  });
}
