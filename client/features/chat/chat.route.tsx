import { paths } from '@/lib/paths';
import { loadChatPage, preloadChatPage } from './chat.api';
import { ChatWorkspace } from './chat-workspace';

/** `/shell/chat?channel=<id>`: the channel list beside the selected channel's thread. */
export const loader = loadChatPage;

export const handle = { title: 'Chat', preload: preloadChatPage };

export function Component() {
  return <ChatWorkspace layout="list" basePath={paths.chat} />;
}
