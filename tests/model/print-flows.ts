import { campaignModel } from './campaign-model';
import { conflictModel } from './conflict-model';
import { describeFlowPaths, flowModels, flowPathsOf, plannedCoverage } from './flow-paths';
import { outboxModel } from './outbox-model';
import { reversalModel } from './reversal-model';

/** `npm run flows`: every generated path of every flow machine, as numbered readable steps. */
for (const model of [...flowModels, outboxModel, reversalModel, conflictModel, campaignModel]) {
  const paths = flowPathsOf(model);
  const coverage = plannedCoverage(model, paths);
  console.log(describeFlowPaths(model, paths));
  console.log(
    `  covers ${coverage.states.covered.length}/${coverage.states.total.length} states, ` +
      `${coverage.transitions.covered.length}/${coverage.transitions.total.length} transitions\n`,
  );
}
