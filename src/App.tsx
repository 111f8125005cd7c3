import { useEffect, useMemo, type ReactNode } from 'react';
import { CssBaseline } from '@mui/material';
import {
  AdminContext, CoreAdminUI, CustomRoutes, Loading, Notification, Resource, localStorageStore, reactRouterProvider, withLifecycleCallbacks,
  type DataProvider, type ResourceCallbacks,
} from 'react-admin';
import { QueryClient } from '@tanstack/react-query';
import { createAuthProvider, getSession, type LoginParams } from '../authProvider';
import { createDataProvider, type DataProviderOptions, type MarketplaceDataProvider } from '../dataProvider';
import type { DashboardViewer } from '../contract/dashboard';
import type { Post } from './dashboard/stats';
import { createI18nProvider } from '../i18n';
import { SEARCH_PATH } from '../contract';
import { registry } from '../resources';
import { screenLoaders, toResources } from './screens/registry';
import { RouteGuard } from './screens/RouteGuard';
import { Loaded, preloadWhenIdle } from './screens/loaded';
import { loadCharts, loadDashboard, loadStats, prefetchStats } from './dashboard/loaders';
import { ConfigContext, type RuntimeConfig } from './config';
import { ErrorView } from './layout/ErrorView';
import { LocaleTheme } from './layout/LocaleTheme';
import { lazyPage } from './lazyPage';
import { darkTheme, theme } from './theme';

const { Route } = reactRouterProvider;

/** Every declared resource, and its seller and buyer variants, as a <Resource>. */
const screens = toResources(registry);

/** Each resource's lifecycle callbacks, for its admin screen and its seller and buyer variants. */
const callbacks: ResourceCallbacks[] = registry.resources.flatMap((def) =>
  def.lifecycle
    ? [def.menu?.path ?? def.screenPath, def.seller?.path, def.buyer?.path]
        .filter((path) => path !== undefined)
        .map((path) => ({ resource: path.slice(1), ...def.lifecycle }))
    : [],
);

/**
 * Answers are not retried when the server said no (4xx): an expired session signs out at once and a
 * missing record is reported at once; network failures and 5xx are retried as usual.
 */
export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (count, error) => {
          // The server's refusal (a 4xx answer) is final; anything else is tried as react-query does
          // by default (the console's own checks before any call, such as 'not signed in', included).
          const { status, body } = error as { status?: unknown; body?: unknown };
          const refused = typeof status === 'number' && status >= 400 && status < 500 && body != null;
          return !refused && count < 3;
        },
      },
    },
  });
}

/** One query cache for the console's lifetime (not one per render of App). */
const queryClient = createQueryClient();

const LoginScreen = lazyPage(() => import('./pages/LoginPage'));

/**
 * The sign-in page fetches, once the user starts filling it in, the code the first screen after
 * signing in needs (the layout, the dashboard, its charts, the sidebar's live badges), one import per
 * idle moment between keystrokes: the dashboard then shows as soon as its numbers arrive, and the
 * sign-in page itself stays small.
 */
const warmUp = () =>
  preloadWhenIdle([loadLayout, loadDashboard, loadCharts, loadStats, ...registry.resources.flatMap((def) => (def.menuBadge ? [def.menuBadge] : []))]);
function LoginPage() {
  useEffect(() => {
    const events = ['pointerdown', 'keydown', 'input'] as const;
    const once = () => {
      for (const e of events) document.removeEventListener(e, once);
      warmUp();
    };
    for (const e of events) document.addEventListener(e, once);
    return () => {
      for (const e of events) document.removeEventListener(e, once);
    };
  }, []);
  return <LoginScreen />;
}

/** The signed-in layout (top bar, sidebar, dialogs), loaded after the sign-in page. */
const loadLayout = () => import('./layout/ShellLayout').then((m) => ({ default: m.ShellLayout }));
function ShellLayout({ children }: { children: ReactNode }) {
  // Once signed in and idle, the list screens' code is fetched ahead (see screenLoaders).
  useEffect(() => preloadWhenIdle(screenLoaders(registry)), []);
  return <Loaded loader={loadLayout} props={{ children }} fallback={<Loading />} />;
}
/** react-admin's own pages for the rare cases, loaded when one is shown (see <Admin> below). */
const AccessDenied = lazyPage(() => import('./layout/rarePages').then((m) => ({ default: m.AccessDenied })));
const AuthCallback = lazyPage(() => import('./layout/rarePages').then((m) => ({ default: m.AuthCallback })));
const AuthenticationError = lazyPage(() => import('./layout/rarePages').then((m) => ({ default: m.AuthenticationError })));
const store = localStorageStore();
const RegisterPage = lazyPage(() => import('./pages/RegisterPage'));
const ResetPasswordPage = lazyPage(() => import('./pages/ResetPasswordPage'));
const DashboardPage = lazyPage(loadDashboard);
const SearchPage = lazyPage(() => import('./pages/SearchPage'));
const NotFoundPage = lazyPage(() => import('./layout/NotFound').then((m) => ({ default: m.NotFound })));

/** Public pages: shown with the top bar and no sidebar, signed in or not (SPEC §2.1, §2.6). */
export const REGISTER_PATH = '/register';
export const RESET_PATH = '/forgot-password';

/**
 * The console: react-admin over the product API named by the run-time configuration. Screens
 * are declared in resources/ and mapped to <Resource> elements here.
 */
export function App({ config, restDataProvider }: { config: RuntimeConfig; restDataProvider?: (options: DataProviderOptions) => DataProvider }) {
  const dataProvider = useMemo(
    () =>
      withLifecycleCallbacks(
        (restDataProvider ?? createDataProvider)({ apiUrl: config.apiUrl, resources: registry, session: getSession }),
        callbacks,
      ),
    [config.apiUrl, restDataProvider],
  );
  const authProvider = useMemo(() => {
    const auth = createAuthProvider(config.apiUrl);
    const post = (dataProvider as MarketplaceDataProvider).call as Post;
    const viewer = () => auth.getIdentity() as Promise<DashboardViewer>;
    // The dashboard is the first screen after signing in: its numbers are asked for with the
    // sign-in's answer, while the layout draws.
    // A new sign-in asks every route's access anew: what was answered while signed out (or as
    // someone else) is forgotten before the page asked for opens.
    return {
      ...auth,
      login: (params: LoginParams) =>
        auth.login(params).then(() => {
          queryClient.removeQueries({ queryKey: ['auth', 'canAccess'] });
          void prefetchStats(queryClient, post, viewer);
        }),
    };
  }, [config.apiUrl, dataProvider]);
  // Created once the first language's messages are loaded (main.tsx preloads them).
  const i18nProvider = useMemo(() => createI18nProvider(), []);

  return (
    <ConfigContext.Provider value={config}>
      {/*
        react-admin's <Admin>, written out (AdminContext + CoreAdminUI, as AdminUI does) so that its
        default pages, which the console replaces (layout, sign-in, not found, error), stay out of
        the first page's code.
      */}
      <AdminContext
        dataProvider={dataProvider}
        authProvider={authProvider}
        i18nProvider={i18nProvider}
        queryClient={queryClient}
        store={store}
        theme={theme}
        darkTheme={darkTheme}
      >
        <CssBaseline enableColorScheme>
          <CoreAdminUI
            disableTelemetry
            requireAuth
            title={i18nProvider.translate('shell.title')}
            layout={ShellLayout}
            loginPage={LoginPage}
            dashboard={DashboardPage}
            catchAll={NotFoundPage}
            error={ErrorView}
            loading={Loading}
            accessDenied={AccessDenied}
            authCallbackPage={AuthCallback}
            authenticationError={AuthenticationError}
          >
            <CustomRoutes>
              {/* Every page behind the sign-in goes through the same access check as the screens. */}
              {registry.resources.flatMap((def) =>
                (def.routes ?? []).map((route) => (
                  <Route key={route.path} path={route.path} element={<RouteGuard path={route.path}><Loaded loader={route.component} props={{}} /></RouteGuard>} />
                )),
              )}
              <Route path={SEARCH_PATH} element={<RouteGuard path={SEARCH_PATH}><SearchPage /></RouteGuard>} />
            </CustomRoutes>
            <CustomRoutes noLayout>
              <Route path={REGISTER_PATH} element={<RegisterPage />} />
              <Route path={RESET_PATH} element={<ResetPasswordPage />} />
              {registry.resources.flatMap((def) =>
                (def.publicRoutes ?? []).map((route) => (
                  <Route key={route.path} path={route.path} element={<LocaleTheme><Loaded loader={route.component} props={{}} /></LocaleTheme>} />
                )),
              )}
            </CustomRoutes>
            {screens.map((r) => (
              <Resource key={r.name} {...r} />
            ))}
          </CoreAdminUI>
          <Notification />
        </CssBaseline>
      </AdminContext>
    </ConfigContext.Provider>
  );
}

export default App;
