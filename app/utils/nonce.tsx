import { createContext, useContext, type ReactNode } from 'react';

// The per-request CSP nonce, made in entry.server and read by the root's <Scripts>.
const NonceContext = createContext<string>('');

export function NonceProvider({ value, children }: { value: string; children: ReactNode }) {
  return <NonceContext.Provider value={value}>{children}</NonceContext.Provider>;
}

export const useNonce = () => useContext(NonceContext);
