/**
 * Mail delivery: SMTP through nodemailer when SMTP_URL is set (from MAIL_FROM); otherwise the
 * outbox table keeps every mail (and demo mode prints it). Delivery never holds up an answer.
 */
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  body: string;
}

/** A sender for the server's mails: SMTP when configured. */
export function smtpSender(url: string, from: string, onError: (error: unknown) => void): (mail: Mail) => void {
  const transport = nodemailer.createTransport(url);
  return (mail) => {
    transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.body }).catch(onError);
  };
}
