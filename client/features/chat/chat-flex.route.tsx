import type { LoaderFunctionArgs } from 'react-router';
import { paths } from '@/lib/paths';
import { ChatWorkspace, loadWorkspace, preloadWorkspace } from './chat-workspace';

/**
 * `/shell/chat/flex?channel=<id>`: the list layout with a draggable, keyboard-operable separator
 * between the channels and the thread; the width is remembered in localStorage.
 */
export const loader = ({ url }: LoaderFunctionArgs) => loadWorkspace({ url });

export const handle = { title: 'Chat (split)', preload: preloadWorkspace };

export function Component() {
  return <ChatWorkspace layout="split" basePath={paths.chatFlex} />;
}
