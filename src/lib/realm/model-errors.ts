import { badRequest, type ApiError } from "../../base/errors.js";

/** Django's message for a required text field left empty. */
export const BLANK = "This field cannot be blank.";
/** Where Django files errors that belong to no one field (model clean(), unique_together). */
export const NON_FIELD = "__all__";

/**
 * The errors of a Django full_clean(), in the order Django collects them (each field in model
 * order, then clean(), then the unique checks). Zulip answers them as a ValidationFailureError:
 * the first message as `msg`, all of them by field as `errors`.
 */
export class FieldErrors {
  private readonly byField = new Map<string, string[]>();

  /** Files an error under a field (or NON_FIELD). */
  add(field: string, message: string): void {
    this.byField.set(field, [...(this.byField.get(field) ?? []), message]);
  }

  /** Whether a field already has an error (its unique checks are then skipped). */
  has(field: string): boolean {
    return this.byField.has(field);
  }

  /** Throws Zulip's 400 if any error was filed. */
  throwIfAny(): void {
    const error = this.toError();
    if (error) throw error;
  }

  private toError(): ApiError | undefined {
    const first = [...this.byField.values()][0]?.[0];
    if (first === undefined) return undefined;
    return badRequest(first, { errors: Object.fromEntries(this.byField) });
  }
}
