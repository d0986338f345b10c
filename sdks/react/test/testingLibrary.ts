import { configure } from '@testing-library/react';

/**
 * How long `waitFor` waits before it fails. Testing Library's default of 1 s is shorter than a local round trip can
 * take on a 2-core CI machine with the browser lane running beside (a job read plus an event stream once took longer),
 * and a timeout is there to catch a hang, not slowness: polling stops as soon as the expectation holds.
 */
configure({ asyncUtilTimeout: 10_000 });

export { act, cleanup, renderHook, waitFor } from '@testing-library/react';
