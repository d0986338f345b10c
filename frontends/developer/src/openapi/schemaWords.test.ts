import { buildOpenApiDocument } from '@kasa/contracts';
import { translatorFor } from '../i18n/testing';
import frenchPanels from '../i18n/panels/fr.json';
import { listOperations, type OpenApiDocument } from './operations';
import { schemaWordsFor } from './schemaWords';

const doc = JSON.parse(JSON.stringify(buildOpenApiDocument('/'))) as OpenApiDocument;

describe('schemaWordsFor', () => {
  it('words types and limits in English exactly as the Docs tab always has', () => {
    expect(listOperations(doc, schemaWordsFor(translatorFor()))).toEqual(listOperations(doc));
  });

  it('words them in the interface language, keeping type names, values and numbers', () => {
    const body = listOperations(doc, schemaWordsFor(translatorFor('fr', frenchPanels))).find(
      (op) => op.id === 'POST /api/developer/keys',
    )!.body!;
    const field = (name: string) => body.fields.find((f) => f.name === name)!;
    expect(field('name').constraints).toMatch(/^1–60 \S+/);
    expect(field('name').constraints).not.toBe('1–60 characters');
    expect(field('expiresInDays').type).toMatch(/^integer \S+ null$/);
    expect(field('expiresInDays').type).not.toBe('integer or null');
    expect(field('scopes').type).toMatch(/string$/);
  });
});
