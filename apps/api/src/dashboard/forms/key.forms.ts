import type { KeyAccess } from '@app/common';
import { GRACE_PERIODS } from '../views/pages.js';
import { FormChoice, FormDay, FormText } from './form-fields.js';

/** "Create key". Whether the expiry lies in the future is the handler's question (it has the clock). */
export class CreateKeyForm {
  @FormText('Name', { trim: true, required: true, max: 100 })
  name = '';

  @FormChoice(['read_write', 'read_only'], 'Choose the access: Read and write or Read only.')
  access: KeyAccess | '' = '';

  @FormDay('Expires', '2027-01-31')
  expires = '';
}

/** "Roll key": how long the old key keeps working. */
export class RollKeyForm {
  @FormChoice(GRACE_PERIODS.map((period) => period.value), 'Choose how long the old key keeps working.')
  grace = '';
}
