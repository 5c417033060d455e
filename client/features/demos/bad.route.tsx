import { useLoaderData } from 'react-router';
import { JsonView } from '@/components/json-view';
import { PageHeader } from '@/components/page-header';
import { statusApi } from '@contracts/status.contract';
import { call } from '@/lib/api-client';

/**
 * Calls `/api/bad`, which answers a 500 problem on purpose, so the error screen shows a real
 * server error. It calls the API directly (no cache, no retries) so the error shows at once.
 */
export async function loader() {
  return { response: await call(statusApi.bad) };
}

export const handle = { title: 'Server error' };

export function Component() {
  const { response } = useLoaderData<typeof loader>();
  return (
    <div className="stack-lg narrow">
      <PageHeader eyebrow="Error state" title="Server error">
        <p>The server was expected to fail here, but it answered:</p>
      </PageHeader>
      <JsonView value={response} summary="Response" />
    </div>
  );
}
