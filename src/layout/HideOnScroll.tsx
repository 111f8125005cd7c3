import { useEffect, useState, type ReactElement } from 'react';
import { Slide } from '@mui/material';

/** How far down (px) the page must be scrolled before the top bar hides. */
export const HIDE_BELOW = 100;

/**
 * Whether the page is scrolled down past HIDE_BELOW and not being scrolled back up: the rule of
 * Material UI's useScrollTrigger, which react-admin's app bar hides by. That hook also reads the
 * scroll position as it mounts, and reading it there makes the browser lay the page out in the
 * middle of drawing the signed-in layout (a fifth of that task on a phone); the page has not been
 * scrolled yet then, so this reads it on scroll events only.
 */
export function useScrolledDown(): boolean {
  const [down, setDown] = useState(false);
  useEffect(() => {
    let previous: number | undefined;
    const onScroll = () => {
      const current = window.scrollY;
      setDown(previous !== undefined && current < previous ? false : current > HIDE_BELOW);
      previous = current;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  return down;
}

/** The top bar's container (react-admin's AppBar `container`): it slides away while the page is scrolled down. */
export function HideOnScroll({ children, className }: { children: ReactElement; className?: string }) {
  const down = useScrolledDown();
  return (
    <Slide appear={false} direction="down" in={!down} className={className}>
      {children}
    </Slide>
  );
}
