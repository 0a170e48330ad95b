/**
 * Opt-in checking of response records against the contract. A package's `/validators` entry builds a
 * {@link ResponseValidators} from its compiled record validators; a client given one (`responseValidators`)
 * checks records when `validateResponses` is 'warn' or 'strict'. Nothing here is in a bundle that does not
 * import a `/validators` entry.
 */
import { describeIssues, ResponseValidationError, type Validator } from './validation.js';

/** Checks the records of one call; returns the error to throw or log, or undefined when they match. */
export interface ResponseValidators {
  check(entity: string, action: string, records: unknown[], indexed: boolean): ResponseValidationError | undefined;
}

/**
 * Response validators over compiled record validators, keyed by `"<entity> <action>"` (the record each call
 * returns); a package's `/validators` entry calls this.
 */
export function createResponseValidators(calls: Readonly<Record<string, Validator>>): ResponseValidators {
  return {
    check(entity, action, list, indexed) {
      const key = `${entity} ${action}`;
      const validate = Object.hasOwn(calls, key) ? calls[key] : undefined;
      if (!validate) return undefined;
      const problems = list.flatMap((item, i) =>
        validate(item)
          ? []
          : describeIssues(validate.errors ?? [], 'field', item).map((p) =>
              indexed ? { ...p, path: `[${i}]${p.path ? `.${p.path}` : ''}`, message: `record ${i}: ${p.message}` } : p,
            ),
      );
      return problems.length ? new ResponseValidationError(entity, action, problems) : undefined;
    },
  };
}
