import { containerEnvironment } from './environment';
import { componentOf, containerPort, containersOf, label, ofKind, podLabels, selects, type K8sObject } from './objects';

const DEFAULT_PORTS: Record<string, number> = {
  'http:': 80,
  'https:': 443,
  'amqp:': 5672,
  'mongodb:': 27017,
  'redis:': 6379,
};

/** The in-cluster address a variable's value points at: a URL whose host is a bare name (a Service here). */
export function serviceAddress(value: string | undefined): { host: string; port: number } | undefined {
  if (!value || !/^[a-z][a-z0-9+.-]*:\/\//.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (!/^[a-z][a-z0-9-]*$/.test(url.hostname) || url.hostname === 'localhost') return undefined;
  return { host: url.hostname, port: url.port ? Number(url.port) : (DEFAULT_PORTS[url.protocol] ?? 0) };
}

export interface Call {
  /** The calling component, the variable that names the callee, and the callee component and container port. */
  caller: string;
  variable: string;
  callee: string;
  port: number;
}

/**
 * Who calls whom inside the namespace, read from the configuration: a variable such as VOICE_SERVICE_URL whose URL
 * names a Service makes its pod a caller of the pods behind that Service. Addresses that lead nowhere are problems.
 */
export function callsBetweenComponents(
  objects: K8sObject[],
  placeholders?: Map<string, Record<string, string>>,
): { calls: Call[]; problems: string[] } {
  const calls: Call[] = [];
  const problems: string[] = [];
  const deployments = ofKind(objects, 'Deployment');
  for (const deployment of deployments) {
    for (const container of containersOf(deployment)) {
      const { values } = containerEnvironment(container, objects, placeholders);
      for (const [variable, value] of Object.entries(values)) {
        const address = serviceAddress(value);
        if (!address) continue;
        const where = `${label(deployment)}: ${variable}=${value}`;
        const service = ofKind(objects, 'Service').find((s) => s.metadata.name === address.host);
        if (!service) {
          problems.push(`${where} names no Service of the namespace`);
          continue;
        }
        const servicePort = service.spec?.ports?.find((p) => p.port === address.port);
        if (!servicePort) {
          problems.push(`${where}: ${label(service)} has no port ${address.port}`);
          continue;
        }
        if (service.spec?.type === 'ExternalName') continue;
        for (const callee of deployments.filter((d) =>
          selects({ matchLabels: service.spec?.selector ?? {} }, podLabels(d)),
        )) {
          const port = containersOf(callee)
            .map((c) => containerPort(c, servicePort.targetPort ?? servicePort.port))
            .find((p) => p !== undefined);
          if (port !== undefined)
            calls.push({ caller: componentOf(deployment), variable, callee: componentOf(callee), port });
        }
      }
    }
  }
  return { calls, problems };
}
