import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IProbe } from 'kubernetes-models/v1/Probe';
import {
  containerPort,
  containersOf,
  label,
  ofKind,
  podLabels,
  quantity,
  selects,
  type K8sObject,
  type LabelSelector,
} from './objects';

/** The fewest replicas a Deployment runs: its autoscaler's minimum, else spec.replicas (1 when absent). */
export function minReplicas(deployment: IDeployment & K8sObject, objects: K8sObject[]): number {
  const autoscaler = autoscalerOf(deployment, objects);
  return autoscaler ? (autoscaler.spec?.minReplicas ?? 1) : (deployment.spec?.replicas ?? 1);
}

export const autoscalerOf = (deployment: K8sObject, objects: K8sObject[]) =>
  ofKind(objects, 'HorizontalPodAutoscaler').find(
    (h) => h.spec?.scaleTargetRef.kind === 'Deployment' && h.spec.scaleTargetRef.name === deployment.metadata.name,
  );

function probeProblems(kind: string, probe: IProbe | undefined, path: string, container: IContainer): string[] {
  if (!probe) return [`container ${container.name} has no ${kind}`];
  const problems: string[] = [];
  const port = probe.httpGet?.port;
  if (probe.httpGet?.path !== path) problems.push(`container ${container.name}: ${kind} must GET ${path}`);
  else if (containerPort(container, port) === undefined) {
    problems.push(`container ${container.name}: ${kind} port ${port} is not one of its ports`);
  }
  return problems;
}

/** Probes, resources and security settings every Kasa pod must have. */
export function deploymentProblems(deployment: IDeployment & K8sObject): string[] {
  const pod = deployment.spec?.template.spec;
  const problems: string[] = [];
  const podSecurity = pod?.securityContext ?? {};
  if (podSecurity.runAsNonRoot !== true) problems.push('the pod does not set runAsNonRoot: true');
  if (pod?.automountServiceAccountToken !== false)
    problems.push('the pod mounts a service account token it never uses');
  if (!selects(deployment.spec?.selector as LabelSelector, podLabels(deployment))) {
    problems.push('spec.selector does not select the pod template labels');
  }
  // A process that exits is restarted in place by the kubelet, with backoff: only Always gives that to a Deployment.
  if ((pod?.restartPolicy ?? 'Always') !== 'Always') problems.push(`the pod's restartPolicy is ${pod?.restartPolicy}`);

  for (const container of containersOf(deployment)) {
    const name = `container ${container.name}`;
    const security = container.securityContext ?? {};
    problems.push(...probeProblems('readinessProbe', container.readinessProbe, '/readyz', container));
    problems.push(...probeProblems('livenessProbe', container.livenessProbe, '/healthz', container));
    // Each readiness check of the service kit may take 2 s before it counts as failed.
    if (container.readinessProbe && (container.readinessProbe.timeoutSeconds ?? 1) < 3)
      problems.push(`${name}: readinessProbe timeoutSeconds below 3`);

    for (const field of ['requests', 'limits'] as const) {
      for (const resource of ['cpu', 'memory']) {
        if (container.resources?.[field]?.[resource] === undefined)
          problems.push(`${name} has no ${resource} ${field.slice(0, -1)}`);
      }
    }
    for (const resource of ['cpu', 'memory']) {
      const request = container.resources?.requests?.[resource];
      const limit = container.resources?.limits?.[resource];
      if (request !== undefined && limit !== undefined && quantity(request) > quantity(limit)) {
        problems.push(`${name} requests more ${resource} (${request}) than its limit (${limit})`);
      }
    }

    // The images name their user (node), which the kubelet cannot check is not root: the uid must be given.
    const uid = security.runAsUser ?? podSecurity.runAsUser;
    if (!uid || uid <= 0) problems.push(`${name} runs without a non-zero runAsUser`);
    if ((security.seccompProfile ?? podSecurity.seccompProfile)?.type !== 'RuntimeDefault') {
      problems.push(`${name} runs without the RuntimeDefault seccomp profile`);
    }
    if (security.allowPrivilegeEscalation !== false) problems.push(`${name} allows privilege escalation`);
    if (security.privileged) problems.push(`${name} is privileged`);
    if (!security.capabilities?.drop?.includes('ALL')) problems.push(`${name} keeps its Linux capabilities (drop ALL)`);
    if (security.readOnlyRootFilesystem !== true) problems.push(`${name} has a writable root filesystem`);
    else if (!container.volumeMounts?.some((m) => m.mountPath === '/tmp')) {
      problems.push(`${name} has a read-only root filesystem but no volume at /tmp`);
    }
  }
  return problems.map((p) => `${label(deployment)}: ${p}`);
}

/** Each Deployment is reached through a Service whose ports lead to its containers; no Service selects nothing. */
export function serviceProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const deployments = ofKind(objects, 'Deployment');
  const services = ofKind(objects, 'Service').filter((s) => s.spec?.type !== 'ExternalName');
  for (const deployment of deployments) {
    const matching = services.filter(
      (s) => s.spec?.selector && selects({ matchLabels: s.spec.selector }, podLabels(deployment)),
    );
    if (matching.length === 0) problems.push(`${label(deployment)}: no Service selects its pods`);
    for (const service of matching) {
      for (const port of service.spec?.ports ?? []) {
        const target = port.targetPort ?? port.port;
        if (!containersOf(deployment).some((c) => containerPort(c, target) !== undefined)) {
          problems.push(
            `${label(service)}: port ${port.name ?? port.port} targets ${target}, which ${label(deployment)} does not expose`,
          );
        }
      }
    }
  }
  for (const service of services) {
    if (!deployments.some((d) => selects({ matchLabels: service.spec?.selector ?? {} }, podLabels(d)))) {
      problems.push(`${label(service)}: selects no Deployment's pods`);
    }
  }
  return problems;
}

/** One budget per Deployment, which still lets a node drain evict a pod at the Deployment's fewest replicas. */
export function disruptionBudgetProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  const budgets = ofKind(objects, 'PodDisruptionBudget');
  for (const deployment of ofKind(objects, 'Deployment')) {
    const mine = budgets.filter((b) => selects(b.spec?.selector as LabelSelector, podLabels(deployment)));
    if (mine.length !== 1)
      problems.push(`${label(deployment)}: ${mine.length} PodDisruptionBudgets select its pods, not 1`);
    const replicas = minReplicas(deployment, objects);
    for (const budget of mine) {
      const { maxUnavailable, minAvailable } = budget.spec ?? {};
      const blocks =
        maxUnavailable !== undefined
          ? maxUnavailable === 0 || maxUnavailable === '0%'
          : typeof minAvailable === 'number'
            ? minAvailable >= replicas
            : minAvailable === '100%';
      if (blocks)
        problems.push(`${label(budget)}: forbids every eviction at ${replicas} replica(s), so node drains hang`);
    }
  }
  return problems;
}

/** The named Deployments scale with an autoscaler that owns their replica count and has the requests it measures. */
export function autoscalerProblems(objects: K8sObject[], required: string[]): string[] {
  const problems: string[] = [];
  const deployments = ofKind(objects, 'Deployment');
  for (const name of required) {
    const deployment = deployments.find((d) => d.metadata.name === name);
    if (deployment && !autoscalerOf(deployment, objects))
      problems.push(`Deployment/${name}: no HorizontalPodAutoscaler`);
  }
  for (const autoscaler of ofKind(objects, 'HorizontalPodAutoscaler')) {
    const target = deployments.find((d) => d.metadata.name === autoscaler.spec?.scaleTargetRef.name);
    if (!target) {
      problems.push(
        `${label(autoscaler)}: scales ${autoscaler.spec?.scaleTargetRef.name}, which is not a Deployment here`,
      );
      continue;
    }
    const { minReplicas: min = 1, maxReplicas: max } = autoscaler.spec!;
    if (min > max) problems.push(`${label(autoscaler)}: minReplicas ${min} above maxReplicas ${max}`);
    if (target.spec?.replicas !== undefined) {
      problems.push(
        `${label(target)}: sets replicas although ${label(autoscaler)} owns the count (each apply would reset it)`,
      );
    }
    for (const metric of autoscaler.spec?.metrics ?? []) {
      const resource = metric.resource?.name;
      if (!resource) continue;
      for (const container of containersOf(target)) {
        if (container.resources?.requests?.[resource] === undefined) {
          problems.push(
            `${label(autoscaler)}: scales on ${resource}, which container ${container.name} of ${label(target)} does not request`,
          );
        }
      }
    }
  }
  return problems;
}

/** Every replica count within bounds: `[fewest, most]` replicas a Deployment may run at its minimum. */
export function replicaProblems(objects: K8sObject[], [fewest, most]: [number, number]): string[] {
  return ofKind(objects, 'Deployment').flatMap((deployment) => {
    const replicas = minReplicas(deployment, objects);
    return replicas < fewest || replicas > most
      ? [
          `${label(deployment)}: runs ${replicas} replica(s) at least, expected ${fewest === most ? fewest : `${fewest} to ${most}`}`,
        ]
      : [];
  });
}

/** Everything in one namespace, which enforces the restricted Pod Security Standard. */
export function namespaceProblems(objects: K8sObject[]): string[] {
  const namespaces = ofKind(objects, 'Namespace');
  if (namespaces.length !== 1) return [`${namespaces.length} Namespaces in the render, not 1`];
  const namespace = namespaces[0]!;
  const problems: string[] = [];
  if (namespace.metadata.labels?.['pod-security.kubernetes.io/enforce'] !== 'restricted') {
    problems.push(`${label(namespace)}: does not enforce the restricted Pod Security Standard`);
  }
  for (const object of objects) {
    if (object.kind !== 'Namespace' && object.metadata.namespace !== namespace.metadata.name) {
      problems.push(`${label(object)}: in namespace ${object.metadata.namespace}, not ${namespace.metadata.name}`);
    }
  }
  return problems;
}

/** Images with a pinned tag: never latest, and never the dev tag outside the dev overlay. */
export function imageProblems(objects: K8sObject[], overlay: string): string[] {
  return ofKind(objects, 'Deployment').flatMap((deployment) =>
    containersOf(deployment).flatMap((container) => {
      const tag = /:([\w.-]+)$/.exec(container.image ?? '')?.[1];
      if (!tag || tag === 'latest') return [`${label(deployment)}: image ${container.image} has no pinned tag`];
      if (overlay !== 'dev' && tag === 'dev')
        return [`${label(deployment)}: image ${container.image} is a development build`];
      return [];
    }),
  );
}
