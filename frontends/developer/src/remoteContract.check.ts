/**
 * Type-check only (tsconfig.typecheck.json includes the shell's remote-modules.d.ts): every component this remote
 * exposes (frontends/federation/exposes.js) accepts the props the shell's declaration of it promises, and requires
 * none it does not. Nothing imports this file.
 */
import type { ComponentType } from 'react';
import type DeveloperApp from './DeveloperApp';

/** The props a component takes. */
type PropsOf<C> = C extends ComponentType<infer P> ? P : never;
/** true when the shell's props for `Declared` are what `Actual` takes. */
type Accepts<Actual, Declared> = PropsOf<Declared> extends PropsOf<Actual> ? true : false;

export const exposedAsDeclared: {
  DeveloperApp: Accepts<typeof DeveloperApp, typeof import('developer/DeveloperApp').default>;
} = {
  DeveloperApp: true,
};
