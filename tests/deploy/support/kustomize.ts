import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { K8sObject } from './objects';

export const ROOT = path.resolve(__dirname, '..', '..', '..');
export const K8S_DIR = path.join(ROOT, 'k8s');
export const OVERLAYS = ['dev', 'prod'] as const;
export type Overlay = (typeof OVERLAYS)[number];

const KUSTOMIZE = path.join(ROOT, '.bin', 'kustomize');
let kustomizeChecked = false;

/** The kustomize binary in .bin/, built by scripts/ensure-kustomize.sh when it is missing or of another version. */
export function kustomizeBinary(): string {
  if (!kustomizeChecked) {
    // The script returns at once when the right version is already there.
    execFileSync('bash', [path.join(ROOT, 'scripts', 'ensure-kustomize.sh')], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    kustomizeChecked = true;
  }
  return KUSTOMIZE;
}

/** Renders a kustomization (a folder under k8s/) with the real kustomize and parses every document it prints. */
export function render(kustomization: string): K8sObject[] {
  const dir = path.join(K8S_DIR, kustomization);
  if (!fs.existsSync(path.join(dir, 'kustomization.yaml')))
    throw new Error(`k8s/${kustomization} has no kustomization.yaml`);
  const output = execFileSync(kustomizeBinary(), ['build', dir], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return parseAllDocuments(output).map((doc) => {
    if (doc.errors.length > 0) throw new Error(`kustomize printed invalid YAML: ${doc.errors[0]?.message}`);
    return doc.toJS() as K8sObject;
  });
}

const renders = new Map<string, K8sObject[]>();

/** One render per kustomization and test file; callers get their own copy to change. */
export function renderOverlay(overlay: Overlay | 'base'): K8sObject[] {
  const key = overlay === 'base' ? 'base' : `overlays/${overlay}`;
  if (!renders.has(key)) renders.set(key, render(key));
  return structuredClone(renders.get(key)!);
}
