// Standalone mount, for working on the marketing pages alone (`npm run serve -w @kasa/marketing-app`).
// Inside the product the shell renders the exposed pages with its own router, query client and theme.
import { mountStandalone } from '@kasa/ui/standalone';
import { App } from './App';

mountStandalone(<App />);
