import type { SessionUser } from '@contracts/auth.contract';
import type { StoredUpload, UploadLimits } from '@contracts/uploads.contract';
import { DeleteButton } from '@/components/confirm-delete';
import { Icon } from '@/components/icon';
import { formatBytes, formatWhen } from '@/lib/format';
import { kindOf } from '../upload-rules';
import { downloadHref } from '../uploads.api';

/** Staff delete the files they uploaded; admins any (the server decides again). */
export const mayDelete = (me: SessionUser, file: StoredUpload) => me.role === 'admin' || file.uploadedBy.id === me.id;

/** The stored files, newest first; where the table has too little room each row becomes a small card (uploads.css). */
export function StoredFiles({
  files,
  limits,
  me,
  busy,
  onDelete,
}: {
  files: StoredUpload[];
  limits: Pick<UploadLimits, 'allowedTypes'>;
  me: SessionUser;
  busy: boolean;
  onDelete: (file: StoredUpload) => void;
}) {
  return (
    <div className="upl-table-box">
      <div className="upl-table-wrap">
        <table className="upl-table" aria-busy={busy}>
          <caption className="visually-hidden">Stored files, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Size</th>
              <th scope="col">Type</th>
              <th scope="col">Uploaded by</th>
              <th scope="col">When</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {files.map((file) => (
              <tr key={file.id}>
                <td className="upl-file-name" data-label="Name">
                  {file.name}
                </td>
                <td data-label="Size" className="tabular">
                  {formatBytes(file.size)}
                </td>
                <td data-label="Type">
                  <span title={file.type}>{kindOf(file.type, limits)}</span>
                </td>
                <td data-label="Uploaded by">{file.uploadedBy.name}</td>
                <td data-label="When">
                  <time dateTime={file.createdAt}>{formatWhen(file.createdAt)}</time>
                </td>
                <td className="upl-file-actions">
                  <a className="btn btn-small" href={downloadHref(file.id)} download={file.name} aria-label={`Download ${file.name}`}>
                    <Icon name="arrow" size={16} /> Download
                  </a>
                  {mayDelete(me, file) ? <DeleteButton label={`Delete ${file.name}`} onClick={() => onDelete(file)} /> : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
