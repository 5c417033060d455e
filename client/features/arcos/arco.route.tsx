import { useLoaderData } from 'react-router';
import type { LoaderFunctionArgs } from 'react-router';

/** The nested-route demo's detail: its loader returns only the id. */
export function loader({ params }: LoaderFunctionArgs) {
  return { id: params.id ?? '' };
}

export const handle = { title: 'Arco' };

export function Component() {
  const { id } = useLoaderData<typeof loader>();
  return (
    <div className="arco">
      <h2 className="arco-title">
        <span className="eyebrow">Arco</span> <span className="arco-id">{id}</span>
      </h2>
      <p className="muted">
        Loaded from <code>/arcos/{id}</code>
      </p>
    </div>
  );
}
