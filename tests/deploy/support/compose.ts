import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './kustomize';

export interface ComposeService {
  name: string;
  image?: string;
  build?: { context?: string; dockerfile?: string; args?: Record<string, string> };
  environment: Record<string, string>;
  healthcheck?: { test?: string[] | string; disable?: boolean };
  depends_on?: Record<string, { condition?: string }> | string[];
  volumes?: string[];
  ports?: string[];
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
}

export const COMPOSE_FILE = path.join(ROOT, 'docker-compose.yml');

/** docker-compose.yml with its anchors and merge keys resolved, and every environment as a map of strings. */
export function loadCompose(file = COMPOSE_FILE): ComposeFile {
  const raw = parse(fs.readFileSync(file, 'utf8'), { merge: true }) as {
    services: Record<string, Omit<ComposeService, 'name' | 'environment'> & { environment?: unknown }>;
    volumes?: Record<string, unknown>;
  };
  const services = Object.fromEntries(
    Object.entries(raw.services).map(([name, service]) => [
      name,
      { ...service, name, environment: environmentOf(service.environment) },
    ]),
  );
  return { services, volumes: raw.volumes ?? {} };
}

function environmentOf(environment: unknown): Record<string, string> {
  if (!environment) return {};
  if (Array.isArray(environment)) {
    return Object.fromEntries(
      environment.map((entry: string) => [entry.split('=')[0]!, entry.split('=').slice(1).join('=')]),
    );
  }
  return Object.fromEntries(
    Object.entries(environment as Record<string, unknown>).map(([k, v]) => [k, String(v ?? '')]),
  );
}

/** The named volumes a service mounts (`name:/path`), leaving out bind mounts of host paths. */
export const namedVolumes = (service: ComposeService): string[] =>
  (service.volumes ?? []).map((v) => v.split(':')[0]!).filter((source) => !/^[./~]/.test(source));
