import type { ReactNode } from 'react';

export type KisiColumn = { label: string; className?: string };

/**
 * A table of Kisi records (rows are `children`); where it has too little room each row becomes a card (kisi.css).
 * `actions` adds the last, unlabelled column of row buttons.
 */
export function KisiTable({ label, busy, columns, actions = false, children }: { label: string; busy?: boolean; columns: KisiColumn[]; actions?: boolean; children: ReactNode }) {
  return (
    <div className="table-wrap">
      <table className="kisi-table" aria-label={label} aria-busy={busy}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.label} scope="col" className={column.className}>
                {column.label}
              </th>
            ))}
            {actions ? (
              <th scope="col" className="actions">
                <span className="visually-hidden">Actions</span>
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
