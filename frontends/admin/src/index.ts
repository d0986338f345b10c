// Async boundary: shared singletons (react, react-query, ...) are negotiated before any of them is used.
import('./bootstrap').catch((error: unknown) => {
  console.error('Kasa operator console failed to start', error);
});
