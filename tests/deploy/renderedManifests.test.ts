import { OVERLAYS, renderOverlay } from './support/kustomize';
import { label } from './support/objects';
import { schemaProblems } from './support/schema';

describe.each(['base', ...OVERLAYS] as const)('kustomize build k8s/%s', (overlay) => {
  const objects = renderOverlay(overlay);

  it('renders the whole platform', () => {
    const names = objects.filter((o) => o.kind === 'Deployment').map((o) => o.metadata.name);
    expect(names.sort()).toEqual(['auth', 'chat', 'gateway', 'status', 'voice']);
  });

  it('gives only objects that match the Kubernetes schemas, without unknown fields', () => {
    const problems = objects.flatMap((o) => schemaProblems(o).map((p) => `${label(o)}: ${p}`));
    expect(problems).toEqual([]);
  });

  it('names every object once per kind', () => {
    const keys = objects.map((o) => `${label(o)} in ${o.metadata.namespace ?? '(cluster)'}`);
    expect(keys.filter((key, i) => keys.indexOf(key) !== i)).toEqual([]);
  });
});
