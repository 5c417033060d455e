import { useEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { CopyButton, selectText } from '@/components/copy-button';
import { formatWhen } from '@/lib/format';

/** The link as a QR code (SVG, sharp at any size); the encoder loads with the first link made, not with the page. */
function useQrImage(url: string): string | undefined {
  const [image, setImage] = useState<string>();
  useEffect(() => {
    let current = true;
    void import('qrcode')
      .then(({ default: QRCode }) => QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 }))
      .then((svg) => current && setImage(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`))
      .catch(() => undefined); // no code: the link and its copy button still do
    return () => {
      current = false;
    };
  }, [url]);
  return image;
}

/**
 * An invitation or reset link just made: the server keeps only its fingerprint, so this is the one
 * time anyone sees it (as a day pass's secret, components/created-link.tsx, whose look it shares).
 * There is no mail server: the admin copies it into a message, or the person scans the code.
 */
export function OneTimeLink({ url, expiresAt, facts, onClose }: { url: string; expiresAt: string; facts: Array<{ label: string; value: ReactNode }>; onClose: () => void }) {
  const linkRef = useRef<HTMLElement>(null);
  const qr = useQrImage(url);
  return (
    <div className="created-link" data-testid="one-time-link">
      <div className="banner banner-info" role="status">
        <strong>Shown once: copy it now.</strong> Send it yourself (a message, a chat) or let them scan the code; Frontdesk cannot show this link again.
      </div>
      <div className="created-link-body">
        <figure className="created-link-qr">
          {qr ? <img src={qr} alt="QR code of the link: scan it with a phone's camera" width={180} height={180} /> : <span className="qr-placeholder" aria-hidden="true" />}
          <figcaption className="muted small">Scan to open it on a phone.</figcaption>
        </figure>
        <dl className="facts">
          {facts.map((fact) => (
            <div key={fact.label}>
              <dt>{fact.label}</dt>
              <dd>{fact.value}</dd>
            </div>
          ))}
          <div>
            <dt>Valid until</dt>
            <dd>{formatWhen(expiresAt)}</dd>
          </div>
          <div>
            <dt>Use</dt>
            <dd>Once</dd>
          </div>
        </dl>
      </div>
      <dl className="secrets">
        <div>
          <dt>Link</dt>
          <dd className="secret-row">
            <code className="secret" ref={linkRef} data-testid="one-time-link-url">
              {url}
            </code>
            <CopyButton text={url} what="link" onRefused={() => selectText(linkRef.current)} />
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
