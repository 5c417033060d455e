import { paths } from '@/lib/paths';
import { loadChatPage, preloadChatPage } from './chat.api';
import { ChatWorkspace } from './chat-workspace';

/**
 * `/shell/chat/flex?channel=<id>`: the list layout with a draggable, keyboard-operable separator
 * between the channels and the thread; the width is remembered in localStorage.
 */
export const loader = loadChatPage;

export const handle = { title: 'Chat (split)', preload: preloadChatPage };

export function Component() {
  return <ChatWorkspace layout="split" basePath={paths.chatFlex} />;
}
