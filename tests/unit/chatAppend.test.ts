import { describe, expect, it } from 'vitest';
import { appendMessages, isUnread, messagesOf, visitorCount, type ChatMessage } from '../../contract';

const v = (message: string): ChatMessage => ({ sent: 1, recieved: 0, message });
const a = (message: string): ChatMessage => ({ sent: 0, recieved: 1, message });

describe('appendMessages (a chat save appends, never rewrites)', () => {
  it("adds the sender's new messages after the stored conversation", () => {
    expect(appendMessages([v('hi')], [v('hi'), a('hello')], 'admin')).toEqual([v('hi'), a('hello')]);
    expect(appendMessages([v('hi'), a('hello')], [v('hi'), a('hello'), v('thanks')], 'visitor')).toEqual([v('hi'), a('hello'), v('thanks')]);
  });

  it("keeps the other side's message written meanwhile", () => {
    // The admin answers from a copy that lacks the visitor's second message.
    expect(appendMessages([v('hi'), v('still there?')], [v('hi'), a('yes')], 'admin')).toEqual([v('hi'), v('still there?'), a('yes')]);
  });

  it("never takes the other side's words, a rewrite or an erasure from a sender", () => {
    expect(appendMessages([v('hi'), a('hello')], [a('I am the admin'), v('changed'), v('new')], 'visitor')).toEqual([v('hi'), a('hello'), v('new')]);
    expect(appendMessages([v('hi'), a('hello')], [], 'admin')).toEqual([v('hi'), a('hello')]);
  });

  it('trims added messages and drops empty ones', () => {
    expect(appendMessages([], [v(' x '), v('   ')], 'visitor')).toEqual([v('x')]);
  });
});

describe('unread', () => {
  it('counts a chat no admin joined, or with visitor messages not seen', () => {
    const messages = messagesOf(JSON.stringify([v('a'), a('b'), v('c')]));
    expect(visitorCount(messages)).toBe(2);
    expect(isUnread({ admin_online: 0 }, 2, 2)).toBe(true);
    expect(isUnread({ admin_online: 1 }, 2, 1)).toBe(true);
    expect(isUnread({ admin_online: 1 }, 2, 2)).toBe(false);
  });
});
