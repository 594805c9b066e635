/** Every non-2xx response body. */
export class ErrorBody {
  /**
   * What went wrong, in words; validation problems name the field and the rule, joined with `; `.
   * @example "companyName must be shorter than or equal to 260 characters"
   */
  error!: string;
}
