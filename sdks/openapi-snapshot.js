#!/usr/bin/env node
/**
 * Writes what the Python, Go and Rust SDKs' contract tests compare their types with: the object shapes of the
 * OpenAPI document (`buildOpenApiDocument()` of @kasa/contracts, built in shared/contracts/dist — the document the
 * gateway serves at /api/openapi.json), flattened so that each test reads it with a few lines of code.
 *
 *   node sdks/openapi-snapshot.js [file]     (standard output without a file)
 *
 * The JSON holds:
 * - `shapes`: every object schema by name — a component (`VideoJob`), an object written inline in one
 *   (`SharedConversation.persona`, `UsageResponse.data.days[]` for an array's items) or in an operation
 *   (`GET /v1/models 200`). Each property: `required`, `nullable`, `type` (string, integer, number, boolean, array,
 *   object or any), `enum` (the values, when closed), `shape` (the object's shape, or its items'), `items` (an
 *   array's items, described the same way). `open` is true when the object accepts other properties too.
 * - `enums`: the enum components (`SubscriptionTier`, `ApiKeyScope`...) with their values.
 * - `samples`: per shape, a `full` JSON value (every property present, with a value of its type, nullable ones not
 *   null; numbers are whole, which every numeric type holds) and a `minimal` one (only the required properties,
 *   nullable ones null).
 */
'use strict';

const fs = require('node:fs');
const { buildOpenApiDocument } = require('@kasa/contracts');

const REF = '#/components/schemas/';

function buildSnapshot() {
  const document = buildOpenApiDocument();
  const components = document.components.schemas;
  const shapes = {};
  const enums = {};
  const samples = {};

  const resolve = (schema) => (schema && schema.$ref ? components[schema.$ref.slice(REF.length)] : schema);
  const refName = (schema) => (schema && schema.$ref ? schema.$ref.slice(REF.length) : undefined);

  /** The schema's alternatives without `null`, and whether null was one of them. */
  function alternatives(schema) {
    const resolved = resolve(schema);
    const options = resolved.anyOf ?? resolved.oneOf;
    if (options) {
      const all = options.map((option) => alternatives(option));
      return {
        nullable: all.some((a) => a.nullable),
        schemas: all.flatMap((a) => a.schemas.map((s) => s)),
      };
    }
    const types = Array.isArray(resolved.type) ? resolved.type : [resolved.type];
    const nullable = types.includes('null');
    if (nullable && types.length === 1) return { nullable: true, schemas: [] };
    return { nullable, schemas: [schema] };
  }

  /** One object schema (allOf merged, $refs followed) as properties, required names and openness. */
  function flatten(schema) {
    const resolved = resolve(schema);
    if (resolved.allOf) {
      const parts = resolved.allOf.map(flatten);
      return {
        properties: Object.assign({}, ...parts.map((p) => p.properties)),
        required: parts.flatMap((p) => p.required),
        open: parts.every((p) => p.open),
      };
    }
    return {
      properties: resolved.properties ?? {},
      required: resolved.required ?? [],
      open: resolved.additionalProperties !== undefined && resolved.additionalProperties !== false,
    };
  }

  const isObject = (schema) => {
    const resolved = resolve(schema);
    return Boolean(resolved.allOf || resolved.properties);
  };

  /** Describes a property's schema; object shapes met on the way are registered under `name`. */
  function describe(schema, name) {
    const { nullable, schemas } = alternatives(schema);
    const kinds = schemas.map((s) => {
      const resolved = resolve(s);
      if (isObject(s)) return 'object';
      return Array.isArray(resolved.type) ? resolved.type.find((t) => t !== 'null') : resolved.type;
    });
    const type = kinds.length > 0 && kinds.every((k) => k === kinds[0]) ? (kinds[0] ?? 'any') : 'any';
    const description = { nullable, type };
    if (type === 'string' || type === 'boolean' || type === 'integer' || type === 'number') {
      // An enum is closed only when every alternative is one.
      const values = schemas.map((s) => resolve(s).enum);
      if (values.every(Boolean)) description.enum = [...new Set(values.flat())];
    }
    if (type === 'object' && schemas.length === 1) {
      description.shape = register(schemas[0], refName(schemas[0]) ?? name);
    }
    if (type === 'object' && schemas.length === 1 && !description.shape) {
      description.values = describe(resolve(schemas[0]).additionalProperties ?? {}, `${name}{}`);
    }
    if (type === 'array' && schemas.length === 1) {
      description.items = describe(resolve(schemas[0]).items ?? {}, `${name}[]`);
      if (description.items.shape) description.shape = description.items.shape;
    }
    return description;
  }

  /** Registers an object schema's shape under `name` (once) and gives the name; undefined for a map or `{}`. */
  function register(schema, name) {
    if (!isObject(schema)) return undefined;
    if (shapes[name]) return name;
    const { properties, required, open } = flatten(schema);
    const shape = { properties: {}, open };
    shapes[name] = shape;
    for (const [key, property] of Object.entries(properties)) {
      shape.properties[key] = { required: required.includes(key), ...describe(property, `${name}.${key}`) };
    }
    return name;
  }

  for (const [name, schema] of Object.entries(components)) {
    if (schema.enum) enums[name] = schema.enum;
    else register(schema, name);
  }
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!operation || typeof operation !== 'object' || !operation.responses) continue;
      const label = `${method.toUpperCase()} ${path}`;
      const request = operation.requestBody?.content?.['application/json']?.schema;
      if (request && !request.$ref) describe(request, `${label} request`);
      for (const [status, response] of Object.entries(operation.responses)) {
        const body = response.content?.['application/json']?.schema;
        if (body && !body.$ref) describe(body, `${label} ${status}`);
      }
    }
  }

  /** A value of the described type: the first enum value, a date for date-times, one item for arrays. */
  function sample(description, schema, mode) {
    if (description.enum) return description.enum[0];
    switch (description.type) {
      case 'object':
        return description.shape ? sampleOf(description.shape, mode) : {};
      case 'array':
        return [sample(description.items, undefined, mode)];
      case 'string':
        return schema && alternatives(schema).schemas.some((s) => resolve(s).format === 'date-time')
          ? '2026-01-02T03:04:05.000Z'
          : 'text';
      case 'integer':
        return 1;
      case 'number':
        return 1;
      case 'boolean':
        return true;
      default:
        return 'text';
    }
  }

  const rawProperties = {};
  function sampleOf(name, mode) {
    const shape = shapes[name];
    const value = {};
    for (const [key, property] of Object.entries(shape.properties)) {
      if (mode === 'minimal' && !property.required) continue;
      value[key] = mode === 'minimal' && property.nullable ? null : sample(property, rawProperties[name]?.[key], mode);
    }
    return value;
  }

  // The raw schemas of each shape's properties, for the formats the descriptions leave out.
  const collect = (schema, name) => {
    if (!shapes[name] || rawProperties[name] || !isObject(schema)) return;
    rawProperties[name] = flatten(schema).properties;
    for (const [key, property] of Object.entries(rawProperties[name])) {
      for (const option of alternatives(property).schemas) {
        const optionName = refName(option) ?? `${name}.${key}`;
        collect(option, optionName);
        const items = resolve(option).items;
        if (items) for (const item of alternatives(items).schemas) collect(item, refName(item) ?? `${name}.${key}[]`);
      }
    }
  };
  for (const [name, schema] of Object.entries(components)) collect(schema, name);
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (!operation || typeof operation !== 'object' || !operation.responses) continue;
      const label = `${method.toUpperCase()} ${path}`;
      const request = operation.requestBody?.content?.['application/json']?.schema;
      if (request && !request.$ref) collect(request, `${label} request`);
      for (const [status, response] of Object.entries(operation.responses)) {
        const body = response.content?.['application/json']?.schema;
        if (body && !body.$ref) collect(body, `${label} ${status}`);
      }
    }
  }

  for (const name of Object.keys(shapes)) {
    samples[name] = { full: sampleOf(name, 'full'), minimal: sampleOf(name, 'minimal') };
  }
  return { openapi: document.openapi, version: document.info.version, shapes, enums, samples };
}

module.exports = { buildSnapshot };

if (require.main === module) {
  const text = `${JSON.stringify(buildSnapshot(), null, 1)}\n`;
  const file = process.argv[2];
  if (file) fs.writeFileSync(file, text);
  else process.stdout.write(text);
}
