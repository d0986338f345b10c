import { serviceAddress } from './calls';
import { COMPONENTS, isComponent } from './componentConfig';
import { namedVolumes, type ComposeFile } from './compose';
import { environmentProblems, type ComponentSetup } from './configChecks';
import { instructionsOf, readDockerfile } from './dockerfile';
import { label } from './objects';

/** The infrastructure images ARCHITECTURE.md names. */
export const INFRASTRUCTURE_IMAGES: Record<string, string> = {
  mongo: 'mongo:7',
  rabbitmq: 'rabbitmq:3.13-management',
  redis: 'redis:7',
};

const hasImageHealthcheck = (dockerfile: string): boolean =>
  instructionsOf(readDockerfile(dockerfile).at(-1)!, 'HEALTHCHECK').length > 0;

/** docker-compose.yml runs every part, each checked for health before what depends on it starts. */
export function composeProblems(compose: ComposeFile): string[] {
  const problems: string[] = [];
  const { services } = compose;
  for (const [name, image] of Object.entries(INFRASTRUCTURE_IMAGES)) {
    if (services[name]?.image !== image)
      problems.push(`${name}: image ${services[name]?.image ?? '(none)'}, expected ${image}`);
    if (services[name] && namedVolumes(services[name]).length === 0)
      problems.push(`${name}: keeps its data in no named volume`);
  }
  for (const service of Object.values(services)) {
    const say = (problem: string) => problems.push(`${service.name}: ${problem}`);
    const dockerfile = service.build?.dockerfile;
    const healthy = service.healthcheck
      ? !service.healthcheck.disable
      : dockerfile
        ? hasImageHealthcheck(dockerfile)
        : false;
    if (!healthy) say('has no health check (in docker-compose.yml or its image)');
    const dependsOn = service.depends_on ?? {};
    if (Array.isArray(dependsOn))
      say('depends_on without conditions: it would start before its dependencies are ready');
    else {
      for (const [dependency, { condition }] of Object.entries(dependsOn)) {
        if (condition !== 'service_healthy')
          say(`depends on ${dependency} with condition ${condition}, not service_healthy`);
        if (!services[dependency]) say(`depends on ${dependency}, which is not a service`);
      }
    }
    for (const volume of namedVolumes(service)) {
      if (!(volume in compose.volumes)) say(`mounts volume ${volume}, which the top-level volumes do not declare`);
    }
  }
  for (const component of COMPONENTS) {
    const service = services[component];
    if (!service) {
      problems.push(`${component}: not in docker-compose.yml`);
      continue;
    }
    const say = (problem: string) => problems.push(`${component}: ${problem}`);
    environmentProblems(component, service.environment).forEach(say);
    const port = service.environment[`${component.toUpperCase()}_PORT`];
    if (service.image !== `kasa/${component}:dev`) say(`image ${service.image}, expected kasa/${component}:dev`);
    const args = service.build?.args ?? {};
    if (service.build?.dockerfile === 'services/Dockerfile' && (args.SERVICE !== component || args.PORT !== port)) {
      say(`build args SERVICE=${args.SERVICE} PORT=${args.PORT}, expected SERVICE=${component} PORT=${port}`);
    }
    for (const published of service.ports ?? []) {
      const containerSide = published.split(':').at(-1);
      if (containerSide !== port) say(`publishes container port ${containerSide}, but listens on ${port}`);
    }
    for (const [variable, value] of Object.entries(service.environment)) {
      const address = serviceAddress(value);
      if (!address) continue;
      const target = services[address.host];
      if (!target) say(`${variable}=${value} names no service of docker-compose.yml`);
      else if (isComponent(address.host)) {
        const targetPort = target.environment[`${address.host.toUpperCase()}_PORT`];
        if (String(address.port) !== targetPort)
          say(`${variable}=${value}, but ${address.host} listens on ${targetPort}`);
      }
    }
  }
  return problems;
}

/** Kubernetes runs each component as docker-compose.yml does: the same settings, addresses, ports and image. */
export function agreementProblems(setups: ComponentSetup[], compose: ComposeFile, overlay: string): string[] {
  const problems: string[] = [];
  for (const { component, deployment, container, env } of setups) {
    const service = compose.services[component];
    if (!service) continue;
    const say = (problem: string) => problems.push(`${label(deployment)}: ${problem}`);
    for (const [name, value] of Object.entries(service.environment)) {
      if (!(name in env.values)) say(`does not set ${name}, which docker-compose.yml sets`);
      else if (/_PORT$|_SERVICE_URL$/.test(name) && env.values[name] !== value) {
        say(`${name} is ${env.values[name]}, but ${value} in docker-compose.yml`);
      }
    }
    const image = container.image ?? '';
    const composeRepository = (service.image ?? '').replace(/:[\w.-]+$/, '');
    const repository = image.replace(/:[\w.-]+$/, '');
    if (overlay === 'dev' && image !== service.image)
      say(`image ${image}, but docker-compose.yml builds ${service.image}`);
    if (repository !== composeRepository && !repository.endsWith(`/${composeRepository}`)) {
      say(`image ${image} is not a build of ${composeRepository}`);
    }
  }
  return problems;
}
