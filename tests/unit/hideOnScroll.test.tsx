// @vitest-environment jsdom
/**
 * The top bar hides while the page is scrolled down (src/layout/HideOnScroll.tsx), by Material UI's
 * useScrollTrigger rule (down past HIDE_BELOW px, and not while scrolling back up), without reading the
 * scroll position as it mounts: reading it there makes the browser lay the page out mid-drawing.
 */
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HIDE_BELOW, useScrolledDown } from '../../src/layout/HideOnScroll';

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function Probe() {
  return <span>{useScrolledDown() ? 'hidden' : 'shown'}</span>;
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
    let y = 0;
    vi.spyOn(window, 'scrollY', 'get').mockImplementation(() => y);
    render(<Probe />);
    const scrollTo = (to: number) =>
      act(() => {
        y = to;
        window.dispatchEvent(new Event('scroll'));
      });
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
