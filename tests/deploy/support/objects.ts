import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { INamespace } from 'kubernetes-models/v1/Namespace';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import type { IService } from 'kubernetes-models/v1/Service';

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

interface KindMap {
  ConfigMap: IConfigMap;
  Deployment: IDeployment;
  HorizontalPodAutoscaler: IHorizontalPodAutoscaler;
  Ingress: IIngress;
  Namespace: INamespace;
  NetworkPolicy: INetworkPolicy;
  PodDisruptionBudget: IPodDisruptionBudget;
  Secret: ISecret;
  Service: IService;
}
type Typed<K extends keyof KindMap> = KindMap[K] & K8sObject;

/** The objects of one kind, typed by kubernetes-models' interfaces. */
export function ofKind<K extends keyof KindMap>(objects: K8sObject[], kind: K): Typed<K>[] {
  return objects.filter((o) => o.kind === kind) as Typed<K>[];
}

export function find<K extends keyof KindMap>(objects: K8sObject[], kind: K, name: string): Typed<K> | undefined {
  return ofKind(objects, kind).find((o) => o.metadata.name === name);
}

/** `Deployment/chat`, the way kubectl names objects. */
export const label = (object: { kind?: string; metadata?: { name?: string } }): string =>
  `${object.kind}/${object.metadata?.name}`;

export interface LabelSelector {
  matchLabels?: Record<string, string>;
  matchExpressions?: Array<{ key: string; operator: string; values?: string[] }>;
}

/** Whether a label selector selects an object with these labels (an empty selector selects everything). */
export function selects(selector: LabelSelector | undefined, labels: Record<string, string> = {}): boolean {
  if (!selector) return false;
  const byLabels = Object.entries(selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);
  const byExpressions = (selector.matchExpressions ?? []).every(({ key, operator, values = [] }) => {
    switch (operator) {
      case 'In':
        return key in labels && values.includes(labels[key]!);
      case 'NotIn':
        return !(key in labels) || !values.includes(labels[key]!);
      case 'Exists':
        return key in labels;
      case 'DoesNotExist':
        return !(key in labels);
      default:
        throw new Error(`unknown selector operator ${operator}`);
    }
  });
  return byLabels && byExpressions;
}

export const podLabels = (deployment: IDeployment): Record<string, string> =>
  (deployment.spec?.template.metadata?.labels as Record<string, string> | undefined) ?? {};

export const containersOf = (deployment: IDeployment): IContainer[] => deployment.spec?.template.spec?.containers ?? [];

/** The component a Deployment runs: its app.kubernetes.io/name label. */
export const componentOf = (deployment: IDeployment): string =>
  podLabels(deployment)['app.kubernetes.io/name'] ?? deployment.metadata?.name ?? '?';

/** The container port a probe or Service names, by name or by number. */
export function containerPort(container: IContainer, port: string | number | undefined): number | undefined {
  if (typeof port === 'number') return container.ports?.some((p) => p.containerPort === port) ? port : undefined;
  return container.ports?.find((p) => p.name === port)?.containerPort;
}

const QUANTITY = /^(\d+(?:\.\d+)?)(m|Ki|Mi|Gi|Ti|k|M|G|T)?$/;
const FACTORS: Record<string, number> = {
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
};

/** A Kubernetes quantity (`250m`, `1`, `384Mi`) as a number of cores or bytes. */
export function quantity(value: string | number): number {
  if (typeof value === 'number') return value;
  const match = QUANTITY.exec(value);
  if (!match) throw new Error(`not a quantity: ${value}`);
  return Number(match[1]) * (match[2] ? FACTORS[match[2]]! : 1);
}
