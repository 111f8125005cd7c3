import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { App } from './App';
import type { RuntimeConfig } from './config';

/**
 * Draws the console in the page. It uses real paths (/login, /forgot-password?token=...), not
 * react-admin's default hash router; a data router keeps react-admin's unsaved-changes guard
 * available. The REST dialect's provider (ra-data-simple-rest) is loaded only when config.json asks
 * for it.
 */
export async function start(config: RuntimeConfig) {
  const rest = config.dataDialect === 'simple-rest' ? (await import('../dataProvider/rest')).createRestDataProvider : undefined;
  const router = createBrowserRouter([{ path: '*', element: <App config={config} restDataProvider={rest} /> }]);
  // Drawn as a transition: React then works in slices between which the browser can answer a tap
  // (a phone took a second drawing the first screen in one piece). Later updates that come through
  // a store (react-admin's session check mounting the signed-in layout) are drawn in one piece still.
  startTransition(() =>
    createRoot(document.getElementById('root') as HTMLElement).render(
      <StrictMode>
        <RouterProvider router={router} />
      </StrictMode>,
    ),
  );
}
