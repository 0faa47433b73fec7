import { RouterProvider } from 'react-router/dom';
import type { AppConfig } from '../lib/app-config.ts';
import { AppConfigProvider } from './AppConfigContext.tsx';
import { router } from './router.tsx';

export function App({ config }: { config: AppConfig }) {
  return (
    <AppConfigProvider config={config}>
      <RouterProvider router={router} />
    </AppConfigProvider>
  );
}
