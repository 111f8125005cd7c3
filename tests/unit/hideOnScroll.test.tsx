// @vitest-environment jsdom
/**
 * The top bar hides while the page is scrolled down (src/layout/HideOnScroll.tsx), by Material UI's
 * useScrollTrigger rule (down past HIDE_BELOW px, and not while scrolling back up), without reading the
 * scroll position as it mounts: reading it there makes the browser lay the page out mid-drawing. The
 * docked sidebar (src/layout/Sidebar.tsx) moves up with the bar by the same rule.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { AdminContext, testDataProvider } from 'react-admin';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18nProvider } from '../../i18n';
import { HIDE_BELOW, useScrolledDown } from '../../src/layout/HideOnScroll';
import { Sidebar } from '../../src/layout/Sidebar';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function Probe() {
  return <span>{useScrolledDown() ? 'hidden' : 'shown'}</span>;
}

/** Scrolls the (mocked) window to `to` and tells the listeners. */
function scroller() {
  let y = 0;
  vi.spyOn(window, 'scrollY', 'get').mockImplementation(() => y);
  return (to: number) =>
    act(() => {
      y = to;
      window.dispatchEvent(new Event('scroll'));
    });
}

describe('the top bar on scroll', () => {
  it('reads no scroll position as it mounts', () => {
    const scrollY = vi.spyOn(window, 'scrollY', 'get').mockReturnValue(0);
    const pageYOffset = vi.spyOn(window, 'pageYOffset', 'get').mockReturnValue(0);
    render(<Probe />);
    expect(screen.getByText('shown')).toBeTruthy();
    expect(scrollY).not.toHaveBeenCalled();
    expect(pageYOffset).not.toHaveBeenCalled();
  });

  it('hides past the threshold going down, and shows again as soon as the page goes up', () => {
    const scrollTo = scroller();
    render(<Probe />);
    const steps: [number, string][] = [
      [HIDE_BELOW, 'shown'],
      [HIDE_BELOW + 1, 'hidden'],
      [600, 'hidden'],
      [599, 'shown'],
      [900, 'hidden'],
      [900, 'hidden'],
      [40, 'shown'],
      [HIDE_BELOW + 1, 'hidden'],
    ];
    for (const [to, state] of steps) {
      scrollTo(to);
      expect({ to, state: screen.getByText(/hidden|shown/).textContent }).toEqual({ to, state });
    }
  });

  it('stops listening once gone', () => {
    const removed = vi.spyOn(window, 'removeEventListener');
    render(<Probe />).unmount();
    expect(removed).toHaveBeenCalledWith('scroll', expect.any(Function));
  });
});

describe('the docked sidebar on scroll', () => {
  // jsdom has no media queries: the sidebar is drawn docked, as from the `sm` breakpoint up.
  const renderSidebar = (appBarAlwaysOn?: boolean) =>
    render(
      <AdminContext dataProvider={testDataProvider()} i18nProvider={i18nProvider}>
        <Sidebar appBarAlwaysOn={appBarAlwaysOn}>
          <nav>menu</nav>
        </Sidebar>
      </AdminContext>,
    ).container.querySelector('.MuiDrawer-root')!;
  const collapsed = (root: Element) => root.classList.contains('RaSidebar-appBarCollapsed');

  it('reads no scroll position as it mounts', () => {
    const scrollY = vi.spyOn(window, 'scrollY', 'get').mockReturnValue(0);
    const pageYOffset = vi.spyOn(window, 'pageYOffset', 'get').mockReturnValue(0);
    const root = renderSidebar();
    expect(screen.getByText('menu')).toBeTruthy();
    expect(collapsed(root)).toBe(false);
    expect(scrollY).not.toHaveBeenCalled();
    expect(pageYOffset).not.toHaveBeenCalled();
  });

  it('moves up with the top bar past the threshold, and down again as the page goes up', () => {
    const scrollTo = scroller();
    const root = renderSidebar();
    const steps: [number, boolean][] = [
      [HIDE_BELOW, false],
      [HIDE_BELOW + 1, true],
      [500, true],
      [499, false],
    ];
    for (const [to, state] of steps) {
      scrollTo(to);
      expect({ to, collapsed: collapsed(root) }).toEqual({ to, collapsed: state });
    }
  });

  it('stays put when the top bar is always on', () => {
    const scrollTo = scroller();
    const root = renderSidebar(true);
    scrollTo(600);
    expect(collapsed(root)).toBe(false);
  });
});
