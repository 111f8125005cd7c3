/**
 * Mail templates (resources/templates): a template is saved only when it renders, with the sample
 * values of its event, as valid Liquid naming only the variables the event offers, and uses what
 * the event requires (a reset mail's link). The words of the refusal say what is wrong and where.
 */
import { eventOf } from '../../resources/templates/events';
import { templateProblem } from '../../resources/templates/render';
import { badRequest, forbidden } from '../errors';
import { registry } from '../registry';
import type { EntityHooks } from './types';

/** Refused to an admin who lacks some access, on a template whose mail carries a sign-in secret. */
export const SECRET_MAIL = 'Only an admin holding every access may change a mail that carries a sign-in link';

export const hooks: EntityHooks = {
  beforeWrite({ caller }, values, before) {
    // A reset link reaches every user: whoever words its mail could send it elsewhere ("open
    // https://…/?{{ reset_link }}"), so only an admin who may change every user changes it.
    // A template made the reset mail's (its serial changed to it) is guarded as the reset mail is.
    const changed = (['from_email', 'subject', 'message', 'serial'] as const).filter((k) => values[k] !== undefined && String(values[k]) !== String(before?.[k] ?? ''));
    const secret = [before?.serial, changed.includes('serial') ? values.serial : undefined].some((serial) => eventOf(serial)?.secret);
    if (changed.length && secret && !registry.assignable.every((token) => caller?.can(token))) throw forbidden(SECRET_MAIL);
    if (values.subject === undefined && values.message === undefined) return values;
    const text = (name: 'subject' | 'message') => String(values[name] ?? before?.[name] ?? '');
    const problem = templateProblem({ subject: text('subject'), message: text('message') }, eventOf(before?.serial ?? values.serial));
    if (problem) throw badRequest(problem);
    return values;
  },
};
