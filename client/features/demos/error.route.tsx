/** Always fails, to show the error screen (spec: the loader throws the text ERROR). */
export function loader(): never {
  throw new Error('ERROR');
}

export const handle = { title: 'Failing page' };

export function Component() {
  return null; // never rendered: the loader always throws
}
