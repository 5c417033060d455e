import { readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

/**
 * The first visit's JavaScript (the entry and the home page) holds no valibot (docs/decisions/0088):
 * the bundler puts a library in one file, with every function any screen uses, and a single static
 * import on the way to `/` puts all of valibot's checks there. Walks the static imports as the bundler
 * does (a type-only import is erased, a dynamic `import()` is another file) and names the way in.
 */
const ROOT = resolve(__dirname, '../..');
const FIRST_SCREEN = ['client/main.tsx', 'client/features/home/home.route.tsx'];
const ALIASES: Array<[prefix: string, folder: string]> = [
  ['@/', 'client/'],
  ['@contracts/', 'bff/contracts/'],
];

function resolveModule(from: string, specifier: string): string | undefined {
  const alias = ALIASES.find(([prefix]) => specifier.startsWith(prefix));
  const base = alias ? join(ROOT, alias[1], specifier.slice(alias[0].length)) : specifier.startsWith('.') ? resolve(dirname(from), specifier) : undefined;
  if (base === undefined) return undefined; // a package
  return ['', '.ts', '.tsx', '/index.ts', '/index.tsx'].map((ending) => base + ending).find((file) => statSync(file, { throwIfNoEntry: false })?.isFile());
}

/** The specifiers a module imports at run time (type-only imports and dynamic imports left out). */
function staticImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const specifiers: string[] = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const clause = statement.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined && clause.namedBindings !== undefined && ts.isNamedImports(clause.namedBindings) && clause.namedBindings.elements.length > 0 && clause.namedBindings.elements.every((element) => element.isTypeOnly)));
      if (!typeOnly) specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text);
    } else if (ts.isExportDeclaration(statement) && statement.moduleSpecifier && !statement.isTypeOnly) {
      specifiers.push((statement.moduleSpecifier as ts.StringLiteral).text);
    }
  }
  return specifiers;
}

/** Every package the first screen loads, each with the chain of modules that brings it in. */
function packagesOfFirstScreen(): Map<string, string[]> {
  const packages = new Map<string, string[]>();
  const seen = new Set<string>();
  const walk = (file: string, chain: string[]) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const specifier of staticImports(file)) {
      if (specifier.endsWith('.css')) continue;
      const next = resolveModule(file, specifier);
      if (next) walk(next, [...chain, relative(ROOT, next)]);
      else if (!specifier.startsWith('.')) {
        const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
        if (!packages.has(name)) packages.set(name, chain);
      }
    }
  };
  for (const file of FIRST_SCREEN) walk(join(ROOT, file), [file]);
  return packages;
}

describe('the first screen', () => {
  const packages = packagesOfFirstScreen();

  it('loads react, react-router and swr (the walk follows the imports)', () => {
    expect([...packages.keys()]).toEqual(expect.arrayContaining(['react', 'react-dom', 'react-router', 'swr']));
  });

  it('loads no valibot: its contracts build no schema, and the fetch helper loads its answer check only in development', () => {
    const chain = packages.get('valibot');
    expect(chain === undefined ? 'no valibot' : `valibot, imported by ${chain.join(' → ')}`).toBe('no valibot');
  });
});
