import type { IContainer } from 'kubernetes-models/v1/Container';
import type { ISecret } from 'kubernetes-models/v1/Secret';
import { find, ofKind, type K8sObject } from './objects';

/** A Secret the manifests use but do not contain: it is created in the cluster beforehand (k8s/README.md). */
export interface ExternalSecretRef {
  secret: string;
  /** The key, for a single variable (secretKeyRef); absent for a whole Secret (envFrom). */
  key?: string;
}

export interface ContainerEnvironment {
  /** Every variable the container gets, with its value where the render holds it. */
  values: Record<string, string | undefined>;
  external: ExternalSecretRef[];
  problems: string[];
}

/** kustomize's generators append a 10-character content hash to the names of ConfigMaps and Secrets. */
export const withoutHashSuffix = (name: string): string => name.replace(/-[a-z0-9]{10}$/, '');

const decode = (secret: ISecret): Record<string, string> => ({
  ...Object.fromEntries(Object.entries(secret.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()])),
  ...(secret.stringData ?? {}),
});

/**
 * Stand-in values for Secrets made outside the manifests, by name without hash suffix: the dev overlay's generated
 * placeholders, which have the shape the prod Secrets must have.
 */
export function placeholderSecrets(objects: K8sObject[]): Map<string, Record<string, string>> {
  return new Map(ofKind(objects, 'Secret').map((s) => [withoutHashSuffix(s.metadata.name), decode(s)]));
}

/** The environment a container of the rendered manifests starts with: its envFrom sources, then its env list. */
export function containerEnvironment(
  container: IContainer,
  objects: K8sObject[],
  placeholders = new Map<string, Record<string, string>>(),
): ContainerEnvironment {
  const values: Record<string, string | undefined> = {};
  const external: ExternalSecretRef[] = [];
  const problems: string[] = [];
  const secretData = (name: string): Record<string, string> | undefined => {
    const secret = find(objects, 'Secret', name);
    return secret ? decode(secret) : undefined;
  };

  for (const source of container.envFrom ?? []) {
    const prefix = source.prefix ?? '';
    if (source.configMapRef) {
      const configMap = find(objects, 'ConfigMap', source.configMapRef.name ?? '');
      if (!configMap) {
        if (!source.configMapRef.optional)
          problems.push(`envFrom names ConfigMap ${source.configMapRef.name}, which is not in the render`);
        continue;
      }
      for (const [key, value] of Object.entries(configMap.data ?? {})) values[prefix + key] = value;
    }
    if (source.secretRef) {
      const name = source.secretRef.name ?? '';
      const data = secretData(name);
      if (!data && source.secretRef.optional) continue;
      if (!data) external.push({ secret: name });
      for (const [key, value] of Object.entries(data ?? placeholders.get(name) ?? {})) values[prefix + key] = value;
    }
  }

  for (const variable of container.env ?? []) {
    const { name, value, valueFrom } = variable;
    if (value !== undefined || !valueFrom) {
      values[name] = value ?? '';
    } else if (valueFrom.secretKeyRef) {
      const { name: secret = '', key, optional } = valueFrom.secretKeyRef;
      const data = secretData(secret);
      if (data && key in data) values[name] = data[key];
      else if (optional) continue;
      else if (data) problems.push(`${name} reads key ${key} of Secret ${secret}, which has no such key`);
      else {
        external.push({ secret, key });
        values[name] = placeholders.get(secret)?.[key];
      }
    } else if (valueFrom.configMapKeyRef) {
      const { name: configMapName = '', key, optional } = valueFrom.configMapKeyRef;
      const data = find(objects, 'ConfigMap', configMapName)?.data;
      if (!data?.[key] && !optional)
        problems.push(`${name} reads key ${key} of ConfigMap ${configMapName}, which is not in the render`);
      values[name] = data?.[key];
    } else {
      // fieldRef or resourceFieldRef: known only in the running pod.
      values[name] = undefined;
    }
  }
  return { values, external, problems };
}
