import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { INetworkPolicyIngressRule } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicyIngressRule';
import { callsBetweenComponents } from './support/calls';
import { loadCompose } from './support/compose';
import { agreementProblems, composeProblems } from './support/composeChecks';
import {
  componentSetups,
  externalSecretProblems,
  kubernetesEnvironmentProblems,
  publicOriginProblems,
  signingKeyProblems,
} from './support/configChecks';
import { placeholderSecrets, withoutHashSuffix } from './support/environment';
import { dockerfileProblems } from './support/imageChecks';
import { renderOverlay, type Overlay } from './support/kustomize';
import { networkPolicyProblems } from './support/networkChecks';
import { find, ofKind, type K8sObject } from './support/objects';
import { schemaProblems } from './support/schema';
import { memoryProblems } from './support/memoryChecks';
import { autoscalerProblems, deploymentProblems, disruptionBudgetProblems } from './support/workloadChecks';

// Each case breaks one thing in a real render and expects the checks to name the object and the problem.

const deployment = (objects: K8sObject[], name: string) => find(objects, 'Deployment', name)!;
const container = (objects: K8sObject[], name: string) => deployment(objects, name).spec!.template.spec!.containers[0]!;
const configMap = (objects: K8sObject[], name: string) =>
  ofKind(objects, 'ConfigMap').find((c) => withoutHashSuffix(c.metadata.name) === name)!;
const ingressRules = (objects: K8sObject[], name: string): INetworkPolicyIngressRule[] =>
  find(objects, 'NetworkPolicy', name)!.spec!.ingress!;

function configProblems(objects: K8sObject[]): string[] {
  const { setups } = componentSetups(objects, placeholderSecrets(renderOverlay('dev')));
  return [
    ...kubernetesEnvironmentProblems(objects, setups),
    ...signingKeyProblems(objects, setups),
    ...publicOriginProblems(objects, setups),
  ];
}

function networkProblems(objects: K8sObject[]): string[] {
  return networkPolicyProblems(objects, callsBetweenComponents(objects).calls);
}

const broken = (overlay: Overlay, breakIt: (objects: K8sObject[]) => void): K8sObject[] => {
  const objects = renderOverlay(overlay);
  breakIt(objects);
  return objects;
};

describe('the deployment checks', () => {
  it('report a misspelt field and a value of the wrong type', () => {
    const objects = broken('dev', (o) => {
      const chat = container(o, 'chat') as unknown as Record<string, unknown>;
      chat.readinessProbes = chat.readinessProbe;
    });
    expect(schemaProblems(deployment(objects, 'chat'))).toEqual([
      'unknown field .spec.template.spec.containers[0].readinessProbes',
    ]);
    const wrongType = broken('dev', (o) => {
      (container(o, 'voice').ports![0] as { containerPort: unknown }).containerPort = '4003';
    });
    expect(schemaProblems(deployment(wrongType, 'voice'))).toEqual([
      expect.stringContaining('containerPort must be integer'),
    ]);
  });

  it('report a missing probe, a root-capable pod and a missing limit', () => {
    const objects = broken('dev', (o) => {
      delete container(o, 'chat').readinessProbe;
      delete deployment(o, 'chat').spec!.template.spec!.securityContext!.runAsNonRoot;
      delete container(o, 'chat').resources!.limits!.memory;
    });
    expect(deploymentProblems(deployment(objects, 'chat'))).toEqual([
      'Deployment/chat: the pod does not set runAsNonRoot: true',
      'Deployment/chat: container chat has no readinessProbe',
      'Deployment/chat: container chat has no memory limit',
    ]);
  });

  it("report a pod that is not restarted, and heap limits that leave no room or no memory for the pod's workers", () => {
    const objects = broken('prod', (o) => {
      deployment(o, 'status').spec!.template.spec!.restartPolicy = 'OnFailure';
      // The limit chat had before its worker pool: the pool alone is larger.
      container(o, 'chat').resources!.limits!.memory = '384Mi';
      // More heavy processes at once, without a larger limit.
      configMap(o, 'voice-config').data!.VOICE_PROCESS_POOL_SIZE = '4';
      container(o, 'gateway').env = container(o, 'gateway').env!.filter((e) => e.name !== 'NODE_OPTIONS');
      container(o, 'auth').env!.find((e) => e.name === 'NODE_OPTIONS')!.value = '--max-old-space-size=32';
    });
    expect(deploymentProblems(deployment(objects, 'status'))).toEqual([
      "Deployment/status: the pod's restartPolicy is OnFailure",
    ]);
    const { setups } = componentSetups(objects, placeholderSecrets(renderOverlay('dev')));
    expect(memoryProblems(setups)).toEqual([
      'Deployment/auth: container auth has a heap limit of 32 MiB, under half of the 180 MiB its 256Mi memory limit ' +
        "leaves after 76 MiB for argon2id hashes of 19 MiB each, 4 at once on libuv's threads",
      'Deployment/chat: container chat has a 384Mi memory limit, which leaves its main process -320 MiB after 704 MiB ' +
        'for 2 attachment worker threads of 256 + 32 MB heap and ~64 MiB more each: too little to run in',
      'Deployment/gateway: container gateway sets no heap limit (NODE_OPTIONS=--max-old-space-size) below its memory limit',
      'Deployment/voice: container voice has a 2560Mi memory limit, which leaves its main process -128 MiB after ' +
        "2688 MiB for 4 heavy processes of up to 640 MB each and geoip-lite's ~128 MiB of data: too little to run in",
    ]);
  });

  it('report a budget that blocks node drains and a missing autoscaler', () => {
    const objects = broken('dev', (o) => {
      find(o, 'PodDisruptionBudget', 'auth')!.spec = {
        ...find(o, 'PodDisruptionBudget', 'auth')!.spec,
        maxUnavailable: undefined,
        minAvailable: 1,
      };
      o.splice(o.indexOf(find(o, 'HorizontalPodAutoscaler', 'chat')!), 1);
    });
    expect(disruptionBudgetProblems(objects)).toEqual([
      'PodDisruptionBudget/auth: forbids every eviction at 1 replica(s), so node drains hang',
    ]);
    expect(autoscalerProblems(objects, ['gateway', 'chat'])).toEqual(['Deployment/chat: no HorizontalPodAutoscaler']);
  });

  it('report a service that shuts out one of its callers, or the gateway', () => {
    const objects = broken('dev', (o) => {
      ingressRules(o, 'voice')[0]!.from![0]!.podSelector!.matchExpressions![0]!.values = ['gateway', 'status'];
      ingressRules(o, 'status')[0]!.from![0]!.podSelector!.matchExpressions![0]!.values = ['chat'];
    });
    expect(networkProblems(objects)).toEqual([
      'Deployment/status: does not admit gateway, which calls it (STATUS_SERVICE_URL)',
      'Deployment/status: admits chat, which never calls it',
      'Deployment/voice: does not admit chat, which calls it (VOICE_SERVICE_URL)',
    ]);
  });

  it('report a service open to other namespaces and a namespace without default deny', () => {
    const objects = broken('prod', (o) => {
      ingressRules(o, 'auth')[0]!.from!.push({ namespaceSelector: {} });
      o.splice(o.indexOf(find(o, 'NetworkPolicy', 'default-deny-ingress')!), 1);
    });
    expect(networkProblems(objects)).toEqual([
      'no NetworkPolicy denies ingress to every pod by default',
      'Deployment/auth: a rule admits pods of other namespaces',
    ]);
  });

  it('report a misspelt variable, a service left on the loopback address and service links', () => {
    const objects = broken('dev', (o) => {
      const auth = configMap(o, 'auth-config').data!;
      auth.AUTH_PROT = auth.AUTH_PORT!;
      delete auth.AUTH_PORT;
      delete configMap(o, 'chat-config').data!.VOICE_SERVICE_URL;
      delete deployment(o, 'status').spec!.template.spec!.enableServiceLinks;
    });
    expect(configProblems(objects)).toEqual([
      "Deployment/auth: sets AUTH_PROT, which auth's configuration (src/config.ts) never reads",
      'Deployment/auth: container port http is 4001, but AUTH_PORT is unset',
      // chat runs with NODE_ENV=production, where a peer's address is required (serviceUrl in the service kit).
      expect.stringMatching(
        /^Deployment\/chat: chat would refuse to start: VOICE_SERVICE_URL: is required when NODE_ENV=production/,
      ),
      'Deployment/chat: leaves VOICE_SERVICE_URL at its default, the loopback address (unreachable between containers)',
      'Deployment/status: keeps service links, whose variables STATUS_PORT status reads as settings',
    ]);
  });

  it('report auth replicas without a shared signing key, and an origin the Ingress does not serve', () => {
    const objects = broken('prod', (o) => {
      container(o, 'auth').env = container(o, 'auth').env!.filter((e) => e.name !== 'JWT_PRIVATE_KEY');
      configMap(o, 'gateway-config').data!.WEB_ORIGIN = 'https://elsewhere.example.com';
    });
    expect(configProblems(objects)).toEqual([
      'Deployment/auth: 3 replicas without JWT_PRIVATE_KEY would each sign with a key of its own',
      "Ingress/gateway: serves https://kasa.example.com, which the gateway's WEB_ORIGIN does not list",
    ]);
  });

  it('report a Secret the dev overlay does not generate, and one the README does not describe', () => {
    const dev = broken('dev', (o) => o.splice(o.indexOf(ofKind(o, 'Secret')[0]!), 1));
    const placeholders = placeholderSecrets(renderOverlay('dev'));
    const devSetups = componentSetups(dev, placeholders).setups;
    expect(externalSecretProblems(devSetups, { selfContained: true, readme: '', placeholders })).toEqual([
      expect.stringMatching(
        /^Deployment\/auth: Secret auth-secrets-\w+ \(key MONGO_URL\) is not generated by the overlay$/,
      ),
      expect.stringMatching(
        /^Deployment\/auth: Secret auth-secrets-\w+ \(key AMQP_URL\) is not generated by the overlay$/,
      ),
    ]);
    const prodSetups = componentSetups(renderOverlay('prod'), placeholders).setups;
    const readme = '`auth-secrets` `MONGO_URL` `AMQP_URL` `auth-signing-key` `JWT_PRIVATE_KEY` `REDIS_URL`';
    expect(externalSecretProblems(prodSetups, { selfContained: false, readme, placeholders })).toEqual([
      expect.stringContaining('Deployment/chat: Secret chat-secrets (key MONGO_URL) is made outside the manifests'),
      expect.stringContaining('Deployment/chat: Secret chat-secrets (key AMQP_URL)'),
      expect.stringContaining('Deployment/gateway: Secret gateway-secrets (key AMQP_URL)'),
      expect.stringContaining('Deployment/gateway: Secret gateway-secrets (key REDIS_URL)'),
      expect.stringContaining('Deployment/status: Secret status-secrets (key MONGO_URL)'),
      expect.stringContaining('Deployment/status: Secret status-secrets (key AMQP_URL)'),
      expect.stringContaining('Deployment/voice: Secret voice-secrets (key MONGO_URL)'),
      expect.stringContaining('Deployment/voice: Secret voice-secrets (key AMQP_URL)'),
    ]);
  });

  it('report docker-compose.yml settings that Kubernetes and the services disagree with', () => {
    const compose = loadCompose();
    delete compose.services.chat!.environment.VOICE_SERVICE_URL;
    compose.services.status!.environment.VOICE_SERVICE_URL = 'http://voice:4999';
    compose.services.gateway!.depends_on = {
      ...compose.services.gateway!.depends_on,
      redis: { condition: 'service_started' },
    };
    expect(composeProblems(compose)).toEqual([
      'gateway: depends on redis with condition service_started, not service_healthy',
      'chat: leaves VOICE_SERVICE_URL at its default, the loopback address (unreachable between containers)',
      'status: VOICE_SERVICE_URL=http://voice:4999, but voice listens on 4003',
    ]);
    const { setups } = componentSetups(renderOverlay('dev'));
    expect(agreementProblems(setups, compose, 'dev')).toEqual([
      'Deployment/status: VOICE_SERVICE_URL is http://voice:4003, but http://voice:4999 in docker-compose.yml',
    ]);
  });

  it('report a single-stage Dockerfile that runs as root without a health check', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kasa-dockerfile-'));
    const file = path.join(dir, 'Dockerfile');
    fs.writeFileSync(
      file,
      'FROM node:20 AS build\nRUN npm ci\nFROM node:20\nCOPY --from=build /app /app\nUSER root\nCMD ["node"]\n',
    );
    expect(dockerfileProblems(file, ['4001'])).toEqual([
      `${file}: final image is node:20, not a slim or alpine Node 20`,
      `${file}: final image runs as root`,
      `${file}: has no HEALTHCHECK of /healthz`,
      `${file}: does not EXPOSE 4001`,
      `${file}: installs no stage with npm ci --omit=dev`,
    ]);
    fs.rmSync(dir, { recursive: true });
  });
});
