/** The launcher page at `/`: a shell that loads the UI bundle. */
export function renderLauncherPage(options: { title: string }): string {
  const title = options.title.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${title}</title>
    <link rel="stylesheet" href="/ui/launcher.css" />
  </head>
  <body>
    <launcher-app></launcher-app>
    <script type="module" src="/ui/app.js"></script>
  </body>
</html>
`;
}
