import type { TourId } from './tours';

/** Spec section 3: a step of a guided tour. Targets are `data-tour` names on the page's elements. */
export interface TourStep {
  id: string;
  title: string;
  description: string;
  /** The `data-tour` value of the element the step points at; a step without one (or whose element is not on the
   * page, say a link only signed-in people see) shows centred. */
  target?: string;
  position: 'top' | 'bottom' | 'left' | 'right' | 'center';
  /** Not drawn: the web app's icons are SVG from one set, never text or emoji. */
  icon?: string;
  /** What the person might do next, shown under the description. */
  action?: string;
  required?: boolean;
}

/** The steps of each tour; loaded with the tour card (TourOverlay), not on every page load. */
export const TOUR_STEPS: Readonly<Record<TourId, readonly TourStep[]>> = {
  welcome: [
    {
      id: 'hello',
      title: 'Welcome to Kasa',
      description:
        'Talk with six AI personas by text or voice, in your own language — Twi, Hausa, Ga, Ewe, Yoruba, Swahili and 120+ more.',
      position: 'center',
    },
    {
      id: 'chat',
      title: 'Chat',
      description: 'Pick a persona and start a conversation. Replies stream in as they are written.',
      target: 'nav-chat',
      position: 'bottom',
      action: 'Sign in to open the chat.',
    },
    {
      id: 'pricing',
      title: 'Plans',
      description: 'Free gets you started; Pro adds voice, languages and more calls.',
      target: 'nav-pricing',
      position: 'bottom',
    },
    {
      id: 'theme',
      title: 'Make it yours',
      description: 'Switch between light and dark, or choose one of five colour schemes.',
      target: 'nav-theme',
      position: 'bottom',
    },
    {
      id: 'help',
      title: 'Help is always here',
      description: 'Start any tour again from the Help & Tours menu.',
      target: 'nav-help',
      position: 'bottom',
    },
  ],
  chat: [
    {
      id: 'personas',
      title: 'Choose a persona',
      description: 'Each persona has its own expertise. Switching persona starts a new conversation.',
      target: 'chat-personas',
      position: 'bottom',
    },
    {
      id: 'composer',
      title: 'Write or speak',
      description: 'Enter sends, Shift+Enter adds a line. You can stop a reply while it is being written.',
      target: 'chat-composer',
      position: 'top',
    },
    {
      id: 'sessions',
      title: 'Your conversations',
      description: 'Every conversation is kept here: rename, delete or search them.',
      target: 'chat-sessions',
      position: 'right',
    },
  ],
  developer: [
    {
      id: 'portal',
      title: 'The developer portal',
      description: 'Everything you need to build on Kasa: keys, docs, SDKs and your usage.',
      target: 'developer-portal',
      position: 'bottom',
    },
    {
      id: 'docs',
      title: 'API documentation',
      description: 'The OpenAPI document describes every call; the Kasa API also speaks OpenAI’s chat format.',
      position: 'center',
      action: 'Open /api/openapi.json any time.',
    },
  ],
};
