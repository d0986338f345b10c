// Standalone mount, for working on the chat alone (`npm run serve -w @kasa/chat-app`, API proxied to a running
// platform). Inside the product the shell renders ChatApp with its own router, query client, auth and theme.
import { mountStandalone } from '@kasa/ui/standalone';
import { App } from './App';

mountStandalone(<App />);
