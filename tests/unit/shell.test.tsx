// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AdminContext, Notification, TestMemoryRouter, testDataProvider } from 'react-admin';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MarketplaceAuthProvider } from '../../authProvider';
import { i18nProvider } from '../../i18n';
import { ConfigContext, DEFAULT_CONFIG } from '../../src/config';
import { ErrorView } from '../../src/layout';
import { NotFound } from '../../src/layout/NotFound';
import RegisterPage from '../../src/pages/RegisterPage';

afterEach(cleanup);

function stubAuthProvider() {
  return {
    login: vi.fn(async () => undefined),
    logout: vi.fn(async () => '/login'),
    checkAuth: vi.fn(async () => {
      throw new Error('ra.auth.auth_check_error');
    }),
    checkError: vi.fn(async () => undefined),
    getIdentity: vi.fn(async () => {
      throw new Error('Not signed in');
    }),
    getPermissions: vi.fn(async () => ({ role: 'buyer' as const, granted: [] })),
    canAccess: vi.fn(async () => false),
    register: vi.fn(async () => ({})),
    requestReset: vi.fn(async () => ''),
    resetPassword: vi.fn(async () => ''),
  } satisfies MarketplaceAuthProvider;
}

let auth: ReturnType<typeof stubAuthProvider>;

function renderRegister() {
  render(
    <TestMemoryRouter initialEntries={['/register']}>
      <ConfigContext.Provider value={{ ...DEFAULT_CONFIG, apiUrl: '/api', termsUrl: '/terms.html' }}>
        <AdminContext authProvider={auth} dataProvider={testDataProvider()} i18nProvider={i18nProvider}>
          <RegisterPage />
          <Notification />
        </AdminContext>
      </ConfigContext.Provider>
    </TestMemoryRouter>,
  );
}

function fill(label: RegExp, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

function fillForm(password: string) {
  fill(/^Full Name/, 'Ada Lovelace');
  fill(/^Email address/, 'ada@example.com');
  fill(/^Phone Number/, '+447700900123');
  fill(/^Password/, password);
}

describe('register page (SPEC §2.3, §5)', () => {
  beforeEach(() => {
    localStorage.clear();
    auth = stubAuthProvider();
  });

  it('shows the spec fields, the phone prefilled with +', async () => {
    renderRegister();
    expect(await screen.findByRole('heading', { name: 'Create an account' })).toBeInTheDocument();
    expect(screen.getByLabelText(/^Email address/)).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText(/^Phone Number/)).toHaveAttribute('type', 'tel');
    expect(screen.getByLabelText(/^Phone Number/)).toHaveValue('+');
    for (const label of ['Full Name', 'Email address', 'Phone Number', 'Password']) {
      expect(screen.getByLabelText(label)).toHaveAttribute('aria-required', 'true');
    }
    expect(screen.getByRole('link', { name: 'Terms and Conditions' })).toHaveAttribute('href', '/terms.html');
    expect(screen.getByRole('link', { name: 'Terms and Conditions' })).toHaveAttribute('target', '_blank');
    fireEvent.click(screen.getByLabelText('Show Password'));
    expect(screen.getByLabelText(/^Password/)).toHaveAttribute('type', 'text');
  });

  it('refuses a password of 7 characters with the spec message and sends nothing', async () => {
    renderRegister();
    fillForm('Qz7kLm2');
    fireEvent.click(screen.getByRole('checkbox', { name: /Terms and Conditions/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('Your password must be minimum 8 digits')).toBeInTheDocument();
    expect(auth.register).not.toHaveBeenCalled();
  });

  it('sends a password of exactly 8 characters', async () => {
    renderRegister();
    fillForm('Qz7kLm2x');
    fireEvent.click(screen.getByRole('checkbox', { name: /Terms and Conditions/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(auth.register).toHaveBeenCalledWith(expect.objectContaining({ password: 'Qz7kLm2x' })));
    expect(screen.queryByText('Your password must be minimum 8 digits')).toBeNull();
  });

  it('outlines the terms link in red when the box is not ticked and sends nothing; ticked, it registers', async () => {
    renderRegister();
    fillForm('long-enough-1');
    const link = screen.getByRole('link', { name: 'Terms and Conditions' });
    expect(link.style.outline).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() => expect(link.style.outline).toMatch(/^2px solid/));
    expect(link).toHaveAttribute('data-invalid', 'true');
    expect(auth.register).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('checkbox', { name: /Terms and Conditions/ }));
    expect(link.style.outline).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Register' }));
    await waitFor(() =>
      expect(auth.register).toHaveBeenCalledWith({
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        phone: '+447700900123',
        password: 'long-enough-1',
      }),
    );
  });
});

describe('not-found page and error view (SPEC §2.7)', () => {
  it('show the spec words', () => {
    render(
      <TestMemoryRouter>
        <AdminContext dataProvider={testDataProvider()} i18nProvider={i18nProvider}>
          <NotFound />
          <ErrorView />
        </AdminContext>
      </TestMemoryRouter>,
    );
    expect(screen.getByRole('heading', { name: '404!' })).toBeInTheDocument();
    expect(screen.getByText('The page is not found')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('An Error occurred');
  });
});
