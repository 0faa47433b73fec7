import { createContext, useContext, type ReactNode } from 'react';
import type { AppConfig } from '../lib/app-config.ts';

const AppConfigContext = createContext<AppConfig | null>(null);

export function AppConfigProvider({ config, children }: { config: AppConfig; children: ReactNode }) {
  return <AppConfigContext value={config}>{children}</AppConfigContext>;
}

export function useAppConfig(): AppConfig {
  const config = useContext(AppConfigContext);
  // main.tsx only renders the app once the config has loaded, so a missing value is a wiring bug.
  if (!config) throw new Error('useAppConfig must be used inside <AppConfigProvider>.');
  return config;
}
