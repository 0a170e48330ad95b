/**
 * Opt-in checking of response records against the contract. A package's `/validators` entry builds a
 * {@link ResponseValidators} from its compiled record validators; a client given one (`responseValidators`)
 * checks records when `validateResponses` is 'warn' or 'strict'. Nothing here is in a bundle that does not
 * import a `/validators` entry.
 */
import { describeIssues, ResponseValidationError, type ResponseValidation, type Validator } from './validation.js';

/** Checks the records of calls against the contract. */
export interface ResponseValidators {
  /**
   * Checks the records one call returned as `mode` (the client's `validateResponses`) says: not at all when 'off'
   * or absent; when they do not match, a warning (`log(2, message)`) for 'warn', a thrown
   * {@link ResponseValidationError} for 'strict'. `indexed`: the records are a list (paths name the index).
   */
  check(
    entity: string,
    action: string,
    records: unknown[],
    indexed: boolean,
    mode: ResponseValidation | undefined,
    log: (level: number, line: string) => void,
  ): void;
}

/**
 * Response validators over compiled record validators, keyed by `"<entity> <action>"` (the record each call
 * returns); a package's `/validators` entry calls this.
 */
export function createResponseValidators(calls: Readonly<Record<string, Validator>>): ResponseValidators {
  return {
    check(entity, action, list, indexed, mode, log) {
      const key = `${entity} ${action}`;
      const validate = Object.hasOwn(calls, key) ? calls[key] : undefined;
      if (!validate || !mode || mode === 'off') return;
      const problems = list.flatMap((item, i) =>
        validate(item)
          ? []
          : describeIssues(validate.errors ?? [], 'field', item).map((p) =>
              indexed ? { ...p, path: `[${i}]${p.path ? `.${p.path}` : ''}`, message: `record ${i}: ${p.message}` } : p,
            ),
      );
      if (!problems.length) return;
      const error = new ResponseValidationError(entity, action, problems);
      if (mode === 'strict') throw error;
      log(2, error.message);
    },
  };
}
