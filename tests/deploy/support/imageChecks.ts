import fs from 'node:fs';
import path from 'node:path';
import { COMPONENTS, readComponentConfig } from './componentConfig';
import type { ComposeFile } from './compose';
import { instructionsOf, readDockerfile } from './dockerfile';
import { ROOT } from './kustomize';

/** A multi-stage recipe: production dependencies only, a small Node 20 base, a non-root user and a health check. */
export function dockerfileProblems(dockerfile: string, exposedPorts: string[]): string[] {
  const stages = readDockerfile(dockerfile);
  const final = stages.at(-1);
  const say = (problem: string) => `${dockerfile}: ${problem}`;
  if (!final || stages.length < 2) return [say('is not a multi-stage build')];
  const problems: string[] = [];
  if (!/^node:20[\w.-]*-(slim|alpine[\d.]*)$/.test(final.base))
    problems.push(say(`final image is ${final.base}, not a slim or alpine Node 20`));

  const user = instructionsOf(final, 'USER').at(-1);
  if (!user || /^(root|0)(:|$)/.test(user)) problems.push(say(`final image runs as ${user ?? 'root'}`));

  const healthcheck = instructionsOf(final, 'HEALTHCHECK').join(' ');
  if (!healthcheck.includes('/healthz')) problems.push(say('has no HEALTHCHECK of /healthz'));
  if (/\b(curl|wget)\b/.test(healthcheck)) problems.push(say('HEALTHCHECK uses a program slim images lack'));

  const exposed = instructionsOf(final, 'EXPOSE').flatMap((e) => e.split(/\s+/));
  for (const port of exposedPorts) if (!exposed.includes(port)) problems.push(say(`does not EXPOSE ${port}`));

  const run = stages.flatMap((s) => instructionsOf(s, 'RUN')).join('\n');
  if (/\bnpm (install|i)\b/.test(run))
    problems.push(say('uses npm install, which may change the lockfile; use npm ci'));
  const productionStage = stages.find((s) => instructionsOf(s, 'RUN').some((r) => /\bnpm ci\b.*--omit=dev/.test(r)));
  if (!productionStage?.name) problems.push(say('installs no stage with npm ci --omit=dev'));
  else if (!instructionsOf(final, 'COPY').some((c) => c.includes(`--from=${productionStage.name}`))) {
    problems.push(say(`final image does not take its node_modules from the ${productionStage.name} stage`));
  }
  if (instructionsOf(final, 'CMD').length === 0) problems.push(say('has no CMD'));
  return problems;
}

/** The programs a service starts (its configuration's *_BIN settings) are installed in its image. */
export function systemPackageProblems(compose: ComposeFile): string[] {
  return COMPONENTS.flatMap((component) => {
    const { config } = readComponentConfig(component, {});
    const programs = Object.entries(config ?? {})
      .filter(([name]) => name.endsWith('_BIN'))
      .map(([, program]) => String(program));
    const packages = (compose.services[component]?.build?.args?.SYSTEM_PACKAGES ?? '').split(/\s+/);
    return programs
      .filter((program) => !packages.includes(program))
      .map((program) => `${component}: runs ${program}, which its image build (SYSTEM_PACKAGES) does not install`);
  });
}

/** The build context leaves out what would be stale or secret inside an image. */
export function dockerignoreProblems(): string[] {
  const lines = fs
    .readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim());
  const required: Record<string, string> = {
    '**/node_modules': 'host-built native modules',
    '**/dist': 'stale builds',
    // tsc -b trusts a copied build-info file and would skip the compile whose output was left out.
    '**/*.tsbuildinfo': 'build-info files that make tsc -b skip the compile',
    '**/.env': 'local secrets',
  };
  return Object.entries(required)
    .filter(([pattern]) => !lines.includes(pattern))
    .map(([pattern, why]) => `.dockerignore: does not leave out ${pattern} (${why})`);
}
