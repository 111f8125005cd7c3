/**
 * Mail delivery: SMTP through nodemailer when SMTP_URL is set (from MAIL_FROM); otherwise the
 * outbox table keeps every mail (and demo mode prints it). Delivery never holds up an answer. A
 * mail holding a reset link leaves the outbox once delivered, or once the link is used, ended or
 * expired.
 */
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  body: string;
  /** Called once the mail is delivered (the outbox then forgets what it need not keep). */
  sent?: () => Promise<void>;
}

/** A sender for the server's mails: SMTP when configured. */
export function smtpSender(url: string, from: string, onError: (error: unknown) => void): (mail: Mail) => void {
  const transport = nodemailer.createTransport(url);
  return (mail) => {
    transport
      .sendMail({ from, to: mail.to, subject: mail.subject, text: mail.body })
      .then(() => mail.sent?.())
      .catch(onError);
  };
}
