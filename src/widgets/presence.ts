/**
 * Whether the person is at the console: a key, a pointer, a touch or the wheel within the last
 * AWAY_MS. What the console asks of the server on its own (a poll, a refresh a server event starts)
 * waits while they are away, so a console left open lets its session end after the server's idle
 * time (SESSION_IDLE_MINUTES, ASVS 7.3.1) instead of keeping it alive; it asks again at their first
 * touch.
 */
import { useEffect, useRef, useState } from 'react';
import { useQueryClient, type QueryKey } from '@tanstack/react-query';

/** Without a touch for this long, the person is away. */
export const AWAY_MS = 5 * 60_000;
/** How often a mounted usePresent looks at the time. */
const CHECK_MS = 15_000;
const EVENTS = ['pointerdown', 'pointermove', 'keydown', 'wheel', 'touchstart'] as const;

let last = Date.now();
const returns = new Set<() => void>();
let watching = false;

export const isPresent = (now = Date.now()) => now - last <= AWAY_MS;

function watch() {
  if (watching || typeof window === 'undefined') return;
  watching = true;
  const seen = () => {
    const wasAway = !isPresent();
    last = Date.now();
    if (wasAway) for (const back of returns) back();
  };
  for (const name of EVENTS) window.addEventListener(name, seen, { passive: true, capture: true });
}

/** Whether the person is at the console, as state: false once AWAY_MS pass without a touch, true at the next. */
export function usePresent(): boolean {
  const [present, setPresent] = useState(() => isPresent());
  useEffect(() => {
    watch();
    const update = () => setPresent(isPresent());
    returns.add(update);
    const timer = setInterval(update, CHECK_MS);
    return () => {
      returns.delete(update);
      clearInterval(timer);
    };
  }, []);
  return present;
}

/**
 * A query's poll while the person is present (its key a constant of the caller's, as react-query keys are): the interval to give react-query (false while away),
 * and the query asked again at once when they come back.
 */
export function usePresentPoll(queryKey: QueryKey, every: number): number | false {
  const present = usePresent();
  const queryClient = useQueryClient();
  const wasPresent = useRef(present);
  useEffect(() => {
    if (present && !wasPresent.current) void queryClient.invalidateQueries({ queryKey });
    wasPresent.current = present;
  }, [present, queryClient, queryKey]);
  return present ? every : false;
}

/** How a refresh the console did not ask for (a server event) is done: only marked stale while the person is away. */
export const refreshType = () => (isPresent() ? 'active' : 'none') as 'active' | 'none';
