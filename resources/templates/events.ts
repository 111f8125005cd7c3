/**
 * The events the marketplace mails about, one entry each: the template seeded for it (found again by
 * its serial, editable on the Mail templates screen) and the variables it offers, each with the
 * sample value of previews and test mails. Adding an event is one entry here, then a call of the
 * server's `queueMail(trx, 'SERIAL', to, values)` in the transaction of the event.
 * Read by the server (seeding, sending) and by the console (the variables listed, the preview).
 */

export interface MailEvent {
  /** The template as first seeded; also used when the stored one cannot serve (see `requires`). */
  template: { from_email: string; subject: string; message: string };
  /** Every variable the event offers, with a sample value. */
  variables: Readonly<Record<string, string | number>>;
  /** Variables the message must use: a template without them is refused, and the seeded text is sent instead. */
  requires?: readonly string[];
  /** Personal data that outlives its need: the outbox deletes the mail once it is delivered. */
  forget?: boolean;
  /**
   * A sign-in secret travels in it (a reset link) to any user, the fullest admins included: only an
   * admin holding every access changes its words, as only they may change every user.
   */
  secret?: boolean;
}

const SITE = 'https://marketplace.example.com';

export const MAIL_EVENTS = {
  WELCOME: {
    template: {
      from_email: 'hello@example.com',
      subject: 'Welcome to the marketplace, {{ name }}',
      message: 'Hello {{ name }},\n\nYour account ({{ email }}) is ready. Sign in at {{ site_url }} to start.\n\nThe Marketplace team',
    },
    variables: { name: 'Bea Buyer', email: 'buyer@example.com', site_url: SITE },
  },
  RESET: {
    template: {
      from_email: 'security@example.com',
      subject: 'Reset your password',
      message:
        'Hello {{ name }},\n\nOpen this link within one hour to choose a new password:\n{{ reset_link }}\n\nIf you did not ask for this, ignore this mail.',
    },
    variables: { name: 'Bea Buyer', reset_link: `${SITE}/forgot-password?token=sample-token` },
    requires: ['reset_link'],
    forget: true,
    secret: true,
  },
  ORDER_PLACED: {
    template: {
      from_email: 'orders@example.com',
      subject: 'We received your order {{ reference }}',
      message:
        'Hello {{ name }},\n\nThank you for your order {{ reference }} from {{ shop_name }}: {{ number_of_items }} item(s), {{ total }}.\nWe will write again when its status changes.\n\nThe Marketplace team',
    },
    variables: { name: 'Bea Buyer', reference: 'MP-0A1B2C3D4E', shop_name: 'Acme Outfitters', number_of_items: 2, total: 'GBP 42.50' },
  },
  ORDER_RECEIVED: {
    template: {
      from_email: 'orders@example.com',
      subject: 'New order {{ reference }} for {{ shop_name }}',
      message:
        'Hello {{ name }},\n\n{{ shop_name }} has a new order, {{ reference }}: {{ number_of_items }} item(s), {{ total }}.\nConfirm it on My Orders.\n\nThe Marketplace team',
    },
    variables: { name: 'Sam Seller', shop_name: 'Acme Outfitters', reference: 'MP-0A1B2C3D4E', number_of_items: 2, total: 'GBP 42.50' },
  },
  ORDER_STATUS: {
    template: {
      from_email: 'orders@example.com',
      subject: 'Your order {{ reference }}: {{ status }}',
      message: 'Hello {{ name }},\n\nYour order {{ reference }} from {{ shop_name }} is now: {{ status }} (it was: {{ previous_status }}).\n\nThe Marketplace team',
    },
    variables: { name: 'Bea Buyer', reference: 'MP-0A1B2C3D4E', shop_name: 'Acme Outfitters', status: 'Order Shipped', previous_status: 'Order Confirmed' },
  },
  SUBSCRIPTION_ACTIVE: {
    template: {
      from_email: 'sellers@example.com',
      subject: 'Your {{ package }} package is active',
      message: 'Hello {{ name }},\n\nThe {{ package }} package of {{ shop_name }} is active from {{ start_date }} to {{ end_date }}.\n\nThe Marketplace team',
    },
    variables: { name: 'Sam Seller', shop_name: 'Acme Outfitters', package: 'premier listing', start_date: '2026-11-01', end_date: '2026-12-01' },
  },
  DELETION_SETTLED: {
    template: {
      from_email: 'privacy@example.com',
      subject: 'Your account deletion request',
      message:
        'Hello {{ name }},\n\n{% if status == "Deleted" %}Your account has been deleted, with its personal data.{% else %}Your request was not carried out ({{ status }}). Write to support if you have questions.{% endif %}\n\nThe Marketplace team',
    },
    variables: { name: 'Bea Buyer', status: 'Deleted' },
    forget: true,
  },
  REFUND_ISSUED: {
    template: {
      from_email: 'orders@example.com',
      subject: 'A refund on your order {{ reference }}',
      message: 'Hello {{ name }},\n\n{{ shop_name }} refunded {{ amount }} on your order {{ reference }} ({{ reason }}).\n\nThe Marketplace team',
    },
    variables: { name: 'Bea Buyer', reference: 'MP-0A1B2C3D4E', shop_name: 'Acme Outfitters', amount: 'GBP 12.50', reason: 'Broken in transit' },
  },
  PAYOUT_SENT: {
    template: {
      from_email: 'sellers@example.com',
      subject: 'A payout of {{ amount }} to {{ shop_name }}',
      message: 'Hello {{ name }},\n\nA payout of {{ amount }} to {{ shop_name }} is on its way (payout {{ payout_id }}).\n\nThe Marketplace team',
    },
    variables: { name: 'Sam Seller', shop_name: 'Acme Outfitters', amount: 'GBP 120.00', payout_id: 42 },
  },
} as const satisfies Record<string, MailEvent>;

export type MailSerial = keyof typeof MAIL_EVENTS;
/** The values an event's mail is written with: every variable it offers. */
export type MailValues<S extends MailSerial> = Record<keyof (typeof MAIL_EVENTS)[S]['variables'], string | number>;

/** The event a template serves, by its serial; undefined for a template of no event. */
export const eventOf = (serial: unknown): MailEvent | undefined =>
  typeof serial === 'string' && Object.hasOwn(MAIL_EVENTS, serial) ? MAIL_EVENTS[serial as MailSerial] : undefined;
