import type { Context } from 'koa';

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

/** What the verification page shows. Every string is escaped when rendered. */
export interface DevicePageView {
  /** The path the form posts to. */
  readonly action: string;
  readonly csrfToken: string;
  /** The user code as typed or prefilled. */
  readonly userCode: string;
  readonly username?: string;
  /** A message above the form. */
  readonly notice?: { readonly kind: 'error' | 'success'; readonly text: string };
  /** False on the final page after a decision. */
  readonly showForm: boolean;
}

const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #f4f4f5; color: #18181b; }
  main { max-width: 26rem; margin: 4rem auto; padding: 2rem; background: #fff; border-radius: .75rem; box-shadow: 0 1px 4px #0002; }
  h1 { font-size: 1.4rem; margin-top: 0; }
  label { display: block; margin: .75rem 0 .25rem; font-weight: 600; }
  input { box-sizing: border-box; width: 100%; padding: .5rem; font: inherit; border: 1px solid #a1a1aa; border-radius: .375rem; }
  input[name="user_code"] { font-family: ui-monospace, monospace; letter-spacing: .15em; text-transform: uppercase; }
  .actions { display: flex; gap: .75rem; margin-top: 1.25rem; }
  button { flex: 1; padding: .6rem; font: inherit; border-radius: .375rem; border: 1px solid #a1a1aa; background: #fff; cursor: pointer; }
  button[value="approve"] { background: #2563eb; border-color: #2563eb; color: #fff; }
  .notice { padding: .6rem .8rem; border-radius: .375rem; }
  .error { background: #fee2e2; color: #991b1b; }
  .success { background: #dcfce7; color: #166534; }
`;

/**
 * The device verification page (RFC 8628 section 3.3): a plain HTML form that works without
 * JavaScript. The user checks the code their device shows, signs in and approves, or denies.
 */
export function renderDevicePage(view: DevicePageView): string {
  const notice = view.notice
    ? `<p class="notice ${view.notice.kind}" role="${view.notice.kind === 'error' ? 'alert' : 'status'}">${escapeHtml(view.notice.text)}</p>`
    : '';
  const form = view.showForm
    ? `<p>Check that the code below is the one your device or terminal shows, then sign in to approve it.</p>
    <form method="post" action="${escapeHtml(view.action)}">
      <input type="hidden" name="csrf_token" value="${escapeHtml(view.csrfToken)}">
      <label for="user_code">Code</label>
      <input id="user_code" name="user_code" value="${escapeHtml(view.userCode)}" required maxlength="16" autocomplete="off" autocapitalize="characters" spellcheck="false" placeholder="XXXX-XXXX">
      <label for="username">Username</label>
      <input id="username" name="username" value="${escapeHtml(view.username ?? '')}" required maxlength="32" autocomplete="username" autocapitalize="none" spellcheck="false">
      <label for="password">Password</label>
      <input id="password" name="password" type="password" required autocomplete="current-password">
      <div class="actions">
        <button type="submit" name="action" value="approve">Approve</button>
        <button type="submit" name="action" value="deny" formnovalidate>Deny</button>
      </div>
    </form>`
    : '';
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="referrer" content="no-referrer">
  <title>Sign in a device</title>
  <style>${STYLE}</style>
</head>
<body>
  <main>
    <h1>Sign in a device</h1>
    ${notice}
    ${form}
  </main>
</body>
</html>
`;
}

/**
 * Answers an HTML page with the headers that keep it from being framed (clickjacking onto the
 * Approve button), from running any script, from posting anywhere but here, and from being cached
 * or leaking its URL (which holds the user code) in a `Referer`.
 */
export function sendPage(ctx: Context, status: number, html: string): void {
  ctx.status = status;
  ctx.set('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'");
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('Cache-Control', 'no-store');
  ctx.type = 'text/html; charset=utf-8';
  ctx.body = html;
}
