import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { StartupErrorScreen } from './app/StartupErrorScreen.tsx';
import { loadAppConfig } from './lib/app-config.ts';
import './app/styles.css';

async function start(): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element.');
  const root = createRoot(container);

  // ClerkProvider cannot be created without the publishable key and clerk-js URL, so nothing renders before this.
  try {
    const config = await loadAppConfig();
    root.render(
      <StrictMode>
        <App config={config} />
      </StrictMode>,
    );
  } catch (error) {
    console.error(error);
    root.render(<StartupErrorScreen error={error} />);
  }
}

void start();
