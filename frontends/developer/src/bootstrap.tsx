// Standalone mount, for working on the portal alone (`npm run serve -w @kasa/developer-app`, API proxied to a running
// platform). Inside the product the shell renders DeveloperApp with its own router, query client, auth and theme.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { createQueryClient } from '@kasa/api-client';
import { App } from './App';
import { StandaloneStyles } from './StandaloneStyles';

const container = document.getElementById('root');
if (!container) throw new Error('#root is missing from index.html');

createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={createQueryClient()}>
      <BrowserRouter>
        <StandaloneStyles />
        <App />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
