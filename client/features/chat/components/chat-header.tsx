import type { SessionUser } from '@contracts/auth.contract';
import { LiveConnectionBadge } from '@/components/live-connection';
import { PageHeader } from '@/components/page-header';
import { AppNavLink } from '@/lib/app-link';
import { paths } from '@/lib/paths';
import { chatHref } from '@/features/chat/chat.api';
import { ChannelAdminActions } from './channel-admin';

const LAYOUTS = [
  { to: paths.chat, label: 'List' },
  { to: paths.chatGrid, label: 'Grid' },
  { to: paths.chatFlex, label: 'Split' },
];

/**
 * The head of every chat layout: the total unread, the live state, the admin's channel buttons,
 * and the switch between the three layouts (which keeps the selected channel).
 */
export function ChatHeader({ total, user, channelId, onCreated }: { total: number; user: SessionUser; channelId?: number; onCreated?: (id: number) => void }) {
  return (
    <PageHeader
      eyebrow="Staff chat"
      title="Chat"
      actions={
        <>
          <nav className="tabs chat-layouts" aria-label="Chat layout">
            {LAYOUTS.map((layout) => (
              <AppNavLink key={layout.to} to={chatHref(layout.to, channelId)} end className="tab" preventScrollReset>
                {layout.label}
              </AppNavLink>
            ))}
          </nav>
          <LiveConnectionBadge label="Live messages" />
          {user.role === 'admin' ? <ChannelAdminActions onCreated={onCreated} /> : null}
        </>
      }
    >
      <p className="chat-total" aria-live="polite">
        {total ? (
          <>
            <span className="chat-unread tabular">{total > 99 ? '99+' : total}</span> {total === 1 ? 'unread message' : 'unread messages'} across your channels
          </>
        ) : (
          'You are all caught up.'
        )}
      </p>
    </PageHeader>
  );
}
