import { useEffect, useState } from 'react';

/** A module loaded with import() on first use, and known synchronously once it has arrived. */
export interface LazyModule<T> {
  /** The module if it has loaded, else undefined. */
  current(): T | undefined;
  /** Loads it (once; a failed load may be tried again). */
  load(): Promise<T>;
}

/** Wraps an `import()` (with its webpackChunkName) so that the chunk loads once, when a reply first needs it. */
export function lazyModule<T>(importer: () => Promise<T>): LazyModule<T> {
  let value: T | undefined;
  let pending: Promise<T> | undefined;
  return {
    current: () => value,
    load() {
      pending ??= importer().then(
        (module) => (value = module),
        (error: unknown) => {
          // A chunk that failed to load (a network blip) is asked for again by the next reply that needs it.
          pending = undefined;
          throw error;
        },
      );
      return pending;
    },
  };
}

/**
 * The module once loaded (undefined until then, or while `wanted` is false): the first component that needs it
 * starts the load, and each re-renders when it arrives. A module already loaded is there on the first render.
 */
export function useLazyModule<T>(module: LazyModule<T>, wanted = true): T | undefined {
  // What arrived, for the module it came from (a component may be handed another module meanwhile).
  const [arrived, setArrived] = useState(() => ({ module, value: module.current() }));
  const value = arrived.module === module ? (arrived.value ?? module.current()) : module.current();
  useEffect(() => {
    if (!wanted || value !== undefined) return;
    let live = true;
    module.load().then(
      (loaded) => {
        if (live) setArrived({ module, value: loaded });
      },
      // Not loaded: the source stays shown, as it is while loading.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [module, wanted, value]);
  return wanted ? value : undefined;
}
