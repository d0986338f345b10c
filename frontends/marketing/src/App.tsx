import { Route, Routes } from 'react-router-dom';
import LandingPage from './routes/LandingPage';
import WelcomePage from './routes/WelcomePage';
import ComingSoonPage from './routes/ComingSoonPage';

/** The marketing area's routes when running alone; the shell mounts the exposed pages on its own routes. */
export function App() {
  return (
    <main id="main">
      <Routes>
        <Route index element={<LandingPage />} />
        <Route path="welcome" element={<WelcomePage />} />
        <Route path="*" element={<ComingSoonPage title="Coming soon" />} />
      </Routes>
    </main>
  );
}
