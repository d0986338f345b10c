import { createContext, useContext } from 'react';

/** Where the console is mounted (`/admin` in the product): its sections' and people's links start here. */
export const BaseContext = createContext('/admin');

export const useBase = (): string => useContext(BaseContext);
