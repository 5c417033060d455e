/** A value as formatted JSON, expanded by default (the error screens show errors this way). */
export function JsonView({ value, summary = 'Error details', open = true }: { value: unknown; summary?: string; open?: boolean }) {
  return (
    <details className="json-view" open={open}>
      <summary>{summary}</summary>
      <pre tabIndex={0}>
        <code>{JSON.stringify(value, null, 2) ?? String(value)}</code>
      </pre>
    </details>
  );
}
