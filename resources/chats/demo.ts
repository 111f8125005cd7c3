/**
 * The demo chats: a visitor waiting for an answer, and a chat an admin has already answered, longer
 * than the six messages a chat opens with.
 */
import type { DemoBuilder } from '../../contract';

/** The answered chat's messages: [from the visitor, text]. */
const LINES: [0 | 1, string][] = [
  [1, 'Hi, I ordered a blue dress last week.'],
  [0, 'Hello Ngozi, thanks for writing. What is the order number?'],
  [1, 'It is TRK1007.'],
  [0, 'Thank you. I can see it: it left the warehouse yesterday.'],
  [1, 'Great. When will it arrive in Lagos?'],
  [0, 'DHL expects to deliver it within three days.'],
  [1, 'Can I change the delivery address?'],
  [0, 'Yes: reply with the new address and I will pass it on.'],
];

const build: DemoBuilder = () => [
  {
    admin_online: 0, admin_name: null, received_time: null, user_name: 'Visitor', user_email: 'visitor@example.com',
    user_ip_address: '127.0.0.1', chats: [{ sent: 1, recieved: 0, message: 'Hello, is anyone there?' }], is_active: 1,
  },
  {
    admin_online: 1, admin_name: 'Ada Admin', received_time: '09:15-21/11/2026', user_name: 'Ngozi Eze', user_email: 'ngozi@example.com',
    user_ip_address: '102.89.0.1', is_active: 1,
    chats: LINES.map(([visitor, message]) => ({ sent: visitor, recieved: visitor ? 0 : 1, message })),
  },
];
export default build;
