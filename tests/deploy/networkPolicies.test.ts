import { callsBetweenComponents } from './support/calls';
import { placeholderSecrets } from './support/environment';
import { OVERLAYS, renderOverlay } from './support/kustomize';
import { networkPolicyProblems } from './support/networkChecks';

describe.each(OVERLAYS)('the network policies of k8s/overlays/%s', (overlay) => {
  const objects = renderOverlay(overlay);
  const { calls, problems } = callsBetweenComponents(objects, placeholderSecrets(renderOverlay('dev')));

  it('see every in-cluster address of the configuration lead to a Service port', () => {
    expect(problems).toEqual([]);
  });

  it('admit each service only from the gateway and the components that call it, and the gateway only from outside', () => {
    expect(networkPolicyProblems(objects, calls)).toEqual([]);
  });

  it('let the gateway reach every service', () => {
    const reached = calls.filter((c) => c.caller === 'gateway').map((c) => c.callee);
    expect(reached.sort()).toEqual(['auth', 'chat', 'status', 'voice']);
  });
});
