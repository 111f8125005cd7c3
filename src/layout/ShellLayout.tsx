import type { ReactNode } from 'react';
import { Layout } from 'react-admin';
import { GlobalDialog, ModalProvider } from '../dialog';
import { ErrorView } from './ErrorView';
import { SidebarMenu } from './SidebarMenu';
import { TopBar } from './TopBar';

/**
 * Layout of every signed-in screen: react-admin's Layout with the console's top bar and sidebar,
 * the error view, and the one global dialog (SPEC §2.29) available to every screen below it.
 */
export function ShellLayout({ children }: { children: ReactNode }) {
  return (
    <ModalProvider>
      <Layout appBar={TopBar} menu={SidebarMenu} error={ErrorView}>
        {children}
      </Layout>
      <GlobalDialog />
    </ModalProvider>
  );
}
