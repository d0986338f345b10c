import { readComponentConfig } from './support/componentConfig';
import { loadCompose } from './support/compose';
import { composeProblems } from './support/composeChecks';
import { dockerfileProblems, dockerignoreProblems, systemPackageProblems } from './support/imageChecks';

describe('the images and docker-compose.yml', () => {
  it('build each service from one multi-stage recipe that runs as a non-root user with a health check', () => {
    expect(dockerfileProblems('services/Dockerfile', ['${PORT}'])).toEqual([]);
  });

  it('build the gateway with the web app, exposing its public and admin ports', () => {
    const { config } = readComponentConfig('gateway', {});
    const ports = [String(config?.GATEWAY_PORT), String(config?.GATEWAY_ADMIN_PORT)];
    expect(dockerfileProblems('gateway/Dockerfile', ports)).toEqual([]);
  });

  it('install the programs each service starts', () => {
    expect(systemPackageProblems(loadCompose())).toEqual([]);
  });

  it('leave stale builds and local secrets out of the build context', () => {
    expect(dockerignoreProblems()).toEqual([]);
  });

  it('run the whole platform in docker-compose.yml, configured as each component reads it, started in order of health', () => {
    expect(composeProblems(loadCompose())).toEqual([]);
  });
});
