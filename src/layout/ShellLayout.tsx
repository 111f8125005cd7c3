import type { ReactNode } from 'react';
import { Layout } from 'react-admin';
import { MoneyProvider } from '../currency';
import { GlobalDialog, ModalProvider } from '../dialog';
import { ErrorView } from './ErrorView';
import { LocaleTheme } from './LocaleTheme';
import { ProfileWatcher } from './ProfileWatcher';
import { StepUpDialog } from '../widgets/StepUpDialog';
import { Sidebar } from './Sidebar';
import { SidebarMenu } from './SidebarMenu';
import { TopBar } from './TopBar';

/**
 * Layout of every signed-in screen: react-admin's Layout with the console's top bar, sidebar and menu,
 * the error view, the one global dialog (SPEC §2.29) and the viewer's money tools (rates, display
 * currency) available to every screen below it.
 */
export function ShellLayout({ children }: { children: ReactNode }) {
  return (
    <LocaleTheme>
      <MoneyProvider>
        <ModalProvider>
          {/* minWidth 0 lets wide tables scroll inside the content instead of widening the page. */}
          <Layout appBar={TopBar} sidebar={Sidebar} menu={SidebarMenu} error={ErrorView} sx={{ minWidth: 0, '& .RaLayout-appFrame, & .RaLayout-contentWithSidebar, & .RaLayout-content': { minWidth: 0 } }}>
            {children}
          </Layout>
          <GlobalDialog />
          <ProfileWatcher />
          {/* Step-up is asked of a signed-in user only: its dialog loads with the signed-in layout, not the sign-in page. */}
          <StepUpDialog />
        </ModalProvider>
      </MoneyProvider>
    </LocaleTheme>
  );
}
