import { createElement, lazy, Suspense, useMemo, useState, type ComponentType, type LazyExoticComponent } from 'react';
import { PageSkeleton } from '@kasa/ui';
import { loadRemoteModule, type RemoteModuleId, type RemoteModules } from './manifest';
import { RemoteErrorBoundary } from './RemoteErrorBoundary';
import { useT } from '../i18n/useT';

type PropsOf<Id extends RemoteModuleId> = RemoteModules[Id]['default'] extends ComponentType<infer P> ? P : never;

type AnyComponent = ComponentType<object>;

// One lazy component per module, so returning to a page renders at once. A failed load is evicted, so the
// next visit or a Retry loads afresh instead of replaying the failure.
const lazyComponents = new Map<RemoteModuleId, LazyExoticComponent<AnyComponent>>();

function lazyRemote(id: RemoteModuleId): LazyExoticComponent<AnyComponent> {
  let component = lazyComponents.get(id);
  if (!component) {
    component = lazy(() =>
      loadRemoteModule(id).then(
        (module) => ({ default: module.default as AnyComponent }),
        (error: unknown) => {
          lazyComponents.delete(id);
          throw error;
        },
      ),
    );
    lazyComponents.set(id, component);
  }
  return component;
}

export type RemotePageProps<Id extends RemoteModuleId> = {
  /** Federation id of the page: `<remote>/<exposed name>`. */
  id: Id;
  /** Names the page in the console's error report: 'the home page' (people see a translated message). */
  name: string;
} & (object extends PropsOf<Id> ? { props?: PropsOf<Id> } : { props: PropsOf<Id> });

/** Mounts a page exposed by a remote inside its own error boundary and Suspense, with a Retry on failure. */
export function RemotePage<Id extends RemoteModuleId>({ id, name, props }: RemotePageProps<Id>) {
  const [attempt, setAttempt] = useState(0);
  const t = useT();
  // eslint-disable-next-line react-hooks/exhaustive-deps -- a new attempt must build a new lazy component
  const Page = useMemo(() => lazyRemote(id), [id, attempt]);
  return (
    <RemoteErrorBoundary key={`${id}#${attempt}`} name={name} onRetry={() => setAttempt((n) => n + 1)}>
      <Suspense fallback={<PageSkeleton label={t('layout.loading')} />}>
        {createElement(Page, (props ?? {}) as object)}
      </Suspense>
    </RemoteErrorBoundary>
  );
}
