import { createContext, useContext, useMemo } from 'react';

/** Where the shell mounted the chat (`/chat` in the product), for links and navigations inside it. */
export const ChatBaseContext = createContext('/chat');

/** The chat's own addresses, under wherever it is mounted (the same object while the base stays). */
export function useChatPaths() {
  const base = useContext(ChatBaseContext);
  return useMemo(
    () => ({
      /** A new conversation. */
      home: base,
      /** An existing conversation. */
      session: (sessionId: string) => `${base === '/' ? '' : base}/${sessionId}`,
    }),
    [base],
  );
}
