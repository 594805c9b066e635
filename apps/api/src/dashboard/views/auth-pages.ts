import { html } from './html.js';
import { csrfField, DASHBOARD, fieldAria, notice, page, type Notice } from './layout.js';

export interface SignUpView {
  csrfToken: string;
  notice?: Notice;
  teamName?: string;
  email?: string;
  enabled: boolean;
}

export function signUpPage(view: SignUpView): string {
  const body = view.enabled
    ? html`<form method="post" action="${DASHBOARD}/sign-up" novalidate>
        ${csrfField(view.csrfToken)}
        <div class="field">
          <label for="teamName">Team name</label>
          <input
            type="text"
            id="teamName"
            name="teamName"
            required
            maxlength="200"
            autocomplete="organization"
            value="${view.teamName ?? ''}"
            ${fieldAria(view.notice, 'teamName')}
          />
        </div>
        <div class="field">
          <label for="email">Email</label>
          <input
            type="email"
            id="email"
            name="email"
            required
            maxlength="254"
            autocomplete="email"
            value="${view.email ?? ''}"
            ${fieldAria(view.notice, 'email')}
          />
        </div>
        <div class="field">
          <label for="password">Password</label>
          <input
            type="password"
            id="password"
            name="password"
            required
            minlength="12"
            maxlength="200"
            autocomplete="new-password"
            ${fieldAria(view.notice, 'password', 'password-hint')}
          />
          <p class="hint" id="password-hint">At least 12 characters.</p>
        </div>
        <button type="submit">Create account</button>
      </form>`
    : html`<p>Sign-up is turned off on this service. Ask the operator for an account, or sign in.</p>`;
  return page(
    { title: 'Create account', narrow: true },
    html`<div class="card">
      <h1>Create your account</h1>
      <p class="lead">A team for your portfolio, and API keys to reach it.</p>
      ${notice(view.notice)} ${body}
      <p class="auth-switch">Already have an account? <a href="${DASHBOARD}/sign-in">Sign in</a></p>
    </div>`,
  );
}

export interface SignInView {
  csrfToken: string;
  notice?: Notice;
  email?: string;
  /** Whether sign-up is on (DASHBOARD_SIGNUP): the page offers to create an account only then. */
  signUpEnabled: boolean;
  /** The dashboard page to go back to once signed in (`returnPath`). */
  next?: string;
}

export function signInPage(view: SignInView): string {
  return page(
    { title: 'Sign in', narrow: true },
    html`<div class="card">
      <h1>Sign in</h1>
      <p class="lead">Manage your team's API keys and see how they are used.</p>
      ${notice(view.notice)}
      <form method="post" action="${DASHBOARD}/sign-in" novalidate>
        ${csrfField(view.csrfToken)} ${view.next ? html`<input type="hidden" name="next" value="${view.next}" />` : ''}
        <div class="field">
          <label for="email">Email</label>
          <input
            type="email"
            id="email"
            name="email"
            required
            autocomplete="username"
            value="${view.email ?? ''}"
            ${fieldAria(view.notice, 'email')}
          />
        </div>
        <div class="field">
          <label for="password">Password</label>
          <input
            type="password"
            id="password"
            name="password"
            required
            autocomplete="current-password"
            ${fieldAria(view.notice, 'password')}
          />
        </div>
        <button type="submit">Sign in</button>
      </form>
      ${
        view.signUpEnabled
          ? html`<p class="auth-switch">New here? <a href="${DASHBOARD}/sign-up">Create an account</a></p>`
          : html`<p class="auth-switch">New here? Ask the operator of this service for an account.</p>`
      }
    </div>`,
  );
}
