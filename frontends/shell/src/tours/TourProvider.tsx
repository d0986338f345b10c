import type { TourPreferenceResponse } from '@kasa/contracts';
import { apiJson, useAuth } from '@kasa/api-client';
import {
  createContext,
  lazy,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useLocation } from 'react-router-dom';
import {
  clearGuidance,
  completeTour,
  EMPTY_GUIDANCE,
  loadGuidance,
  sameGuidance,
  saveGuidance,
  shouldAutoStart,
  skipTour,
  toGuidance,
  type GuidanceState,
} from './guidanceState';
import { TOURS, tourById, type Tour, type TourId } from './tours';
import { PagesCatalogue } from '../i18n/PagesCatalogue';

export const TOUR_PREFERENCE_URL = '/api/auth/preferences/tours';

/**
 * The tour card's code loads only when a tour is about to show (most page loads show none), so it stays out of the
 * first load; a tour that is due fetches it during its 1.5–2 s delay.
 */
const loadOverlay = () => import(/* webpackChunkName: "tour" */ './TourOverlay');
const TourOverlay = lazy(() => loadOverlay().then((module) => ({ default: module.TourOverlay })));

interface TourContextValue {
  tours: readonly Tour[];
  guidance: GuidanceState;
  startTour: (id: TourId) => void;
  resetAllTours: () => void;
}

const TourContext = createContext<TourContextValue | null>(null);

const localGuidance = () => (typeof localStorage === 'undefined' ? EMPTY_GUIDANCE : loadGuidance(localStorage));

/** Saves a signed-in person's guidance with their account; a failure only costs the sync (the tour may return). */
function saveToAccount(state: GuidanceState): void {
  apiJson<TourPreferenceResponse>('PUT', TOUR_PREFERENCE_URL, state).catch(() => {
    // Offline or the service is down: kept for this page load; the next change saves again.
  });
}

/**
 * Guided tours (spec sections 2 and 4): the welcome tour starts 2 s after a first visit to /, the chat and
 * developer tours 1.5 s after their pages load for a signed-in person who has neither completed nor skipped them;
 * any tour can be started from the Help & Tours menu. What was completed or skipped is kept with the account when
 * signed in (so it holds in every browser), in this browser's storage when signed out. On sign-in an account with
 * nothing saved yet takes what this browser knows.
 */
export function TourProvider({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const { user, isAuthenticated, isLoading } = useAuth();
  const userId = isAuthenticated ? user?.id : undefined;
  const [guidance, setGuidance] = useState<GuidanceState>(localGuidance);
  /** Whose guidance `guidance` is: undefined for this browser's, a user id once that account's has been read. */
  const [loadedFor, setLoadedFor] = useState<string | undefined>(undefined);
  const [active, setActive] = useState<Tour | null>(null);
  /** Tours closed with X in this page load: not recorded, but not restarted until the next visit either. */
  const closed = useRef(new Set<TourId>());
  const owner = useRef<string | undefined>(undefined);
  owner.current = userId;

  // Signed in: read the account's guidance before any tour may start by itself. Signed out: this browser's.
  useEffect(() => {
    if (isLoading) return;
    if (!userId) {
      setLoadedFor(undefined);
      setGuidance(localGuidance());
      return;
    }
    let cancelled = false;
    apiJson<TourPreferenceResponse>('GET', TOUR_PREFERENCE_URL)
      .then((saved) => {
        if (cancelled) return;
        if (saved.tours) {
          setGuidance(toGuidance(saved.tours));
        } else {
          const local = localGuidance();
          setGuidance(local);
          if (!sameGuidance(local, EMPTY_GUIDANCE)) saveToAccount(local);
        }
      })
      .catch(() => {
        // The account's guidance cannot be read now: this browser's decides, so tours still behave.
        if (!cancelled) setGuidance(localGuidance());
      })
      .finally(() => {
        if (!cancelled) setLoadedFor(userId);
      });
    return () => {
      cancelled = true;
    };
  }, [userId, isLoading]);

  const record = useCallback((next: (state: GuidanceState) => GuidanceState) => {
    setGuidance((current) => {
      const updated = next(current);
      if (owner.current) saveToAccount(updated);
      else saveGuidance(localStorage, updated);
      return updated;
    });
  }, []);

  const ready = !isLoading && loadedFor === userId;

  useEffect(() => {
    if (active || !ready) return;
    const due = TOURS.find(
      (tour) =>
        !closed.current.has(tour.id) && shouldAutoStart(guidance, tour, { pathname, signedIn: isAuthenticated }),
    );
    if (!due) return;
    void loadOverlay().catch(() => undefined);
    // The timer restarts on each navigation, so a tour never starts on a page the person has already left.
    const timer = setTimeout(() => setActive(due), due.delayMs);
    return () => clearTimeout(timer);
  }, [pathname, isAuthenticated, ready, guidance, active]);

  const value = useMemo<TourContextValue>(
    () => ({
      tours: TOURS,
      guidance,
      startTour: (id) => setActive(tourById(id) ?? null),
      resetAllTours: () => {
        closed.current.clear();
        if (owner.current) saveToAccount(EMPTY_GUIDANCE);
        else clearGuidance(localStorage);
        setGuidance(EMPTY_GUIDANCE);
      },
    }),
    [guidance],
  );

  return (
    <TourContext.Provider value={value}>
      {children}
      <Suspense fallback={null}>
        {active ? (
          <PagesCatalogue>
            <TourOverlay
              key={active.id}
              tour={active}
              onComplete={() => {
                record((state) => completeTour(state, active.id));
                setActive(null);
              }}
              onSkip={() => {
                record((state) => skipTour(state, active.id));
                setActive(null);
              }}
              onClose={() => {
                closed.current.add(active.id);
                setActive(null);
              }}
            />
          </PagesCatalogue>
        ) : null}
      </Suspense>
    </TourContext.Provider>
  );
}

export function useTours(): TourContextValue {
  const value = useContext(TourContext);
  if (!value) throw new Error('useTours must be used within a TourProvider');
  return value;
}
