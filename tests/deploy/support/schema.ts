import type { K8sObject } from './objects';

interface ModelClass {
  prototype: { validate(): void };
}

/** kubernetes-models' class for an apiVersion and kind (its module path is `<group>/<version>/<Kind>`). */
function modelFor(apiVersion: string, kind: string): ModelClass | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const module = require(`kubernetes-models/${apiVersion}/${kind}`) as Record<string, ModelClass>;
    return module[kind];
  } catch {
    return undefined;
  }
}

interface Visited {
  path: string;
  value: object;
  read: Set<string>;
}

/** A view of `value` that notes, for every object inside it, which properties were looked at. */
function recording(value: object, path: string, visited: Visited[]): object {
  const read = new Set<string>();
  visited.push({ path, value, read });
  const children = new Map<string, object>();
  return new Proxy(value, {
    get(target, key, receiver) {
      const child: unknown = Reflect.get(target, key, receiver);
      if (typeof key !== 'string') return child;
      read.add(key);
      if (child === null || typeof child !== 'object') return child;
      if (!children.has(key)) children.set(key, recording(child, `${path}.${key}`, visited));
      return children.get(key);
    },
    has(target, key) {
      if (typeof key === 'string') read.add(key);
      return Reflect.has(target, key);
    },
  });
}

/**
 * kustomize folds long base64 values of Secrets over several lines; the API server's decoder skips line breaks,
 * while the schema's `byte` format does not, so they are joined first.
 */
function withUnfoldedSecretData(object: K8sObject): K8sObject {
  if (object.kind !== 'Secret' || !object.data) return object;
  const data = Object.entries(object.data as Record<string, string>).map(([k, v]) => [k, v.replace(/\n/g, '')]);
  return { ...object, data: Object.fromEntries(data) };
}

/**
 * Checks an object against the Kubernetes OpenAPI schema of its kind (kubernetes-models' compiled validators, so
 * offline). The schemas allow unknown fields, which the API server refuses or drops, so a field the validator never
 * looked at is reported too: that is how a misspelt `readinessProbes` is caught.
 */
export function schemaProblems(object: K8sObject): string[] {
  const model = modelFor(object.apiVersion, object.kind);
  if (!model) return [`no Kubernetes schema for ${object.apiVersion} ${object.kind}`];
  const visited: Visited[] = [];
  try {
    model.prototype.validate.call(recording(withUnfoldedSecretData(object), '', visited));
  } catch (error) {
    return [(error as Error).message];
  }
  const problems: string[] = [];
  for (const { path, value, read } of visited) {
    for (const key of Object.keys(value)) {
      if (!read.has(key)) problems.push(`unknown field ${path}.${key}`.replace(/\.(\d+)(?=\.|$)/g, '[$1]'));
    }
  }
  return problems;
}
