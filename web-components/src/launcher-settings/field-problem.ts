/** How a field of the Settings page shows its validation message, the same for every field. */
import { html, nothing, type TemplateResult } from 'lit';

/** The bindings of a field and its message: the field points at the message while there is one. */
export interface FieldProblem {
  /** The field's `aria-invalid`. */
  readonly invalid: 'true' | 'false';
  /** The field's `aria-describedby`: the message's id while there is one. */
  readonly describedBy: string | typeof nothing;
  /** The message (`role="alert"`, its id also its part), or nothing. */
  readonly message: TemplateResult | typeof nothing;
}

/**
 * The bindings for a field whose validation message is `problem` (none when empty): `id` names
 * the message paragraph both as id, which the field's `aria-describedby` refers to, and as part.
 */
export function fieldProblem(id: string, problem: string | null | undefined): FieldProblem {
  if (!problem) return { invalid: 'false', describedBy: nothing, message: nothing };
  return { invalid: 'true', describedBy: id, message: html`<p class="problem" id=${id} part=${id} role="alert">${problem}</p>` };
}
