// Reads the OpenAPI 3.1 document that the gateway serves (GET /api/openapi.json, built from @kasa/contracts) into
// what the Docs tab and the API tester show. Only the parts Kasa's document uses are typed: no zod here, the
// document is ours and checking it in the browser would cost more bundle than it protects.

/** A JSON Schema as Kasa's OpenAPI document writes them (a subset of what JSON Schema allows). */
export interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  description?: string;
  format?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
}

interface OpenApiParameter {
  /** A shared parameter (the Idempotency-Key header) is a reference into `components.parameters`. */
  $ref?: string;
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  description?: string;
  schema?: JsonSchema;
}

interface OpenApiOperation {
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  parameters?: OpenApiParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { description?: string }>;
}

export interface OpenApiDocument {
  openapi: string;
  info?: { title?: string; version?: string; description?: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema>; parameters?: Record<string, OpenApiParameter> };
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const METHODS: readonly Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** One field of a request body or a parameter, described for people. */
export interface FieldDoc {
  name: string;
  type: string;
  required: boolean;
  /** Limits in words: `1–60 characters`, `1 to 365`, `one of: chat, voice`. */
  constraints: string | null;
  description: string | null;
}

export interface OperationDoc {
  /** `GET /api/personas`: unique in a document. */
  id: string;
  method: Method;
  path: string;
  /** A few words (at most 80 characters): what the operation does. */
  summary: string;
  /** The rest, in paragraphs: rules, limits, and who may call it; '' when the document gives none. */
  description: string;
  /** The operation's first tag (its area: `Auth`, `Chat`...); '' when it has none. */
  tag: string;
  /** Needs a bearer credential (an access token or an API key). */
  auth: boolean;
  pathParams: FieldDoc[];
  queryParams: FieldDoc[];
  /** Request headers beyond Authorization, such as Idempotency-Key. */
  headerParams: FieldDoc[];
  /** Fields of the JSON body, when the operation takes one. */
  body: { required: boolean; fields: FieldDoc[]; schema: JsonSchema } | null;
  responses: Array<{ status: string; description: string }>;
}

const REF_PREFIX = '#/components/schemas/';

/** Follows `$ref`s into `components.schemas` (a few hops at most; a missing target gives back the reference). */
export function resolveSchema(doc: OpenApiDocument, schema: JsonSchema | undefined): JsonSchema {
  let current = schema ?? {};
  for (let hops = 0; current.$ref && hops < 10; hops++) {
    const target = doc.components?.schemas?.[current.$ref.slice(REF_PREFIX.length)];
    if (!current.$ref.startsWith(REF_PREFIX) || !target) return current;
    current = target;
  }
  return current;
}

const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

/** What a limit counts: the characters of a string, the items of an array, or a number's value. */
export type LimitUnit = 'characters' | 'items' | 'value';

/**
 * The words that join a schema's types and state its limits. JSON Schema's type names (`string`, `integer`,
 * `object`), enum values, formats and defaults are the document's own and stay as they are; the Docs tab passes the
 * interface language's words, English is the default.
 */
export interface SchemaWords {
  /** `string or null` */
  either: (first: string, second: string) => string;
  /** `array of string` */
  arrayOf: (item: string) => string;
  /** `one of: chat, voice` */
  oneOf: (values: string) => string;
  /** `1–60 characters` */
  range: (min: number, max: number, unit: LimitUnit) => string;
  /** `at least 1 items` */
  atLeast: (min: number, unit: LimitUnit) => string;
  /** `at most 60 characters` */
  atMost: (max: number, unit: LimitUnit) => string;
  /** `default 20` */
  byDefault: (value: string) => string;
}

const unitText = (unit: LimitUnit) => (unit === 'value' ? '' : ` ${unit}`);
const englishNumber = (value: number) => value.toLocaleString('en-GB');

export const ENGLISH_SCHEMA_WORDS: SchemaWords = {
  either: (first, second) => `${first} or ${second}`,
  arrayOf: (item) => `array of ${item}`,
  oneOf: (values) => `one of: ${values}`,
  range: (min, max, unit) => `${englishNumber(min)}–${englishNumber(max)}${unitText(unit)}`,
  atLeast: (min, unit) => `at least ${englishNumber(min)}${unitText(unit)}`,
  atMost: (max, unit) => `at most ${englishNumber(max)}${unitText(unit)}`,
  byDefault: (value) => `default ${value}`,
};

/** A schema's type in words: `string`, `integer or null`, `array of Persona`, `string or array`. */
export function describeType(
  doc: OpenApiDocument,
  schema: JsonSchema | undefined,
  words: SchemaWords = ENGLISH_SCHEMA_WORDS,
  depth = 0,
): string {
  if (!schema) return 'any';
  if (schema.$ref) {
    const target = resolveSchema(doc, schema);
    // Named enums and scalars read better as what they are than by their component name.
    if (target.enum || (typeof target.type === 'string' && target.type !== 'object'))
      return describeType(doc, target, words, depth + 1);
    return refName(schema.$ref);
  }
  const either = (parts: string[]) => parts.reduce((first, second) => words.either(first, second));
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length && depth < 4) return either(variants.map((v) => describeType(doc, v, words, depth + 1)));
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return schema.properties ? 'object' : 'any';
  return either(
    types.map((type) =>
      type === 'array' && depth < 4 ? words.arrayOf(describeType(doc, schema.items, words, depth + 1)) : type,
    ),
  );
}

/** A schema's limits in words, or null when it has none worth saying. */
export function describeConstraints(
  doc: OpenApiDocument,
  raw: JsonSchema | undefined,
  words: SchemaWords = ENGLISH_SCHEMA_WORDS,
): string | null {
  const schema = raw?.$ref ? resolveSchema(doc, raw) : (raw ?? {});
  const parts: string[] = [];
  if (schema.enum) parts.push(words.oneOf(schema.enum.map(String).join(', ')));
  const range = (min: number | undefined, max: number | undefined, unit: LimitUnit) => {
    if (min !== undefined && max !== undefined) parts.push(words.range(min, max, unit));
    else if (min !== undefined) parts.push(words.atLeast(min, unit));
    else if (max !== undefined) parts.push(words.atMost(max, unit));
  };
  range(schema.minLength, schema.maxLength, 'characters');
  range(schema.minimum, schema.maximum, 'value');
  range(schema.minItems, schema.maxItems, 'items');
  if (schema.format) parts.push(schema.format);
  if (schema.default !== undefined) parts.push(words.byDefault(JSON.stringify(schema.default)));
  return parts.length ? parts.join('; ') : null;
}

function fieldsOf(doc: OpenApiDocument, schema: JsonSchema, words: SchemaWords): FieldDoc[] {
  const resolved = resolveSchema(doc, schema);
  const required = new Set(resolved.required ?? []);
  return Object.entries(resolved.properties ?? {}).map(([name, property]) => ({
    name,
    type: describeType(doc, property, words),
    required: required.has(name),
    constraints: describeConstraints(doc, property, words),
    description: property.description ?? null,
  }));
}

/** A parameter, or the one its `$ref` names in `components.parameters` (itself when the target is missing). */
function resolveParameter(doc: OpenApiDocument, parameter: OpenApiParameter): OpenApiParameter {
  if (!parameter.$ref?.startsWith('#/components/parameters/')) return parameter;
  return doc.components?.parameters?.[refName(parameter.$ref)] ?? parameter;
}

function parameterDoc(doc: OpenApiDocument, parameter: OpenApiParameter, words: SchemaWords): FieldDoc {
  return {
    name: parameter.name,
    type: describeType(doc, parameter.schema, words),
    required: parameter.in === 'path' || parameter.required === true,
    constraints: describeConstraints(doc, parameter.schema, words),
    description: parameter.description ?? null,
  };
}

/**
 * Every operation of the document, in the document's order, each with what the Docs tab shows (types and limits in
 * `words`). An operation without a tag is in the group `tag: ''`.
 */
export function listOperations(doc: OpenApiDocument, words: SchemaWords = ENGLISH_SCHEMA_WORDS): OperationDoc[] {
  const operations: OperationDoc[] = [];
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const [key, operation] of Object.entries(item)) {
      const method = key.toUpperCase() as Method;
      if (!METHODS.includes(method)) continue;
      const parameters = (operation.parameters ?? []).map((p) => resolveParameter(doc, p));
      const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
      operations.push({
        id: `${method} ${path}`,
        method,
        path,
        summary: operation.summary ?? operation.description ?? '',
        description: operation.description ?? '',
        tag: operation.tags?.[0] ?? '',
        auth: (operation.security ?? []).some((requirement) => Object.keys(requirement).length > 0),
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => parameterDoc(doc, p, words)),
        queryParams: parameters.filter((p) => p.in === 'query').map((p) => parameterDoc(doc, p, words)),
        headerParams: parameters.filter((p) => p.in === 'header').map((p) => parameterDoc(doc, p, words)),
        body: bodySchema
          ? {
              required: operation.requestBody?.required === true,
              fields: fieldsOf(doc, bodySchema, words),
              schema: bodySchema,
            }
          : null,
        responses: Object.entries(operation.responses ?? {}).map(([status, response]) => ({
          status,
          description: response.description ?? '',
        })),
      });
    }
  }
  return operations;
}

/** Operations grouped by their first tag, tags in the order they first appear. */
export function groupByTag(operations: readonly OperationDoc[]): Array<[tag: string, operations: OperationDoc[]]> {
  const groups = new Map<string, OperationDoc[]>();
  for (const operation of operations) {
    const group = groups.get(operation.tag);
    if (group) group.push(operation);
    else groups.set(operation.tag, [operation]);
  }
  return [...groups.entries()];
}

/**
 * A starting body for the API tester: the schema's required fields (all of them when none is required) with a
 * plausible value each: the first enum value, the default, the minimum, an empty-ish string.
 */
export function exampleValue(doc: OpenApiDocument, raw: JsonSchema | undefined, depth = 0): unknown {
  const schema = resolveSchema(doc, raw);
  if (depth > 4) return null;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum?.length) return schema.enum[0];
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) return exampleValue(doc, variants[0], depth + 1);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      return schema.format === 'date-time' ? new Date(0).toISOString() : 'string';
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return false;
    case 'array':
      return [exampleValue(doc, schema.items, depth + 1)];
    default: {
      if (!schema.properties) return {};
      const names = schema.required?.length ? schema.required : Object.keys(schema.properties);
      return Object.fromEntries(names.map((name) => [name, exampleValue(doc, schema.properties?.[name], depth + 1)]));
    }
  }
}

/** The path with its `{name}` placeholders filled (percent-encoded); an empty value leaves the placeholder. */
export function fillPath(path: string, values: Readonly<Record<string, string>>): string {
  return path.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const value = values[name]?.trim();
    return value ? encodeURIComponent(value) : whole;
  });
}

/** The `{name}` placeholders of a path, in order. */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1] ?? '');
}
