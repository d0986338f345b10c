import type { Kasa } from '@kasa/sdk';
import { QueryClientContext, QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { createContext, useContext, useState, type ReactNode } from 'react';
import { createKasaQueryClient } from './queryClient.js';

const KasaContext = createContext<Kasa | null>(null);

export interface KasaProviderProps {
  /** The client the hooks call with (`new Kasa({ baseUrl, apiKey })`). */
  client: Kasa;
  /**
   * The react-query client to cache in. Left out: the app's own (a QueryClientProvider above), or else one made
   * here with Kasa's defaults.
   */
  queryClient?: QueryClient;
  children?: ReactNode;
}

/** Makes a Kasa client, and a react-query cache, available to the hooks below it. */
export function KasaProvider({ client, queryClient, children }: KasaProviderProps) {
  const outer = useContext(QueryClientContext);
  const [own] = useState(() => (queryClient || outer ? undefined : createKasaQueryClient()));
  const content = <KasaContext.Provider value={client}>{children}</KasaContext.Provider>;
  const cache = queryClient ?? own;
  return cache ? <QueryClientProvider client={cache}>{content}</QueryClientProvider> : content;
}

/** The Kasa client of the nearest KasaProvider. */
export function useKasa(): Kasa {
  const client = useContext(KasaContext);
  if (!client) throw new Error('useKasa and the Kasa hooks must be used inside a <KasaProvider client={...}>.');
  return client;
}
