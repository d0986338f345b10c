import { describeFailureIn } from '@kasa/api-client/describeFailureIn';
import { StandaloneApp } from '@kasa/ui/standalone';
import DeveloperApp from './DeveloperApp';
import { DEVELOPER_ENGLISH, DEVELOPER_LOADERS } from './i18n/catalogues';
import type { PortalToast } from './notify';

/** Running alone there is no shell to show toasts: they go to the console. */
const notify = (toast: PortalToast) => {
  console.info(`[toast] ${toast.title}: ${toast.description ?? ''}`);
  return undefined;
};

/** The portal's route when running alone; in the product the shell mounts DeveloperApp on /developer. */
export function App() {
  return (
    <StandaloneApp
      english={DEVELOPER_ENGLISH}
      loaders={DEVELOPER_LOADERS}
      path="developer"
      home="/developer"
      describeFailure={(failure, t) => describeFailureIn(t, failure)}
    >
      <DeveloperApp notify={notify} />
    </StandaloneApp>
  );
}
