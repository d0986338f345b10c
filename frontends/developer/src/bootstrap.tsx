// Standalone mount, for working on the portal alone (`npm run serve -w @kasa/developer-app`, API proxied to a running
// platform). Inside the product the shell renders DeveloperApp with its own router, query client, auth and theme.
import { mountStandalone } from '@kasa/ui/standalone';
import { App } from './App';

mountStandalone(<App />);
