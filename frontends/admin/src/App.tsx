import { describeFailureIn } from '@kasa/api-client/describeFailureIn';
import { StandaloneApp } from '@kasa/ui/standalone';
import AdminApp from './AdminApp';
import { ADMIN_ENGLISH, ADMIN_LOADERS } from './i18n/catalogues';

/**
 * The console's routes when running alone; in the product the shell mounts AdminApp on /admin/* for operators only.
 * Alone, the API's 404 is what a person who is not an operator sees in every section.
 */
export function App() {
  return (
    <StandaloneApp
      english={ADMIN_ENGLISH}
      loaders={ADMIN_LOADERS}
      path="admin/*"
      home="/admin"
      describeFailure={(failure, t) => describeFailureIn(t, failure)}
    >
      <AdminApp />
    </StandaloneApp>
  );
}
