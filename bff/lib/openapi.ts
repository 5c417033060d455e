import { toJsonSchema, type ConversionConfig } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { describeEndpoint, type Endpoint } from '../contracts/endpoint.contract';
import { ProblemSchema } from '../contracts/problem.contract';
import { statusTitle } from './http-error';

type JsonSchema = ReturnType<typeof toJsonSchema>;

// Every schema must convert: a contract the document cannot describe fails here (and in CI), not silently.
const INPUT: ConversionConfig = { target: 'draft-2020-12', typeMode: 'input', errorMode: 'throw', ignoreActions: ['check', 'trim', 'to_lower_case', 'transform'] };
const OUTPUT: ConversionConfig = { ...INPUT, typeMode: 'output' };

function convert(schema: v.GenericSchema, config: ConversionConfig, where: string): JsonSchema {
  try {
    return toJsonSchema(schema, config);
  } catch (err) {
    throw new Error(`${where}: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** An object schema's keys as OpenAPI parameters (`in: path` or `in: query`). */
function parameters(schema: v.GenericSchema | undefined, location: 'path' | 'query', where: string) {
  if (!schema) return [];
  const object = convert(schema, INPUT, where) as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: location,
    required: location === 'path' || (object.required ?? []).includes(name),
    schema: property,
  }));
}

const openApiPath = (path: string) => path.replace(/:([A-Za-z_]\w*)/g, '{$1}');
const operationId = (endpoint: Endpoint) =>
  `${endpoint.method.toLowerCase()}${endpoint.path
    .replace(/^\/api/, '')
    .split(/[/_-]/)
    .filter(Boolean)
    .map((part) => (part.startsWith(':') ? `By${part.slice(1)[0]!.toUpperCase()}${part.slice(2)}` : `${part[0]!.toUpperCase()}${part.slice(1)}`))
    .join('')}`;

/** Statuses an endpoint can answer besides success: what its description implies, plus the ones it names. */
export function errorStatuses(endpoint: Endpoint): number[] {
  const implied = [
    ...(endpoint.params || endpoint.query || endpoint.body || endpoint.rawBody ? [400] : []),
    ...(endpoint.access === 'public' ? [] : [401]),
    ...(Array.isArray(endpoint.access) ? [403] : []),
  ];
  return [...new Set([...implied, ...(endpoint.errors ?? [])])].sort((a, b) => a - b);
}

function operation(endpoint: Endpoint) {
  const where = describeEndpoint(endpoint);
  const status = endpoint.status ?? 200;
  const success =
    status === 204
      ? { description: 'Done (no body)' }
      : {
          description: endpoint.stream === 'sse' ? 'A Server-Sent Events stream; each event carries this as its data' : endpoint.stream === 'file' ? 'The file' : 'OK',
          content:
            endpoint.stream === 'file'
              ? { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } }
              : { [endpoint.stream ? 'text/event-stream' : 'application/json']: { schema: convert(endpoint.response, OUTPUT, `${where} response`) } },
        };
  const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };
  const requestBody = endpoint.body ?? endpoint.rawBody;
  return {
    operationId: operationId(endpoint),
    summary: endpoint.summary,
    ...(endpoint.access === 'public' ? { security: [] } : {}),
    'x-access': endpoint.access === 'public' || endpoint.access === 'user' ? endpoint.access : ['admin', ...endpoint.access.filter((role) => role !== 'admin')],
    parameters: [...parameters(endpoint.params, 'path', `${where} params`), ...parameters(endpoint.query, 'query', `${where} query`)],
    ...(requestBody ? { requestBody: { required: true, content: { 'application/json': { schema: convert(requestBody, INPUT, `${where} body`) } } } } : {}),
    responses: {
      [String(status)]: success,
      ...Object.fromEntries(errorStatuses(endpoint).map((code) => [String(code), { description: statusTitle(code), content: problem }])),
    },
  };
}

/** The OpenAPI 3.1 document of these endpoints (`GET /api/openapi.json`). */
export function openApiDocument(endpoints: readonly Endpoint[], { version }: { version: string }) {
  const paths: Record<string, Record<string, ReturnType<typeof operation>>> = {};
  for (const endpoint of endpoints) {
    const path = openApiPath(endpoint.path);
    const methods = (paths[path] ??= {});
    const method = endpoint.method.toLowerCase();
    if (methods[method]) throw new Error(`${describeEndpoint(endpoint)} is described twice.`);
    methods[method] = operation(endpoint);
  }
  return {
    openapi: '3.1.0' as const,
    info: {
      title: 'Frontdesk API',
      version,
      description:
        'The BFF of Frontdesk. JSON in and out; errors are application/problem+json. Sessions are the httpOnly `sid` cookie; ' +
        'state-changing requests must be JSON and come from one of the app’s origins. `x-access` names who may call (admins may call everything).',
    },
    servers: [{ url: '/' }],
    security: [{ session: [] }],
    paths,
    components: {
      securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'sid' } },
      schemas: { Problem: convert(ProblemSchema, OUTPUT, 'Problem') },
    },
  };
}
