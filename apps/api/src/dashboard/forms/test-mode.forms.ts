import { SECTIONS, type Section } from '../views/layout.js';
import { FormChoice } from './form-fields.js';

/** The header's "Test mode" switch: the mode to turn to, and the section to show afterwards. */
export class TestModeForm {
  @FormChoice(['on', 'off'], 'Choose Test mode on or off.')
  testMode: 'on' | 'off' | '' = '';

  @FormChoice(SECTIONS, 'Choose a page of the dashboard.')
  back: Section | '' = '';
}

/** "Reset sandbox" (`sampleData=no`) and "Load sample data" (`yes`). */
export class SandboxResetForm {
  @FormChoice(['yes', 'no'], 'Choose whether to load the sample data.')
  sampleData: 'yes' | 'no' | '' = '';
}
