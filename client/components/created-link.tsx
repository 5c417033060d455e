import { useRef } from 'react';
import type { KisiGroupLinkCreated } from '@contracts/kisi.contract';
import { formatWhen } from '@/lib/format';
import { qrImageSrc } from '@/lib/kisi';
import { CopyButton, selectText } from './copy-button';

/**
 * What Kisi answers on creating an access link, the only time it shows the link's secret and QR
 * code (lists never do): shown once, with a copy button for the secret and the code for the
 * member to scan. The member's tab (a day pass) and /kisi/group_links share it.
 */
export function CreatedLink({ link, onClose }: { link: KisiGroupLinkCreated; onClose: () => void }) {
  const secretRef = useRef<HTMLElement>(null);
  return (
    <div className="created-link" data-testid="created-link">
      <div className="banner banner-info" role="status">
        <strong>Shown only once.</strong> Copy the secret or let {link.email ?? 'the guest'} scan the QR code now: Kisi will not show them again.
      </div>
      <div className="created-link-body">
        {link.quick_response_code_image ? (
          <figure className="created-link-qr">
            <img src={qrImageSrc(link.quick_response_code_image)} alt={`QR code of the access link “${link.name}”: scan it at the door reader`} width={180} height={180} />
            <figcaption className="muted small">Scan at the door{link.valid_until ? ` until ${formatWhen(link.valid_until)}` : ''}.</figcaption>
          </figure>
        ) : null}
        <dl className="facts">
          <div>
            <dt>Name</dt>
            <dd>{link.name}</dd>
          </div>
          <div>
            <dt>Email</dt>
            <dd>{link.email ?? '—'}</dd>
          </div>
          <div>
            <dt>Group</dt>
            <dd>{link.group.name}</dd>
          </div>
          <div>
            <dt>Valid from</dt>
            <dd>{link.valid_from ? formatWhen(link.valid_from) : 'Now'}</dd>
          </div>
          <div>
            <dt>Valid until</dt>
            <dd>{link.valid_until ? formatWhen(link.valid_until) : 'No end date'}</dd>
          </div>
        </dl>
      </div>
      <dl className="secrets">
        <div>
          <dt>Secret</dt>
          <dd className="secret-row">
            <code className="secret" ref={secretRef}>
              {link.secret ?? 'Kisi returned none'}
            </code>
            {link.secret ? <CopyButton text={link.secret} what="secret" onRefused={() => selectText(secretRef.current)} /> : null}
          </dd>
        </div>
        <div>
          <dt>QR code token ({link.quick_response_code_type ?? 'no QR code'})</dt>
          <dd>
            <code className="secret">{link.quick_response_code_token ?? 'Kisi returned none'}</code>
          </dd>
        </div>
      </dl>
      <div className="form-actions">
        <button type="button" className="btn btn-primary" onClick={onClose} data-autofocus>
          Done
        </button>
      </div>
    </div>
  );
}
