import { InputError } from '@kasa/service-kit';
import { InvalidModelOutputError, jsonTextOf, structuredOutputOf } from './structuredOutput';

const person = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 1 },
    age: { type: ['integer', 'null'], minimum: 0 },
    languages: { type: 'array', items: { type: 'string', enum: ['tw', 'ee', 'en'] } },
  },
  required: ['name', 'age', 'languages'],
  additionalProperties: false,
};
const schemaFormat = {
  type: 'json_schema' as const,
  json_schema: { name: 'person', schema: person, strict: true },
};

/** The error a check throws, or undefined. */
function failureOf(run: () => unknown): InvalidModelOutputError | undefined {
  try {
    run();
    return undefined;
  } catch (err) {
    expect(err).toBeInstanceOf(InvalidModelOutputError);
    return err as InvalidModelOutputError;
  }
}

describe('structuredOutputOf', () => {
  it('asks for nothing with text or no response_format', () => {
    expect(structuredOutputOf(undefined)).toBeUndefined();
    expect(structuredOutputOf({ type: 'text' })).toBeUndefined();
  });

  it('asks the providers for JSON with the schema, its name and strictness, and tells the model the schema', () => {
    const output = structuredOutputOf(schemaFormat)!;
    expect(output.request).toEqual({ type: 'json', schema: person, name: 'person', strict: true });
    expect(output.instruction).toContain('Reply with JSON only');
    expect(output.instruction).toContain(JSON.stringify(person));
  });

  it('returns a reply that is valid against the schema, without a code fence around it', () => {
    const output = structuredOutputOf(schemaFormat)!;
    const reply = '{"name":"Ama","age":null,"languages":["tw","en"]}';
    expect(output.check(reply, 'stop')).toBe(reply);
    expect(output.check('```json\n' + reply + '\n```', 'stop')).toBe(reply);
  });

  it('refuses a reply that breaks the schema, naming where', () => {
    const output = structuredOutputOf(schemaFormat)!;
    const err = failureOf(() => output.check('{"name":"","age":3.5,"languages":["fr"],"extra":1}', 'stop'))!;
    expect(err.status).toBe(502);
    expect(err.code).toBe('invalid_model_output');
    expect(err.message).toMatch(/does not match the JSON schema 'person'/);
    expect(err.message).toContain('name:');
    expect((err.details as { problems: { path: string }[] }).problems.map((p) => p.path)).toEqual(
      expect.arrayContaining(['name', 'age']),
    );
  });

  it('refuses text that is not JSON, and says when the token limit cut it', () => {
    const output = structuredOutputOf({ type: 'json_object' })!;
    expect(failureOf(() => output.check('Sure! Here it is: {"a": 1}', 'stop'))!.message).toMatch(
      /not reply with valid JSON/,
    );
    expect(failureOf(() => output.check('{"a": [1, 2', 'length'))!.message).toMatch(/cut at the token limit/);
  });

  it('wants an object in JSON mode', () => {
    const output = structuredOutputOf({ type: 'json_object' })!;
    expect(output.check(' {"ok": true} ', 'stop')).toBe('{"ok": true}');
    expect(failureOf(() => output.check('[1, 2]', 'stop'))!.message).toMatch(/JSON object/);
    expect(output.instruction).toMatch(/one JSON object/);
  });

  it('refuses, as a 400, a schema it cannot check', () => {
    expect(() =>
      structuredOutputOf({
        type: 'json_schema',
        json_schema: { name: 'x', schema: { if: { type: 'string' }, then: { minLength: 2 } } },
      }),
    ).toThrow(InputError);
  });
});

describe('jsonTextOf', () => {
  it('takes the JSON out of a Markdown code fence and trims it', () => {
    expect(jsonTextOf('  ```\n{"a":1}\n```  ')).toBe('{"a":1}');
    expect(jsonTextOf('{"a":"```"}')).toBe('{"a":"```"}');
  });
});
