import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IContainer } from 'kubernetes-models/v1/Container';
import {
  isComponent,
  loopbackDefaults,
  NEEDED_IN_CONTAINERS,
  readComponentConfig,
  type Component,
  type ConfigReading,
} from './componentConfig';
import { containerEnvironment, type ContainerEnvironment } from './environment';
import { componentOf, containerPort, containersOf, label, ofKind, type K8sObject } from './objects';
import { minReplicas } from './workloadChecks';

const LOOPBACK = /127\.0\.0\.1|localhost|\[::1\]/;

/** Variables that Node.js itself reads, not the component's configuration. */
const READ_BY_NODE = new Set(['NODE_OPTIONS']);

/** What a component's configuration makes of an environment: refusals, names it ignores, loopback addresses. */
export function environmentProblems(component: Component, values: Record<string, string | undefined>): string[] {
  const reading = readComponentConfig(component, values);
  const problems = reading.problems.map((p) => `${component} would refuse to start: ${p}`);
  for (const name of Object.keys(values)) {
    if (!reading.read.has(name) && !READ_BY_NODE.has(name))
      problems.push(`sets ${name}, which ${component}'s configuration (src/config.ts) never reads`);
  }
  for (const name of loopbackDefaults(component)) {
    const value = values[name];
    if (value === undefined)
      problems.push(`leaves ${name} at its default, the loopback address (unreachable between containers)`);
    else if (LOOPBACK.test(value)) problems.push(`sets ${name} to a loopback address (${value})`);
  }
  for (const [name, why] of Object.entries(NEEDED_IN_CONTAINERS[component] ?? {})) {
    if (values[name] === undefined) problems.push(`does not set ${name}: ${why}`);
  }
  return problems;
}

/** The container that runs the component: the one named after it. */
export const mainContainer = (deployment: IDeployment): IContainer | undefined =>
  containersOf(deployment).find((c) => c.name === componentOf(deployment));

export interface ComponentSetup {
  component: Component;
  deployment: IDeployment & K8sObject;
  container: IContainer;
  env: ContainerEnvironment;
  reading: ConfigReading;
}

/** Each Kasa Deployment with its container's environment and what the component's configuration reads of it. */
export function componentSetups(
  objects: K8sObject[],
  placeholders?: Map<string, Record<string, string>>,
): { setups: ComponentSetup[]; problems: string[] } {
  const setups: ComponentSetup[] = [];
  const problems: string[] = [];
  for (const deployment of ofKind(objects, 'Deployment')) {
    const component = componentOf(deployment);
    const container = mainContainer(deployment);
    if (!isComponent(component) || !container) {
      problems.push(`${label(deployment)}: runs no known component in a container named after it`);
      continue;
    }
    const env = containerEnvironment(container, objects, placeholders);
    setups.push({ component, deployment, container, env, reading: readComponentConfig(component, env.values) });
  }
  return { setups, problems };
}

/** The environment of every Deployment, checked against its component's configuration and the pod around it. */
export function kubernetesEnvironmentProblems(objects: K8sObject[], setups: ComponentSetup[]): string[] {
  const problems: string[] = [];
  for (const { component, deployment, container, env, reading } of setups) {
    const say = (problem: string) => problems.push(`${label(deployment)}: ${problem}`);
    env.problems.forEach(say);
    environmentProblems(component, env.values).forEach(say);

    const prefix = component.toUpperCase();
    for (const [portName, variable] of [
      ['http', `${prefix}_PORT`],
      ['admin', `${prefix}_ADMIN_PORT`],
    ] as const) {
      const port = containerPort(container, portName);
      if (port !== undefined && String(port) !== env.values[variable]) {
        say(`container port ${portName} is ${port}, but ${variable} is ${env.values[variable] ?? 'unset'}`);
      }
    }
    if (containerPort(container, 'http') === undefined) say(`container ${container.name} has no port named http`);

    // Service links put <SERVICE>_PORT=tcp://... into every pod: fatal where a configuration reads such a name.
    if (deployment.spec?.template.spec?.enableServiceLinks !== false) {
      const injected = ofKind(objects, 'Service').flatMap((s) => {
        const name = s.metadata.name.toUpperCase().replace(/-/g, '_');
        return [`${name}_PORT`, `${name}_SERVICE_HOST`, `${name}_SERVICE_PORT`];
      });
      const clashes = injected.filter((name) => reading.read.has(name));
      if (clashes.length > 0)
        say(`keeps service links, whose variables ${clashes.join(', ')} ${component} reads as settings`);
    }

    const grace = deployment.spec?.template.spec?.terminationGracePeriodSeconds ?? 30;
    const preStop = container.lifecycle?.preStop?.exec?.command;
    const sleep = preStop?.[0] === 'sleep' ? Number(preStop[1]) : 0;
    const drain = Number(reading.config?.SHUTDOWN_TIMEOUT_MS ?? 0) / 1000;
    if (grace < sleep + drain)
      say(`terminationGracePeriodSeconds ${grace} is shorter than preStop ${sleep} s + drain ${drain} s`);
  }
  return problems;
}

/** auth signs with one key across replicas, and can write the key it makes when none is given. */
export function signingKeyProblems(objects: K8sObject[], setups: ComponentSetup[]): string[] {
  const auth = setups.find((s) => s.component === 'auth');
  // Set from a Secret made in the cluster, the value is unknown here, but the key is given.
  if (!auth || 'JWT_PRIVATE_KEY' in auth.env.values) return [];
  const replicas = minReplicas(auth.deployment, objects);
  const problems: string[] = [];
  if (replicas > 1) {
    problems.push(
      `${label(auth.deployment)}: ${replicas} replicas without JWT_PRIVATE_KEY would each sign with a key of its own`,
    );
  }
  const keysDir = String(auth.reading.config?.AUTH_KEYS_DIR ?? '');
  const mounted = auth.container.volumeMounts?.some(
    (m) => keysDir === m.mountPath || keysDir.startsWith(`${m.mountPath}/`),
  );
  if (auth.container.securityContext?.readOnlyRootFilesystem && !mounted) {
    problems.push(`${label(auth.deployment)}: AUTH_KEYS_DIR ${keysDir} is on the read-only root filesystem`);
  }
  return problems;
}

/** The browser origin of the Ingress is the gateway's WEB_ORIGIN, and auth's cookie is Secure exactly under TLS. */
export function publicOriginProblems(objects: K8sObject[], setups: ComponentSetup[]): string[] {
  const problems: string[] = [];
  const gateway = setups.find((s) => s.component === 'gateway');
  const auth = setups.find((s) => s.component === 'auth');
  for (const ingress of ofKind(objects, 'Ingress')) {
    const tlsHosts = new Set((ingress.spec?.tls ?? []).flatMap((t) => t.hosts ?? []));
    for (const rule of ingress.spec?.rules ?? []) {
      if (!rule.host) {
        problems.push(`${label(ingress)}: a rule without host`);
        continue;
      }
      const secure = tlsHosts.has(rule.host);
      const origin = `${secure ? 'https' : 'http'}://${rule.host}`;
      const origins = (gateway?.env.values.WEB_ORIGIN ?? '').split(',').map((o) => o.trim());
      if (!origins.includes(origin))
        problems.push(`${label(ingress)}: serves ${origin}, which the gateway's WEB_ORIGIN does not list`);
      if (auth && auth.reading.config?.COOKIE_SECURE !== secure) {
        problems.push(`${label(auth.deployment)}: COOKIE_SECURE must be ${secure} behind ${origin}`);
      }
      for (const path of rule.http?.paths ?? []) {
        const backend = path.backend.service;
        const service = ofKind(objects, 'Service').find((s) => s.metadata.name === backend?.name);
        const port = service?.spec?.ports?.find(
          (p) => p.name === backend?.port?.name || p.port === backend?.port?.number,
        );
        if (!port)
          problems.push(
            `${label(ingress)}: backend ${backend?.name}:${JSON.stringify(backend?.port)} is no Service port`,
          );
      }
    }
  }
  return problems;
}

/**
 * Secrets the manifests use without holding them: none in a self-contained overlay; elsewhere each one, with its
 * keys, is described in k8s/README.md so that it can be made before the manifests are applied.
 */
export function externalSecretProblems(
  setups: ComponentSetup[],
  options: { selfContained: boolean; readme: string; placeholders: Map<string, Record<string, string>> },
): string[] {
  const problems: string[] = [];
  for (const { deployment, env } of setups) {
    for (const { secret, key } of env.external) {
      const where = `${label(deployment)}: Secret ${secret}${key ? ` (key ${key})` : ''}`;
      if (options.selfContained) {
        problems.push(`${where} is not generated by the overlay`);
        continue;
      }
      const keys = key ? [key] : Object.keys(options.placeholders.get(secret) ?? {});
      const missing = [secret, ...keys].filter((word) => !options.readme.includes(`\`${word}\``));
      if (missing.length > 0)
        problems.push(`${where} is made outside the manifests, but k8s/README.md does not name ${missing.join(', ')}`);
    }
  }
  return problems;
}
