import { Icon } from './icon';

/**
 * The CSV export of a filtered list or report: a plain link, so the browser downloads it with the
 * session cookie, and the file holds every row the filters select (every page).
 */
export function ExportCsvLink({ href }: { href: string }) {
  return (
    <a className="btn" href={href} download>
      <Icon name="download" size={18} /> Export CSV
    </a>
  );
}
