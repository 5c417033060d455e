import './member-import.css';
import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import { MEMBER_IMPORT_MAX_BYTES, MEMBER_IMPORT_MAX_ROWS, type ImportOutcome, type MemberImportPreview, type MemberImportResult, type MemberImportRow } from '@contracts/member-import.contract';
import { PageHeader } from '@/components/page-header';
import { useToast } from '@/components/toast-host';
import { errorMessage, isApiError } from '@/lib/api-client';
import { AppLink } from '@/lib/app-link';
import { paths } from '@/lib/paths';
import { GymNav } from './components/gym-nav';
import { MEMBERSHIP_LABELS } from './components/membership-badge';
import { lastMembersList } from './gym.api';
import { confirmMemberImport, previewMemberImport } from './member-import.api';

/** `/shell/gymowner/users/import`: members from the venue's spreadsheet, saved as CSV (decision 0106). */
export const handle = { title: 'Import members' };

/** Rows the preview draws at most for one choice of the filter (a file may hold 5,000). */
const SHOWN_ROWS = 200;

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;
const MEGABYTE = 1024 * 1024;

/**
 * A file's text: UTF-8 as spreadsheets save "CSV UTF-8", else Windows-1252, as Excel's plain "CSV"
 * is on most desks (its accented names would otherwise arrive as "�").
 */
async function textOf(file: File): Promise<string> {
  const bytes = await new Promise<ArrayBuffer>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read'));
    reader.readAsArrayBuffer(file);
  });
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** A refusal in words: the problem's detail and, when it names fields beyond it, theirs. */
function refusalOf(error: unknown): string {
  if (!isApiError(error)) return errorMessage(error);
  const more = (error.problem?.errors ?? []).map((e) => e.message).filter((message) => message !== error.message);
  return [error.message, ...more].join(' ');
}

type Filter = 'all' | ImportOutcome;
const FILTER_LABELS: Record<Filter, string> = { all: 'All rows', new: 'New members', member: 'Already members', problem: 'Left out' };

type Previewed = { preview: MemberImportPreview; csv: string; source: string };

export function Component() {
  const toast = useToast();
  const fileId = useId();
  const pasteId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [pasted, setPasted] = useState('');
  const [busy, setBusy] = useState<'reading' | 'previewing' | 'importing' | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  /** Said above a preview read again because the members changed since the one confirmed. */
  const [changedNote, setChangedNote] = useState(false);
  const [previewed, setPreviewed] = useState<Previewed | null>(null);
  const [result, setResult] = useState<MemberImportResult | null>(null);
  const refusalBox = useRef<HTMLDivElement>(null);
  useFocusOnArrival(refusalBox, refusal);

  async function preview(csv: string, source: string) {
    setBusy('previewing');
    setRefusal(null);
    setResult(null);
    try {
      const answer = await previewMemberImport({ body: { csv } });
      setPreviewed({ preview: answer, csv, source });
    } catch (error) {
      setPreviewed(null);
      setRefusal(refusalOf(error));
    } finally {
      setBusy(null);
    }
  }

  async function choose(file: File | undefined) {
    if (!file) return;
    setChangedNote(false);
    if (file.size > MEMBER_IMPORT_MAX_BYTES) {
      setPreviewed(null);
      setResult(null);
      setRefusal(`${file.name} is ${(file.size / MEGABYTE).toFixed(1)} MB; an import takes at most ${MEMBER_IMPORT_MAX_BYTES / MEGABYTE} MB (about ${MEMBER_IMPORT_MAX_ROWS.toLocaleString('en')} members). Split it and import each part.`);
      return;
    }
    setBusy('reading');
    let text: string;
    try {
      text = await textOf(file);
    } catch (error) {
      setBusy(null);
      setRefusal(`${file.name} could not be read: ${errorMessage(error)}`);
      return;
    }
    await preview(text, file.name);
  }

  async function confirm() {
    if (!previewed || busy) return;
    setBusy('importing');
    setRefusal(null);
    try {
      const done = await confirmMemberImport({ body: { csv: previewed.csv, previewHash: previewed.preview.previewHash } });
      setResult(done);
      setPreviewed(null);
      setChangedNote(false);
      if (fileInput.current) fileInput.current.value = '';
      toast.show({ tone: 'success', message: done.created === 0 ? 'Nothing new to import.' : `${plural(done.created, 'member', 'members')} imported.` });
    } catch (error) {
      if (isApiError(error, 409)) {
        // Someone added a member or removed an owner since: the file is previewed again, as it would import now.
        setChangedNote(true);
        await preview(previewed.csv, previewed.source);
        return;
      }
      setRefusal(refusalOf(error));
    } finally {
      setBusy((now) => (now === 'importing' ? null : now));
    }
  }

  const startOver = () => {
    setPreviewed(null);
    setResult(null);
    setRefusal(null);
    setChangedNote(false);
    setPasted('');
    if (fileInput.current) {
      fileInput.current.value = '';
      fileInput.current.focus();
    }
  };

  return (
    <div className="stack-lg gym member-import">
      <GymNav />
      <AppLink to={lastMembersList.get()} className="back-link">
        ← All members
      </AppLink>
      <PageHeader eyebrow="Gym" title="Import members">
        <p>Add the members of your spreadsheet, saved as CSV. You see what each row would do first; nothing is saved until you confirm.</p>
      </PageHeader>

      <section className="card stack import-source" aria-labelledby={`${fileId}-heading`}>
        <h2 id={`${fileId}-heading`} className="section-title">
          Choose the file
        </h2>
        <p className="muted">
          The first row names the columns: <code>name</code>, <code>email</code>, <code>owner_email</code> (the email of one of your gym owners) and, if you like, <code>membership</code> (active,
          paused or cancelled; empty is active). Commas or semicolons; at most {MEMBER_IMPORT_MAX_ROWS.toLocaleString('en')} rows ({MEMBER_IMPORT_MAX_BYTES / MEGABYTE} MB). Members already here, by email,
          are left as they are.
        </p>
        <div className="field">
          <label htmlFor={fileId}>CSV file</label>
          <input
            ref={fileInput}
            id={fileId}
            type="file"
            accept=".csv,text/csv,text/plain"
            disabled={busy !== null}
            onChange={(event) => void choose(event.target.files?.[0])}
          />
        </div>
        <details className="import-paste">
          <summary>Or paste the rows</summary>
          <div className="field">
            <label htmlFor={pasteId}>Rows, with their header row</label>
            <textarea id={pasteId} rows={6} value={pasted} onChange={(event) => setPasted(event.target.value)} placeholder={'name,email,owner_email,membership\nAna Lima,ana@example.com,owner@example.com,active'} spellCheck={false} />
          </div>
          <button type="button" className="btn" disabled={busy !== null || pasted.trim() === ''} onClick={() => void preview(pasted, 'the pasted rows')}>
            Preview
          </button>
        </details>
        {busy === 'reading' || busy === 'previewing' ? (
          <p className="muted" role="status">
            <span className="spinner" aria-hidden="true" /> Reading the file…
          </p>
        ) : null}
      </section>

      {refusal ? (
        <div ref={refusalBox} tabIndex={-1} className="banner banner-danger" role="alert">
          <p>
            <strong>Nothing was imported.</strong> {refusal}
          </p>
        </div>
      ) : null}

      {result ? <ImportDone result={result} onAgain={startOver} /> : null}

      {previewed ? <PreviewSection previewed={previewed} changedNote={changedNote} importing={busy === 'importing'} onConfirm={() => void confirm()} onCancel={startOver} /> : null}
    </div>
  );
}

/** Moves the focus (and so the screen) to `target` when it arrives, and each time `key` changes. */
function useFocusOnArrival(target: RefObject<HTMLElement | null>, key: unknown) {
  useEffect(() => target.current?.focus(), [target, key]);
}

function ImportDone({ result, onAgain }: { result: MemberImportResult; onAgain: () => void }) {
  const box = useRef<HTMLElement>(null);
  useFocusOnArrival(box, result);
  const rest = [
    result.members > 0 ? `${plural(result.members, 'was already a member', 'were already members')} and ${result.members === 1 ? 'was' : 'were'} left as they are` : '',
    result.problems > 0 ? `${plural(result.problems, 'row', 'rows')} with problems ${result.problems === 1 ? 'was' : 'were'} left out` : '',
  ].filter(Boolean);
  return (
    <section ref={box} tabIndex={-1} className="banner banner-info import-done" role="status" aria-label="Import done">
      <p>
        <strong>{result.created === 0 ? 'Nothing new: no member was added.' : `Imported ${plural(result.created, 'member', 'members')}.`}</strong>
        {rest.length ? ` ${rest.join('; ')}.` : ''}
        {result.created > 0 ? ' Their door access follows their membership in a moment.' : ''}
      </p>
      <div className="import-actions">
        <AppLink to={paths.gymMembers} className="btn btn-primary">
          See the members
        </AppLink>
        <button type="button" className="btn" onClick={onAgain}>
          Import another file
        </button>
      </div>
    </section>
  );
}

function PreviewSection({ previewed, changedNote, importing, onConfirm, onCancel }: { previewed: Previewed; changedNote: boolean; importing: boolean; onConfirm: () => void; onCancel: () => void }) {
  const headingId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const { preview, source } = previewed;
  // A new preview comes below the file's field (off a phone's screen): the reader is taken to it.
  useFocusOnArrival(heading, preview.previewHash);
  const { counts } = preview;
  const [filter, setFilter] = useState<Filter>('all');
  const countOf: Record<Filter, number> = { all: counts.rows, new: counts.new, member: counts.members, problem: counts.problems };
  const matching = filter === 'all' ? preview.rows : preview.rows.filter((row) => row.outcome === filter);
  const shown = matching.slice(0, SHOWN_ROWS);
  const ignored = preview.columns.filter((c) => c.field === null && c.header !== '').map((c) => `“${c.header}”`);

  return (
    <section className="card stack import-preview" aria-labelledby={headingId}>
      <h2 id={headingId} ref={heading} tabIndex={-1} className="section-title">
        Preview of {source}
      </h2>
      {changedNote ? (
        <p className="banner banner-warning" role="alert">
          The members or owners changed since the last preview, so nothing was imported. This is how the file would import now; confirm it if it is right.
        </p>
      ) : null}
      <p className="import-counts" role="status">
        {plural(counts.rows, 'row', 'rows')}: <strong className={counts.new ? 'import-count-new' : ''}>{plural(counts.new, 'new member', 'new members')}</strong>,{' '}
        <strong>{plural(counts.members, 'already a member', 'already members')}</strong>, <strong className={counts.problems ? 'import-count-problem' : ''}>{plural(counts.problems, 'row', 'rows')} left out</strong>{' '}
        with problems.
      </p>
      {ignored.length ? <p className="muted small">Columns not imported: {ignored.join(', ')}.</p> : null}

      <label className="field-inline">
        <span>Show</span>
        <select value={filter} onChange={(event) => setFilter(event.target.value as Filter)}>
          {(Object.keys(FILTER_LABELS) as Filter[]).map((key) => (
            <option key={key} value={key}>
              {FILTER_LABELS[key]} ({countOf[key].toLocaleString('en')})
            </option>
          ))}
        </select>
      </label>

      {shown.length === 0 ? (
        <p className="muted">No rows of this kind.</p>
      ) : (
        <div className="import-table-box">
          <table className="import-table">
            <caption className="visually-hidden">What importing each row would do</caption>
            <thead>
              <tr>
                <th scope="col">Row</th>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Owner</th>
                <th scope="col">Membership</th>
                <th scope="col">What happens</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((row) => (
                <PreviewRow key={row.line} row={row} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {matching.length > shown.length ? (
        <p className="muted small">
          Showing the first {SHOWN_ROWS} of {matching.length.toLocaleString('en')} rows of this kind.
        </p>
      ) : null}

      <div className="import-confirm">
        {counts.new > 0 ? (
          <p>
            Importing adds {plural(counts.new, 'member', 'members')}, each as if added by hand.
            {counts.problems > 0 ? ' Rows left out can be fixed in the spreadsheet and the file imported again: members already here are skipped.' : ''}
          </p>
        ) : (
          <p>Nothing to import: {counts.members > 0 ? 'every row that could be imported is a member already' : 'no row can be imported as it is'}.</p>
        )}
        <div className="import-actions">
          {counts.new > 0 ? (
            <button type="button" className="btn btn-primary" onClick={onConfirm} aria-disabled={importing || undefined} aria-busy={importing}>
              {importing ? <span className="spinner" aria-hidden="true" /> : null}
              {importing ? 'Importing…' : `Import ${plural(counts.new, 'member', 'members')}`}
            </button>
          ) : null}
          <button type="button" className="btn" onClick={onCancel} disabled={importing}>
            {counts.new > 0 ? 'Cancel' : 'Choose another file'}
          </button>
        </div>
      </div>
    </section>
  );
}

const OUTCOME_BADGES: Record<ImportOutcome, { text: string; className: string }> = {
  new: { text: 'New member', className: 'badge badge-ok' },
  member: { text: 'Already a member', className: 'badge badge-muted' },
  problem: { text: 'Left out', className: 'badge badge-bad' },
};
const DIFFERENCE_LABELS = { name: 'name', owner: 'owner', membership: 'membership' } as const;

/** An email that may break before its @ (a narrow column), not inside a word. */
function Email({ text }: { text: string }) {
  const at = text.indexOf('@');
  if (!text) return <span className="muted">—</span>;
  if (at <= 0) return <>{text}</>;
  return (
    <>
      {text.slice(0, at)}
      <wbr />
      {text.slice(at)}
    </>
  );
}

function PreviewRow({ row }: { row: MemberImportRow }) {
  const badge = OUTCOME_BADGES[row.outcome];
  const membership = row.membership in MEMBERSHIP_LABELS ? MEMBERSHIP_LABELS[row.membership as keyof typeof MEMBERSHIP_LABELS] : row.membership;
  return (
    <tr className={`import-row import-row-${row.outcome}`}>
      <td data-label="Row" className="import-line">
        {row.line}
      </td>
      <td data-label="Name">{row.name || <span className="muted">—</span>}</td>
      <td data-label="Email">
        <Email text={row.email} />
      </td>
      <td data-label="Owner">
        <Email text={row.ownerEmail} />
      </td>
      <td data-label="Membership">{membership || <span className="muted">—</span>}</td>
      <td data-label="What happens" className="import-outcome">
        <div>
          <span className={badge.className}>{badge.text}</span>
        {row.problems.length ? (
          <ul className="import-problems">
            {row.problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        ) : null}
        {row.outcome === 'member' ? (
          row.differences.length ? (
            <ul className="import-differences">
              {row.differences.map((d) => (
                <li key={d.field}>
                  Here the {DIFFERENCE_LABELS[d.field]} is {d.member}; the file says {d.file}. Left as it is.
                </li>
              ))}
            </ul>
          ) : (
            <p className="muted small">The same as here; left as it is.</p>
          )
        ) : null}
        </div>
      </td>
    </tr>
  );
}
