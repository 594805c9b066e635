import type { ValidationError } from 'class-validator';

/**
 * Flattens class-validator's tree into one line per rule, each naming the field by its full path
 * (`certifications.0.type should not be empty`).
 */
export function describeValidationErrors(errors: ValidationError[], parentPath = ''): string[] {
  return errors.flatMap((error) => {
    const path = parentPath ? `${parentPath}.${error.property}` : error.property;
    // Left out although required (an optional field is not validated when left out): that is the rule it broke,
    // not each rule a value would have to meet ("title must be a string", "unitId must be a UUID").
    // (class-validator sets `value`, undefined included, when asked to: `validationError.value`.)
    // (Not a refusal of the property itself, an unknown one or an unvalidated object: those keep their words.)
    const rules = Object.keys(error.constraints ?? {});
    const aboutTheValue = !rules.includes('whitelistValidation') && !rules.includes('unknownValue');
    if (error.property && 'value' in error && error.value === undefined && rules.length > 0 && aboutTheValue) {
      return [`${path} is required`];
    }
    const own = Object.values(error.constraints ?? {}).map((message) => {
      if (message.startsWith(`property ${error.property} `)) {
        return `property ${path}${message.slice(`property ${error.property}`.length)}`;
      }
      // `insurance.0 must be an object`: a rule about one item of the list names the item.
      if (message.startsWith(`${error.property} `) || message.startsWith(`${error.property}.`)) {
        return `${path}${message.slice(error.property.length)}`;
      }
      if (message.startsWith(`each value in ${error.property} `)) {
        return `each value in ${path}${message.slice(`each value in ${error.property}`.length)}`;
      }
      return `${path}: ${message}`;
    });
    return [...own, ...describeValidationErrors(error.children ?? [], path)];
  });
}

/** How an unknown query parameter is refused, wherever it is caught (the guard, the trim pass, the DTO). */
export function unknownQueryParameter(name: string): string {
  return `query parameter ${name} is not allowed`;
}

const UNKNOWN_PROPERTY = /^property (.+) should not exist$/;

/** A query's problems in query words: class-validator's "property foo should not exist" names a body property. */
export function inQueryWords(line: string): string {
  const unknown = UNKNOWN_PROPERTY.exec(line);
  return unknown ? unknownQueryParameter(unknown[1]) : line;
}
