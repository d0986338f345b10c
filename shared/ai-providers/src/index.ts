/** @kasa/ai-providers: which AI providers are configured, read from the environment, and their Vercel AI SDK models. */
export * from './providerSettings';
export * from './modelFactory';
export * from './embeddings';
