/**
 * Mail templates (resources/templates): a template is saved only when it renders, with the sample
 * values of its event, as valid Liquid naming only the variables the event offers, and uses what
 * the event requires (a reset mail's link). The words of the refusal say what is wrong and where.
 */
import { eventOf } from '../../resources/templates/events';
import { templateProblem } from '../../resources/templates/render';
import { badRequest } from '../errors';
import type { EntityHooks } from './types';

export const hooks: EntityHooks = {
  beforeWrite(_ctx, values, before) {
    if (values.subject === undefined && values.message === undefined) return values;
    const text = (name: 'subject' | 'message') => String(values[name] ?? before?.[name] ?? '');
    const problem = templateProblem({ subject: text('subject'), message: text('message') }, eventOf(before?.serial ?? values.serial));
    if (problem) throw badRequest(problem);
    return values;
  },
};
