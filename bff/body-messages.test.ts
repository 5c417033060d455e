import fs from 'node:fs';
import path from 'node:path';
import { describeEndpoint, isEndpoint, type Endpoint } from './contracts/endpoint.contract';
import { KISI_PROXY_PREFIX, kisiApi } from './contracts/kisi.contract';
import { parseInput } from './lib/endpoint-router';
import { HttpError } from './lib/http-error';

/**
 * The client checks a form with its endpoint's body schema and shows the schema's messages on the
 * fields; the server's 400 says the same words. So every check in a body the BFF validates must
 * carry words of its own: valibot's defaults ("Invalid type: Expected string but received 5") would
 * reach a person.
 */

/** The parts of a valibot schema the walk reads (objects, wrappers, pipes, arrays, unions). */
type SchemaNode = {
  kind?: string;
  type?: string;
  message?: unknown;
  pipe?: SchemaNode[];
  entries?: Record<string, SchemaNode>;
  wrapped?: SchemaNode;
  item?: SchemaNode;
  options?: SchemaNode[];
};

const LEAF_TYPES = new Set(['string', 'number', 'boolean', 'picklist', 'literal', 'array', 'union']);

/** Where a check would answer in valibot's words: `path: type`. Inside a worded union, its options' type checks are covered by the union's words. */
function unworded(node: SchemaNode, at: string, typeCovered = false): string[] {
  if (node.pipe) {
    const [root, ...steps] = node.pipe;
    const own = steps.filter((step) => step.kind === 'validation' && step.message === undefined).map((step) => `${at}: ${step.type}`);
    return [...unworded(root!, at, typeCovered), ...own];
  }
  if (node.wrapped) return unworded(node.wrapped, at, typeCovered);
  const own = !typeCovered && LEAF_TYPES.has(node.type ?? '') && node.message === undefined ? [`${at}: ${node.type}`] : [];
  // A body that is not an object at all is no person's doing: objects need no words of their own.
  if (node.entries) return Object.entries(node.entries).flatMap(([key, entry]) => unworded(entry, at ? `${at}.${key}` : key));
  if (node.item) return [...own, ...unworded(node.item, `${at}[]`)];
  if (node.options) return [...own, ...node.options.flatMap((option) => unworded(option, at, node.message !== undefined))];
  return own;
}

/** Every endpoint whose body the BFF itself validates (Kisi's go to Kisi as sent, and Kisi answers in its words). */
function validatedBodies(): Endpoint[] {
  const dir = path.join(__dirname, 'contracts');
  const found: Endpoint[] = [];
  for (const file of fs.readdirSync(dir).filter((name) => name.endsWith('.contract.ts'))) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the contract files are found at run time
    const exports = require(path.join(dir, file)) as Record<string, unknown>;
    for (const value of Object.values(exports)) {
      if (typeof value !== 'object' || value === null) continue;
      for (const candidate of Object.values(value)) if (isEndpoint(candidate) && candidate.body && !candidate.path.startsWith(`${KISI_PROXY_PREFIX}/`)) found.push(candidate);
    }
  }
  return found;
}

/** The messages of the 400 the BFF answers to this body, field by field. */
function answerTo(endpoint: Endpoint, body: unknown): { path: string; message: string }[] {
  try {
    parseInput(endpoint, { params: {}, query: {}, body });
  } catch (error) {
    if (error instanceof HttpError) return (error.options.errors ?? []).filter((e) => e.path.startsWith('body'));
    throw error;
  }
  return [];
}

describe('the words of every body the BFF validates', () => {
  const endpoints = validatedBodies();

  it('finds the bodies people fill in through forms', () => {
    expect(endpoints.map(describeEndpoint)).toEqual(expect.arrayContaining(['POST /api/gym/owners', 'POST /api/pt/stalls/:id/items', 'POST /api/conversations', 'POST /api/auth/login']));
  });

  it('gives every check its own message (none of valibot’s defaults)', () => {
    // The walk does see checks without words: Kisi's own group body has them (Kisi answers for it).
    expect(unworded(kisiApi.createGroup.body as SchemaNode, '')).toEqual(['group.name: string', 'group.description: string']);
    const missing = endpoints.flatMap((endpoint) => unworded(endpoint.body as SchemaNode, '').map((where) => `${describeEndpoint(endpoint)} body.${where}`));
    expect(missing).toEqual([]);
  });

  it('answers an empty body with each field’s own words for what it needs', () => {
    const defaults = endpoints.flatMap((endpoint) => answerTo(endpoint, {}).filter((e) => e.message.startsWith('Invalid ')).map((e) => `${describeEndpoint(endpoint)} ${e.path}: ${e.message}`));
    expect(defaults).toEqual([]);
  });

  it('says what to enter, not "Required", where a person leaves a field empty', () => {
    const owner = endpoints.find((e) => describeEndpoint(e) === 'POST /api/gym/owners')!;
    expect(answerTo(owner, {})).toEqual([
      { path: 'body.name', message: 'Enter the owner’s name' },
      { path: 'body.email', message: 'Enter an email address' },
      { path: 'body.gymName', message: 'Enter the gym’s name' },
    ]);
    expect(answerTo(owner, { name: ' ', email: 'x@y', gymName: 'g'.repeat(121) })).toEqual([
      { path: 'body.name', message: 'Enter the owner’s name' },
      { path: 'body.email', message: 'Enter an email address such as name@example.com' },
      { path: 'body.gymName', message: 'Use at most 120 characters' },
    ]);
  });
});
