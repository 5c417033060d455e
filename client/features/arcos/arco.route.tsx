import { useLoaderData } from 'react-router';
import type { LoaderFunctionArgs } from 'react-router';

/** The nested-route demo's detail: its loader returns only the id. */
export function loader({ params }: LoaderFunctionArgs) {
  return { id: params.id ?? '' };
}

export const handle = { title: 'Arco' };

export function Component() {
  const { id } = useLoaderData() as { id: string };
  return (
    <div className="arco">
      <p className="eyebrow">Arco</p>
      <p className="arco-id" aria-label={`Arco id ${id}`}>
        {id}
      </p>
      <p className="muted">
        Loaded from <code>/arcos/{id}</code>
      </p>
    </div>
  );
}
