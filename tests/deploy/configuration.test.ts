import fs from 'node:fs';
import path from 'node:path';
import { loadCompose } from './support/compose';
import { agreementProblems } from './support/composeChecks';
import {
  componentSetups,
  externalSecretProblems,
  kubernetesEnvironmentProblems,
  publicOriginProblems,
  signingKeyProblems,
} from './support/configChecks';
import { placeholderSecrets } from './support/environment';
import { K8S_DIR, OVERLAYS, renderOverlay } from './support/kustomize';

describe.each(OVERLAYS)('the configuration of k8s/overlays/%s', (overlay) => {
  const objects = renderOverlay(overlay);
  // prod's Secrets are made in the cluster; the dev overlay's generated placeholders have their shape.
  const placeholders = placeholderSecrets(renderOverlay('dev'));
  const { setups, problems } = componentSetups(objects, placeholders);

  it('runs each component in a container named after it', () => {
    expect(problems).toEqual([]);
    expect(setups.map((s) => s.component).sort()).toEqual(['auth', 'chat', 'gateway', 'status', 'voice']);
  });

  it('gives each component an environment its own configuration reader accepts, with every name spelt as it reads it', () => {
    expect(kubernetesEnvironmentProblems(objects, setups)).toEqual([]);
  });

  it('makes every auth replica sign with the same key, stored where it can be written', () => {
    expect(signingKeyProblems(objects, setups)).toEqual([]);
  });

  it("serves the gateway's WEB_ORIGIN through the Ingress, with Secure cookies exactly under TLS", () => {
    expect(publicOriginProblems(objects, setups)).toEqual([]);
  });

  it('runs each component with the settings, addresses, ports and image of docker-compose.yml', () => {
    expect(agreementProblems(setups, loadCompose(), overlay)).toEqual([]);
  });

  it(overlay === 'dev' ? 'generates every Secret it uses' : 'documents every Secret made outside the manifests', () => {
    const readme = fs.readFileSync(path.join(K8S_DIR, 'README.md'), 'utf8');
    expect(externalSecretProblems(setups, { selfContained: overlay === 'dev', readme, placeholders })).toEqual([]);
  });
});
