import { useAuth } from '@kasa/api-client';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLocation } from 'react-router-dom';
import {
  clearGuidance,
  completeTour,
  EMPTY_GUIDANCE,
  loadGuidance,
  saveGuidance,
  shouldAutoStart,
  skipTour,
  type GuidanceState,
} from './guidanceState';
import { TourOverlay } from './TourOverlay';
import { TOURS, tourById, type Tour, type TourId } from './tours';

interface TourContextValue {
  tours: readonly Tour[];
  guidance: GuidanceState;
  startTour: (id: TourId) => void;
  resetAllTours: () => void;
}

const TourContext = createContext<TourContextValue | null>(null);

/**
 * Guided tours (spec sections 2 and 4): the welcome tour starts 2 s after a first visit to /, the chat and
 * developer tours 1.5 s after their pages load for a signed-in person who has not completed them; any tour can
 * be started from the Help & Tours menu.
 */
export function TourProvider({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const { isAuthenticated, isLoading } = useAuth();
  const [guidance, setGuidance] = useState<GuidanceState>(() =>
    typeof localStorage === 'undefined' ? EMPTY_GUIDANCE : loadGuidance(localStorage),
  );
  const [active, setActive] = useState<Tour | null>(null);
  /** Tours closed with X in this page load: not recorded, but not restarted until the next visit either. */
  const closed = useRef(new Set<TourId>());

  const record = useCallback((next: (state: GuidanceState) => GuidanceState) => {
    setGuidance((current) => {
      const updated = next(current);
      saveGuidance(localStorage, updated);
      return updated;
    });
  }, []);

  useEffect(() => {
    if (active || isLoading) return;
    const due = TOURS.find(
      (tour) =>
        !closed.current.has(tour.id) && shouldAutoStart(guidance, tour, { pathname, signedIn: isAuthenticated }),
    );
    if (!due) return;
    // The timer restarts on each navigation, so a tour never starts on a page the person has already left.
    const timer = setTimeout(() => setActive(due), due.delayMs);
    return () => clearTimeout(timer);
  }, [pathname, isAuthenticated, isLoading, guidance, active]);

  const value = useMemo<TourContextValue>(
    () => ({
      tours: TOURS,
      guidance,
      startTour: (id) => setActive(tourById(id) ?? null),
      resetAllTours: () => {
        clearGuidance(localStorage);
        closed.current.clear();
        setGuidance(EMPTY_GUIDANCE);
      },
    }),
    [guidance],
  );

  return (
    <TourContext.Provider value={value}>
      {children}
      {active ? (
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
      ) : null}
    </TourContext.Provider>
  );
}

export function useTours(): TourContextValue {
  const value = useContext(TourContext);
  if (!value) throw new Error('useTours must be used within a TourProvider');
  return value;
}
