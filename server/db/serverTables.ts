/** The server's own tables, beside the contract's entities: sessions, second factors, the outbox, the ledger... */
import { LEDGER_TABLES } from '../ledger/tables';
import type { TableSpec } from './schema';

/** Tables the server keeps beside the contract's entities. */
export const SERVER_TABLES: TableSpec[] = [
  {
    name: 'sessions',
    // parent_id: the session a chat-events ticket was bought with (the stream lives as long as it does);
    // second_factor_at: when (ms) a second factor was last presented in this session (step-up).
    columns: { token_hash: 'varchar(64)', user_id: 'integer', expires_at: 'varchar(32)', created_at: 'varchar(32)', parent_id: 'integer', second_factor_at: 'bigint' },
    indexes: [['user_id'], ['expires_at']],
    unique: [['token_hash']],
  },
  {
    name: 'password_resets',
    columns: {
      token_hash: 'varchar(64)', user_id: 'integer', expires_at: 'varchar(32)', used_at: 'varchar(32)',
      created_at: 'varchar(32)',
    },
    indexes: [['user_id'], ['expires_at']],
    unique: [['token_hash']],
  },
  {
    // Each stored file and its owner: images by tag and index (1-4), documents by tag; an image's
    // thumbnail; when a record first named it (unattached files are swept after a grace period).
    name: 'uploads',
    columns: {
      kind: 'varchar(8)', tag: 'varchar(128)', idx: 'integer', owner_id: 'integer', shop_id: 'integer',
      file_name: 'varchar(160)', content_type: 'varchar(100)', size: 'integer', uploaded_by: 'integer',
      created_at: 'varchar(32)', thumb_name: 'varchar(160)', thumb_size: 'integer', attached_at: 'varchar(32)',
    },
    indexes: [['file_name'], ['owner_id'], ['attached_at', 'created_at']],
    unique: [['kind', 'tag', 'idx']],
  },
  {
    // The access tokens the database has seen (server/accessTokens.ts): a new one reaches full admins.
    name: 'access_tokens',
    columns: { token: 'varchar(64)', created_at: 'varchar(32)' },
    indexes: [],
    unique: [['token']],
  },
  {
    // A user's authenticator (TOTP) secret, sealed with MFA_KEY; confirmed_at is null while being set
    // up; last_step: the time step of the last code accepted (no code works twice).
    name: 'second_factors',
    columns: { user_id: 'integer', kind: 'varchar(16)', secret: 'text', confirmed_at: 'varchar(32)', last_step: 'bigint', created_at: 'varchar(32)' },
    indexes: [],
    unique: [['user_id', 'kind']],
  },
  {
    // Single-use recovery codes, as SHA-256 hashes (each code holds 120 random bits).
    name: 'recovery_codes',
    columns: { user_id: 'integer', code_hash: 'varchar(64)', used_at: 'varchar(32)', created_at: 'varchar(32)' },
    indexes: [['user_id']],
    unique: [['code_hash']],
  },
  {
    // WebAuthn credentials (passkeys): several per user, named.
    name: 'passkeys',
    columns: {
      user_id: 'integer', credential_id: 'varchar(1024)', public_key: 'text', counter: 'bigint', transports: 'varchar(255)',
      name: 'varchar(64)', created_at: 'varchar(32)', last_used_at: 'varchar(32)',
    },
    indexes: [['user_id']],
    unique: [['credential_id']],
  },
  {
    // WebAuthn challenges handed out and not yet answered: single use, short-lived (ms).
    name: 'webauthn_challenges',
    columns: { challenge: 'varchar(128)', user_id: 'integer', purpose: 'varchar(16)', expires_at: 'bigint' },
    indexes: [['expires_at']],
    unique: [['challenge']],
  },
  {
    name: 'rate_limits',
    columns: { key: 'varchar(160)', window_start: 'bigint', hits: 'integer' },
    indexes: [['window_start']],
    unique: [['key']],
  },
  {
    // Mails written with the events that cause them, delivered by server/mail.ts's worker: state
    // 'waiting' (null in rows of before), 'sent' or 'failed'; a worker holds a row while it sends
    // it (lease_until, leased_by). A mail holding a reset link keeps the link's hash and expiry: the
    // row goes once the link is delivered, used, ended or expired (see auth.ts's forgetResetLinks
    // and maintenance.ts); a private mail (`private`) goes once delivered too.
    name: 'mail_outbox',
    columns: {
      to_email: 'varchar(255)', subject: 'varchar(255)', body: 'text', created_at: 'varchar(32)', link_hash: 'varchar(64)', expires_at: 'varchar(32)',
      from_email: 'varchar(255)', html: 'text', serial: 'varchar(64)', private: 'integer', state: 'varchar(16)', attempts: 'integer',
      next_attempt_at: 'varchar(32)', lease_until: 'varchar(32)', leased_by: 'varchar(64)', last_error: 'text', sent_at: 'varchar(32)',
      updated_at: 'varchar(32)',
    },
    indexes: [['to_email'], ['link_hash'], ['expires_at'], ['state', 'next_attempt_at'], ['state', 'sent_at']],
  },
  // The marketplace's money: journal entries, postings, maintained balances, earnings and refunds.
  ...LEDGER_TABLES,
];
