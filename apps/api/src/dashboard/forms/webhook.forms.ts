import { FormList, FormText } from './form-fields.js';

/** "Add endpoint" and "Save". Whether the URL may receive deliveries is the webhooks service's rule. */
export class EndpointFormFields {
  @FormText('URL', { trim: true })
  url = '';

  @FormText('Description', { trim: true })
  description = '';

  /** None chosen: every event type. */
  @FormList('Event types')
  types: string[] = [];
}
