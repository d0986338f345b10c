import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { INetworkPolicyIngressRule } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicyIngressRule';
import type { Call } from './calls';
import {
  componentOf,
  containerPort,
  containersOf,
  label,
  ofKind,
  podLabels,
  selects,
  type K8sObject,
  type LabelSelector,
} from './objects';

const GATEWAY = 'gateway';

/** The ingress rules of every policy that selects a Deployment's pods. */
function rulesFor(deployment: IDeployment, objects: K8sObject[]): INetworkPolicyIngressRule[] {
  return ofKind(objects, 'NetworkPolicy')
    .filter((p) => (p.spec?.policyTypes ?? ['Ingress']).includes('Ingress'))
    .filter((p) => selects(p.spec?.podSelector as LabelSelector, podLabels(deployment)))
    .flatMap((p) => p.spec?.ingress ?? []);
}

/** The ports a rule opens, as container port numbers (undefined: every port). */
function rulePorts(rule: INetworkPolicyIngressRule, deployment: IDeployment): number[] | undefined {
  if (!rule.ports || rule.ports.length === 0) return undefined;
  return rule.ports.map((p) =>
    typeof p.port === 'string'
      ? (containersOf(deployment)
          .map((c) => containerPort(c, p.port))
          .find((n) => n !== undefined) ?? -1)
      : (p.port ?? -1),
  );
}

/**
 * The namespace denies by default; a service admits exactly its callers, on its own ports: the gateway, and the
 * components whose configuration names it (status probes the others, chat asks voice for geo). The gateway admits
 * only other namespaces (the ingress controller, monitoring), never a pod of its own namespace or an address range.
 */
export function networkPolicyProblems(objects: K8sObject[], calls: Call[]): string[] {
  const problems: string[] = [];
  const deployments = ofKind(objects, 'Deployment');
  const policies = ofKind(objects, 'NetworkPolicy');

  const denyAll = policies.some(
    (p) =>
      Object.keys(p.spec?.podSelector ?? {}).length === 0 &&
      (p.spec?.policyTypes ?? []).includes('Ingress') &&
      (p.spec?.ingress ?? []).length === 0,
  );
  if (!denyAll) problems.push('no NetworkPolicy denies ingress to every pod by default');
  for (const policy of policies) {
    const selector = policy.spec?.podSelector as LabelSelector;
    if (Object.keys(selector ?? {}).length > 0 && !deployments.some((d) => selects(selector, podLabels(d)))) {
      problems.push(`${label(policy)}: selects no Deployment's pods`);
    }
  }

  for (const deployment of deployments) {
    const component = componentOf(deployment);
    const where = label(deployment);
    const admitted = new Map<string, number[] | undefined>();
    let fromOtherNamespaces = false;
    for (const rule of rulesFor(deployment, objects)) {
      const ports = rulePorts(rule, deployment);
      if (!rule.from || rule.from.length === 0) problems.push(`${where}: a rule admits every pod and address`);
      if (!ports) problems.push(`${where}: a rule admits traffic on every port`);
      for (const peer of rule.from ?? []) {
        if (peer.ipBlock) problems.push(`${where}: a rule admits the addresses ${peer.ipBlock.cidr}`);
        if (peer.namespaceSelector) {
          fromOtherNamespaces = true;
          if (component !== GATEWAY) problems.push(`${where}: a rule admits pods of other namespaces`);
          continue;
        }
        if (!peer.podSelector) continue;
        for (const caller of deployments.filter((d) => selects(peer.podSelector as LabelSelector, podLabels(d)))) {
          admitted.set(componentOf(caller), ports);
        }
      }
    }

    if (component === GATEWAY) {
      for (const caller of admitted.keys()) problems.push(`${where}: admits ${caller} of its own namespace`);
      if (!fromOtherNamespaces) problems.push(`${where}: admits nothing from the ingress controller's namespace`);
      continue;
    }
    const expected = new Map<string, Call | undefined>([[GATEWAY, undefined]]);
    for (const call of calls.filter((c) => c.callee === component)) expected.set(call.caller, call);
    for (const [caller, call] of expected) {
      if (!admitted.has(caller)) {
        problems.push(`${where}: does not admit ${caller}${call ? `, which calls it (${call.variable})` : ''}`);
        continue;
      }
      const ports = admitted.get(caller);
      const port = call?.port ?? containersOf(deployment)[0]?.ports?.[0]?.containerPort;
      if (ports && port !== undefined && !ports.includes(port))
        problems.push(`${where}: admits ${caller}, but not on port ${port}`);
    }
    for (const caller of admitted.keys()) {
      if (!expected.has(caller)) problems.push(`${where}: admits ${caller}, which never calls it`);
    }
  }
  return problems;
}
