import { componentSetups } from './support/configChecks';
import { placeholderSecrets } from './support/environment';
import { OVERLAYS, renderOverlay } from './support/kustomize';
import { memoryProblems } from './support/memoryChecks';
import { ofKind } from './support/objects';
import {
  autoscalerProblems,
  deploymentProblems,
  disruptionBudgetProblems,
  imageProblems,
  namespaceProblems,
  replicaProblems,
  serviceProblems,
} from './support/workloadChecks';

/** How many replicas each overlay runs at least: dev one of each, prod enough to lose a pod without an outage. */
const REPLICAS = { dev: [1, 1], prod: [2, Number.POSITIVE_INFINITY] } satisfies Record<string, [number, number]>;

describe.each(OVERLAYS)('the workloads of k8s/overlays/%s', (overlay) => {
  const objects = renderOverlay(overlay);

  it('probe /readyz and /healthz, restart always, have requests and limits, and run as a locked-down non-root user', () => {
    expect(ofKind(objects, 'Deployment').flatMap(deploymentProblems)).toEqual([]);
  });

  it("give every main process a heap limit a bit below what its memory limit leaves after its pod's workers", () => {
    const { setups } = componentSetups(objects, placeholderSecrets(renderOverlay('dev')));
    expect(setups).toHaveLength(5);
    expect(memoryProblems(setups)).toEqual([]);
  });

  it('are each reached through a Service whose ports lead to their containers', () => {
    expect(serviceProblems(objects)).toEqual([]);
  });

  it('each have a PodDisruptionBudget that still lets a node drain', () => {
    expect(disruptionBudgetProblems(objects)).toEqual([]);
  });

  it('scale the gateway and chat with HorizontalPodAutoscalers that own their replica counts', () => {
    expect(autoscalerProblems(objects, ['gateway', 'chat'])).toEqual([]);
  });

  it(`run ${overlay === 'dev' ? 'one replica each' : 'at least two replicas each'}`, () => {
    expect(replicaProblems(objects, REPLICAS[overlay])).toEqual([]);
  });

  it('run pinned image tags', () => {
    expect(imageProblems(objects, overlay)).toEqual([]);
  });

  it('live in one namespace that enforces the restricted Pod Security Standard', () => {
    expect(namespaceProblems(objects)).toEqual([]);
  });
});
