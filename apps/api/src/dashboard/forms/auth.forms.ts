import { FormText } from './form-fields.js';

// The rules of the values themselves (a valid email, the password policy, lengths) are the accounts service's:
// the CLI creates people through it too. The forms only make sure each field is one piece of text.

/** "Create account". */
export class SignUpForm {
  @FormText('Team name')
  teamName = '';

  @FormText('Email')
  email = '';

  @FormText('Password')
  password = '';
}

/** "Sign in". */
export class SignInForm {
  @FormText('Email')
  email = '';

  @FormText('Password')
  password = '';

  /** The page to go back to once signed in (hidden; `returnPath` decides whether it is one). */
  @FormText('The page to return to')
  next = '';
}
