import QRCode from 'qrcode';
import { useLoaderData } from 'react-router';
import { EmptyState } from '@/components/empty-state';
import { Icon } from '@/components/icon';
import { PageHeader } from '@/components/page-header';
import { loadQuery, preloadQuery } from '@/lib/cache';
import { dinerMenuPath } from '@/lib/paths';
import { MENU_KEY, fetchMenu } from './pt.api';

type TableCode = { table: number; url: string; image: string };
type Data = { codes: TableCode[] };

/**
 * `/pt/tables` (staff): one QR code per table of the venue, each linking to the diner menu with its
 * table. Made as SVG in the loader (no canvas, sharp at any print size), shown as data-URL images.
 */
export async function loader(): Promise<Data> {
  const { tables } = await loadQuery(MENU_KEY, fetchMenu);
  const codes = await Promise.all(
    Array.from({ length: tables }, async (_, i) => {
      const table = i + 1;
      const url = `${window.location.origin}${dinerMenuPath({ table })}`;
      // Level M survives a scuffed or stained table sticker without making the code dense.
      const svg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
      return { table, url, image: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` };
    }),
  );
  return { codes };
}

export const handle = { title: 'Table QR codes', preload: () => preloadQuery(MENU_KEY, fetchMenu) };

export function Component() {
  const { codes } = useLoaderData<typeof loader>();
  return (
    <div className="stack-lg qr-sheet">
      <PageHeader
        eyebrow="Food court"
        title="Table QR codes"
        actions={
          codes.length ? (
            <button type="button" className="btn btn-primary" onClick={() => window.print()}>
              <Icon name="print" size={18} /> Print
            </button>
          ) : null
        }
      >
        <p>
          One code per table. Scanning it opens the menu for that table, so the order comes to the right place. Print the sheet, cut the cards and stick one on each
          table.
        </p>
      </PageHeader>
      {codes.length === 0 ? (
        <section className="card">
          <EmptyState icon="qr" title="No tables set up">
            The venue has no tables configured, so there is nothing to print.
          </EmptyState>
        </section>
      ) : (
        <ul className="qr-grid" aria-label="Table QR codes">
          {codes.map((code) => (
            <li key={code.table} className="qr-card">
              <span className="qr-table">Table {code.table}</span>
              <img src={code.image} alt={`QR code for table ${code.table}`} width={180} height={180} />
              <span className="qr-hint">Scan to order</span>
              <span className="qr-url">{code.url}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
