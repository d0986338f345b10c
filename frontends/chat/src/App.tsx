import { StandaloneApp } from '@kasa/ui/standalone';
import ChatApp from './ChatApp';
import { describeFailure } from './conversation/useConversation';
import { CHAT_ENGLISH, CHAT_LOADERS } from './i18n/catalogues';

/** The chat area's routes when running alone; in the product the shell mounts ChatApp on /chat/*. */
export function App() {
  return (
    <StandaloneApp
      english={CHAT_ENGLISH}
      loaders={CHAT_LOADERS}
      path="chat/*"
      home="/chat"
      describeFailure={describeFailure}
    >
      <ChatApp />
    </StandaloneApp>
  );
}
