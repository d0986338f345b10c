import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './kustomize';

export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  base: string;
  name?: string;
  instructions: Instruction[];
}

/** A Dockerfile's build stages, each with its instructions (continuation lines joined, comments left out). */
export function readDockerfile(relativePath: string): Stage[] {
  const text = fs.readFileSync(path.resolve(ROOT, relativePath), 'utf8');
  const lines = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => line.trim() !== '');
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, keyword = '', args = ''] = /^\s*(\w+)\s+(.*)$/.exec(line) ?? [];
    if (keyword.toUpperCase() === 'FROM') {
      const [, base = '', name] = /^(\S+)(?:\s+AS\s+(\S+))?/i.exec(args) ?? [];
      stages.push({ base, name, instructions: [] });
    } else if (stages.length > 0) {
      stages[stages.length - 1]!.instructions.push({ keyword: keyword.toUpperCase(), args: args.trim() });
    }
  }
  return stages;
}

export const instructionsOf = (stage: Stage, keyword: string): string[] =>
  stage.instructions.filter((i) => i.keyword === keyword).map((i) => i.args);
