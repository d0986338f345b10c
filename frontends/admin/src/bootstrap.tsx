// Standalone mount, for working on the console alone (`npm run serve -w @kasa/admin-app`, API proxied to a running
// platform). Inside the product the shell renders AdminApp with its own router, query client, auth and theme.
import { mountStandalone } from '@kasa/ui/standalone';
import { App } from './App';

mountStandalone(<App />);
