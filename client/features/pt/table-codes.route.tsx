import QRCode from 'qrcode';
import { useLoaderData } from 'react-router';
import type { LoaderFunctionArgs } from 'react-router';
import { tableCodesReads } from '@pages/pt.reads';
import { EmptyState } from '@/components/empty-state';
import { Icon } from '@/components/icon';
import { PageHeader } from '@/components/page-header';
import { dinerMenuPath } from '@/lib/paths';
import { routeReads } from '@/lib/route-reads';

const reads = routeReads(tableCodesReads);

type TableCode = { table: number; url: string; image: string };
type Data = { codes: TableCode[]; origin: string; loopback: boolean };

/** Whether `origin` names this computer only (localhost, 127.0.0.0/8, ::1): a diner's phone cannot open it. */
function isLoopback(origin: string): boolean {
  const host = new URL(origin).hostname;
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * `/pt/tables` (staff): one QR code per table of the venue, each linking to the diner menu with its
 * table. Made as SVG in the loader (no canvas, sharp at any print size), shown as data-URL images.
 * The links use the server's public address (`PUBLIC_ORIGIN`), not this browser's: the desk may
 * print the sheet on the server itself or through a tunnel, and the sticker must work from a phone.
 * Without one configured the browser's own address is the best guess (right on the venue's network).
 */
export async function loader(args: LoaderFunctionArgs): Promise<Data> {
  const { menu, status } = await reads.loader(args);
  const { tables } = menu;
  const origin = status.publicOrigin ?? window.location.origin;
  const codes = await Promise.all(
    Array.from({ length: tables }, async (_, i) => {
      const table = i + 1;
      const url = `${origin}${dinerMenuPath({ table })}`;
      // Level M survives a scuffed or stained table sticker without making the code dense.
      const svg = await QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
      return { table, url, image: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` };
    }),
  );
  return { codes, origin, loopback: isLoopback(origin) };
}

export const handle = { title: 'Table QR codes', ...reads.handle };

export function Component() {
  const { codes, origin, loopback } = useLoaderData<typeof loader>();
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
        {loopback && codes.length ? (
          <div className="banner banner-warning" role="note" aria-label="Address warning">
            <p>
              These codes point at <strong>{origin}</strong>, an address only this computer can open: a diner’s phone cannot. Set the address diners reach the app at on
              the server, for example <code>PUBLIC_ORIGIN=https://your-venue.example</code>, restart it and print again.
            </p>
          </div>
        ) : null}
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
