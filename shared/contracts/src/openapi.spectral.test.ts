import { Document, Spectral, type ISpectralDiagnostic, type RulesetDefinition } from '@stoplight/spectral-core';
import { Json } from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { buildOpenApiDocument } from './openapi';

/** Spectral's findings on the document, one line each: severity, rule, where, and what. */
async function lint(ruleset: RulesetDefinition): Promise<string[]> {
  const spectral = new Spectral();
  spectral.setRuleset(ruleset);
  const source = JSON.stringify(buildOpenApiDocument(), null, 2);
  const results: ISpectralDiagnostic[] = await spectral.run(new Document(source, Json, 'openapi.json'));
  const severities = ['error', 'warning', 'info', 'hint'];
  return results.map(
    (result) =>
      `${severities[result.severity] ?? result.severity} ${result.code} ${result.path.join('.')}: ${result.message}`,
  );
}

// The ruleset as Spectral's CLI loads `spectral:oas` (its declared type misses what setRuleset's type wants).
const OAS = oas as RulesetDefinition;

describe('the OpenAPI document, linted by Spectral', () => {
  it('has no finding of the oas ruleset (its rules at their default severities)', async () => {
    expect(await lint({ extends: [OAS] })).toEqual([]);
  });

  it('has no finding of the oas rules that are off by default either (tags, license, parameter descriptions)', async () => {
    expect(await lint({ extends: [[OAS, 'all']] })).toEqual([]);
  });
});
