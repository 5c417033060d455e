import type { LoaderFunctionArgs } from 'react-router';
import { paths } from '@/lib/paths';
import { ChatWorkspace, loadWorkspace, preloadWorkspace } from './chat-workspace';

/** `/shell/chat?channel=<id>`: the channel list beside the selected channel's thread. */
export const loader = ({ url }: LoaderFunctionArgs) => loadWorkspace({ url });

export const handle = { title: 'Chat', preload: preloadWorkspace };

export function Component() {
  return <ChatWorkspace layout="list" basePath={paths.chat} />;
}
