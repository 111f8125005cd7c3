import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { App } from './App';
import { loadConfig } from './config';

const root = createRoot(document.getElementById('root') as HTMLElement);

// Read the run-time configuration first, so one build can point at any back end. The console
// uses real paths (/login, /forgot-password?token=...), not react-admin's default hash router;
// a data router keeps react-admin's unsaved-changes guard available.
void loadConfig().then((config) => {
  const router = createBrowserRouter([{ path: '*', element: <App config={config} /> }]);
  root.render(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
  );
});
